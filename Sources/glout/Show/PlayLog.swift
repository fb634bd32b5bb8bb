import Dispatch
import Glibc
import WaylandOutputs

/// --play-log FILE: proof of play, a JSON line per item a show's zone showed on an output
/// (docs/shows.md): written by a thread of its own, so that a slow disk never holds up a
/// frame; rotated when the file would pass its size (FILE.1 to FILE.4 keep the older
/// lines); every line handed to it is written before glout exits.
final class PlayLog: Sendable {
    /// One showing of an item.
    struct Entry: Sendable, Equatable {
        var output: String
        var zone: String
        var playlist: String
        var item: String
        /// CLOCK_REALTIME of the first refresh that showed it, and of the first that
        /// showed what came after (or, at exit, the refresh after its last).
        var start: Double
        var end: Double
        var frames: Int
        /// Refreshes in between that got no frame.
        var missed: Int
        /// False where glout stopped (or the output left) while it showed.
        var complete = true

        var json: [UInt8] {
            JSONText.encode(["output": output, "zone": zone, "playlist": playlist, "item": item, "start": start, "end": end,
                             "frames": frames, "missed": missed, "complete": complete] as [String: Any]) + [10]
        }
    }

    let path: String
    /// The size past which the file is rotated.
    let limit: Int
    /// Older files kept: FILE.1 (the newest) to FILE.4.
    static let kept = 4
    private let queue = DispatchQueue(label: "glout.play-log")
    private let log: Log
    private struct File: Sendable {
        var descriptor: Int32
        var size: Int
        var failed = false
        /// Lines not yet written whole.
        var pending: [UInt8] = []
        /// Whether a rotation failed (then the file grows on, said once).
        var cannotRotate = false
    }
    private let file: Locked<File>

    /// Opens `path` to append to (made if missing), or throws why it cannot.
    init(path: String, limit: Int, log: Log) throws {
        (self.path, self.limit, self.log) = (path, limit, log)
        file = Locked(File(descriptor: try PlayLog.open(path), size: 0))
        file.withLock { $0.size = PlayLog.size(of: $0.descriptor) }
    }

    deinit {
        file.withLock { if $0.descriptor >= 0 { close($0.descriptor) } }
    }

    private static func open(_ path: String) throws -> Int32 {
        let descriptor = Glibc.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw GloutError("--play-log \(Log.printable(path)): cannot write the file (\(FileSystem.reason()))")
        }
        return descriptor
    }

    private static func size(of descriptor: Int32) -> Int {
        var info = stat()
        return fstat(descriptor, &info) == 0 ? Int(info.st_size) : 0
    }

    /// Hands `entry` to the writer; returns at once.
    func record(_ entry: Entry) {
        let line = entry.json
        queue.async { [self] in write(line) }
    }

    /// Waits until every line handed over is written.
    func flush() {
        queue.sync {}
    }

    /// Appends `line` (after any line a failed write left), rotating first where it would
    /// take the file past the limit. A write that fails is cut back to the last whole line,
    /// said once, and tried again with the next line; at most a mebibyte waits so.
    private func write(_ line: [UInt8]) {
        file.withLock { file in
            if file.descriptor < 0, let reopened = try? PlayLog.open(path) {
                (file.descriptor, file.size) = (reopened, PlayLog.size(of: reopened))
            }
            if file.pending.count + line.count <= 1 << 20 { file.pending += line }
            if file.size > 0, !file.cannotRotate, file.size + file.pending.count > limit { rotate(&file) }
            var written = 0
            while written < file.pending.count, file.descriptor >= 0 {
                let count = file.pending.withUnsafeBytes {
                    Glibc.write(file.descriptor, $0.baseAddress! + written, $0.count - written)
                }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                written += count
            }
            guard written == file.pending.count else {
                if !file.failed { log.warning("--play-log \(Log.printable(path)): cannot write (\(FileSystem.reason())); trying again") }
                file.failed = true
                // No half line stays in the file.
                if file.descriptor >= 0 { _ = ftruncate(file.descriptor, off_t(file.size)) }
                return
            }
            file.size += written
            file.pending = []
            file.failed = false
        }
    }

    /// FILE.3 to FILE.4, ..., FILE to FILE.1, and a new FILE; a FIFO or device (/dev/null,
    /// a pipe to a collector) is never renamed.
    private func rotate(_ file: inout File) {
        var info = stat()
        guard fstat(file.descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            file.cannotRotate = true
            return
        }
        for index in stride(from: PlayLog.kept - 1, through: 1, by: -1) {
            rename("\(path).\(index)", "\(path).\(index + 1)")
        }
        guard rename(path, "\(path).1") == 0 else {
            // The folder may not allow it: the file grows on rather than lose lines.
            log.warning("--play-log \(Log.printable(path)): cannot rotate (\(FileSystem.reason())); the file grows on")
            file.cannotRotate = true
            return
        }
        close(file.descriptor)
        do {
            file.descriptor = try PlayLog.open(path)
            file.size = 0
        } catch {
            file.descriptor = -1
            log.warning("\(error)")
        }
    }
}
