import Foundation
import WaylandOutputs

/// `--stats-json`: per output, what the run produced (schema in docs/json.md).
struct RunStatistics: Encodable {
    struct Entry: Encodable {
        var name: String
        var frames: UInt64
        var fps: Double
        var callbacks: UInt64
        var refresh_mhz: Int32
        var pixel_width: Int32
        var pixel_height: Int32
        /// From the wl_output global's announcement to the first commit on it.
        var first_frame_ms: Double?
        /// Times the display link gave up waiting for a frame callback.
        var suspensions: UInt64
        /// Times a frame waited over 2 s for the compositor to release a buffer.
        var buffer_waits: UInt64
        /// Frames the compositor said were presented at a time glout refused (left out of
        /// the landing figures).
        var presentation_rejected: UInt64
        /// The output left while glout ran.
        var disconnected: Bool
        /// Where the compositor put the window when it closed (its last frame, and what the
        /// compositor said after it).
        var placement: Placement
        /// How far from their targets its frames landed in the steady state (its last, up
        /// to 4096, or 16384 with --landings-json, committed a second or more after its
        /// first), and in its start-up second, as bench reports them.
        var landing: LandingSummary?
        var startup_landing: LandingSummary?
        /// Whether commits carried wp_fifo_v1 barriers and wp_commit_timer_v1 timestamps,
        /// how many carried a timestamp, and how many the compositor seemed to hold for
        /// one ahead of its commit (each remade the surface).
        var fifo: Bool
        var commit_timing: Bool
        var timestamped_commits: UInt64
        var timestamps_held: UInt64
        /// Its --content video, if it plays one; with a playlist of several, `videos`,
        /// one per file.
        var video: VideoReport?
        /// Its render thread's CPU over the run per distinct video frame it showed (nil
        /// without one).
        var cpu_ms_per_video_frame: Double?
        var videos: [VideoReport]?
    }

    /// The facts that show a window covers its output, where no screenshot can.
    struct Placement: Encodable {
        /// The outputs the surface entered (wl_surface.enter) and has not left.
        var entered: [String]
        /// The logical size of the last configure glout acknowledged (0x0: its own choice).
        var configured_width, configured_height: Int32
        /// The output's logical size.
        var logical_width, logical_height: Int32
        /// The buffer committed, its buffer scale, and the viewport's destination size.
        var buffer_width, buffer_height, buffer_scale: Int32
        var viewport_width, viewport_height: Int32?
        /// The buffer, in points, is the output's logical size.
        var covers_output: Bool
        /// On the output it belongs to and covering it.
        var fullscreen_on_own_output: Bool
        /// wl_surface v6's preferred_buffer_scale and preferred_buffer_transform (absent
        /// where the compositor sent none).
        var preferred_buffer_scale: Int32?
        var preferred_buffer_transform: String?

        init(_ placement: WaylandOutputs.Placement, output: Output) {
            entered = placement.enteredOutputs
            (configured_width, configured_height) = (placement.configuredSize.width, placement.configuredSize.height)
            (logical_width, logical_height) = (output.logicalFrame.width, output.logicalFrame.height)
            (buffer_width, buffer_height) = (placement.bufferSize.width, placement.bufferSize.height)
            buffer_scale = placement.bufferScale
            (viewport_width, viewport_height) = (placement.viewportDestination?.width, placement.viewportDestination?.height)
            covers_output = placement.coversOutput
            fullscreen_on_own_output = placement.coversOutput && placement.enteredOutputs == [output.name]
            preferred_buffer_scale = placement.preferredBufferScale
            preferred_buffer_transform = placement.preferredBufferTransform?.description
        }
    }

    var layout: String
    var duration_s: Double
    var outputs: [Entry]
    /// In the span layout: the clock, the canvas and the seam offsets.
    var span: SpanReport?
    /// Why the run ended: "duration", "signal", "key", "closed", "no-outputs", "error".
    var ended_by: String
    var error: String?
}

/// A file the user asked glout to write, created when glout starts so that a bad path is
/// reported at once, and written whole at the end, whatever ended the run.
final class ReportFile {
    let path: String

    init(path: String, option: String) throws {
        self.path = path
        // A FIFO or device is checked, not opened: opening a FIFO would wait for a reader,
        // and closing it would end the reader's stream before the report.
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            guard access(path, W_OK) == 0 else {
                throw GloutError("\(option) \(path): cannot write the file (\(String(cString: strerror(errno))))")
            }
            return
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw GloutError("\(option) \(path): cannot create the file (\(String(cString: strerror(errno))))")
        }
        close(fd)
    }

    func write<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(value)
        data.append(0x0A)
        // Atomically (a temporary file renamed over it) only where it is a plain file or
        // none: renamed over /dev/null or a FIFO, that would replace the device itself.
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            let fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
            guard fd >= 0 else { throw GloutError("cannot write \(path): \(String(cString: strerror(errno)))") }
            defer { close(fd) }
            var written = 0
            while written < data.count {
                let count = data.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { throw GloutError("cannot write \(path): \(String(cString: strerror(errno)))") }
                written += count
            }
            return
        }
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw GloutError("cannot write \(path): \(error.localizedDescription)")
        }
    }
}
