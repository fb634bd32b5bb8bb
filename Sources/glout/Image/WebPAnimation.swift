import CFFmpeg
import CWebP
import WaylandOutputs

/// An animated WebP, played as a video: libwebpdemux's animation decoder composes each
/// frame onto the canvas, which is handed on as an RGBA AVFrame (premultiplied, so over
/// black, and opaque). The decoder and its demuxer read `file` for as long as they live,
/// so the object holds it.
final class WebPAnimation: FrameDecoder {
    let path: String
    let width: Int
    let height: Int
    let codecName = "webp"
    let decodesWithVAAPI = false
    let isRGB = true
    /// Each frame's time on screen in milliseconds, as browsers take it: 10 ms or less
    /// counts as 100.
    let durations: [Int]
    /// Where each frame starts, in milliseconds from the first.
    private let starts: [Int64]
    /// What the demuxer and the decoder read; freed after them (properties go after deinit).
    private let file: HeldBytes
    private let decoder: OpaquePointer
    private let frame: UnsafeMutablePointer<AVFrame>
    /// The next frame's index in the pass; a frame libwebp failed on ends the pass.
    private var next = 0
    private var failed = false

    /// The most frames an animation has (as a video: 48 hours at 60 a second).
    static let mostFrames = 48 * 3600 * 60

    /// Reads the animation in `file` (a WebP with its animation flag). Errors name the file
    /// and say why: libwebpdemux refuses a file cut short or damaged in its chunks.
    init(file: HeldBytes, path: String) throws {
        let name = Log.printable(path)
        func failure(_ reason: String) -> GloutError { GloutError("--content \(name): not a WebP glout can read (\(reason))") }
        var data = WebPData(bytes: file.typed, size: file.count)
        guard let demuxer = WebPDemux(&data) else {
            throw failure("libwebpdemux cannot read its chunks: cut short or damaged")
        }
        defer { WebPDemuxDelete(demuxer) }
        let (width, height) = (Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_WIDTH)), Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_HEIGHT)))
        let count = Int(WebPDemuxGetI(demuxer, WEBP_FF_FRAME_COUNT))
        guard PictureLimits.allows(width: width, height: height) else {
            throw GloutError("--content \(name): its animation is \(width)x\(height); glout plays animations of \(PictureLimits.described)")
        }
        guard (1...WebPAnimation.mostFrames).contains(count) else {
            throw failure("\(count) frames; an animation has 1 to \(WebPAnimation.mostFrames)")
        }
        var durations: [Int] = []
        durations.reserveCapacity(count)
        var iterator = WebPIterator()
        if WebPDemuxGetFrame(demuxer, 1, &iterator) != 0 {
            repeat { durations.append(iterator.duration <= 10 ? 100 : Int(iterator.duration)) } while WebPDemuxNextFrame(&iterator) != 0
            WebPDemuxReleaseIterator(&iterator)
        }
        guard durations.count == count else { throw failure("libwebpdemux found \(durations.count) of its \(count) frames") }
        var options = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInit(&options) != 0 else {
            throw GloutError("--content \(name): this libwebpdemux does not match the one glout was built with")
        }
        options.color_mode = MODE_rgbA
        options.use_threads = 0
        guard let decoder = WebPAnimDecoderNew(&data, &options) else { throw failure("libwebp cannot start its animation decoder") }
        guard let frame = av_frame_alloc() else {
            WebPAnimDecoderDelete(decoder)
            throw failure("out of memory")
        }
        frame.pointee.format = AV_PIX_FMT_RGBA.rawValue
        (frame.pointee.width, frame.pointee.height) = (Int32(width), Int32(height))
        guard av_frame_get_buffer(frame, 0) >= 0 else {
            var unused: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&unused)
            WebPAnimDecoderDelete(decoder)
            throw failure("out of memory for a \(width)x\(height) frame")
        }
        (self.path, self.width, self.height, self.durations) = (path, width, height, durations)
        var time: Int64 = 0
        starts = durations.map { duration in
            defer { time += Int64(duration) }
            return time
        }
        (self.file, self.decoder, self.frame) = (file, decoder, frame)
    }

    deinit {
        WebPAnimDecoderDelete(decoder)
        var unused: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&unused)
    }

    /// Frames start where the one before ends, in milliseconds.
    func timeline() throws -> VideoTimeline {
        guard let timeline = VideoTimeline(starts: starts, end: starts[starts.count - 1] + Int64(durations[durations.count - 1]),
                                           tick: 0.001) else {
            throw GloutError("--content \(Log.printable(path)): its animation has no frames")
        }
        return timeline
    }

    /// Back to the first frame (each frame is drawn over the ones before it, so the way
    /// to any frame is from the first); the source drops those before the one it wants.
    func seek(toTicks ticks: Int64) -> Bool {
        WebPAnimDecoderReset(decoder)
        (next, failed) = (0, false)
        return true
    }

    func step(_ deliver: (UnsafeMutablePointer<AVFrame>, Int64?) -> Void) -> DecodeStep {
        guard !failed, next < durations.count, WebPAnimDecoderHasMoreFrames(decoder) != 0 else { return .end }
        var canvas: UnsafeMutablePointer<UInt8>?
        var timestamp: Int32 = 0
        guard WebPAnimDecoderGetNext(decoder, &canvas, &timestamp) != 0, let canvas else {
            // The frames after it are drawn over it: the pass ends here.
            failed = true
            return .corrupt("frame \(next), which libwebp cannot decode")
        }
        copyOpaque(canvas)
        next += 1
        deliver(frame, starts[next - 1])
        return .more
    }

    /// The canvas, premultiplied (so over black), into the frame with an opaque alpha.
    private func copyOpaque(_ canvas: UnsafePointer<UInt8>) {
        guard let rows = frame.pointee.data.0 else { return }
        let stride = Int(frame.pointee.linesize.0)
        for y in 0..<height {
            let from = canvas + y * width * 4, to = rows + y * stride
            to.update(from: from, count: width * 4)
            var x = 3
            while x < width * 4 { to[x] = 255; x += 4 }
        }
    }

    /// The only frame of a one-frame animation, as a still.
    func still() throws -> ContentImage {
        var canvas: UnsafeMutablePointer<UInt8>?
        var timestamp: Int32 = 0
        WebPAnimDecoderReset(decoder)
        guard WebPAnimDecoderGetNext(decoder, &canvas, &timestamp) != 0, let canvas else {
            throw GloutError("--content \(Log.printable(path)): not a WebP glout can read (libwebp cannot decode its frame)")
        }
        var pixels = Array(UnsafeBufferPointer(start: canvas, count: width * height * 4))
        for i in stride(from: 3, to: pixels.count, by: 4) { pixels[i] = 255 }
        return ContentImage(path: path, width: width, height: height, pixels: pixels)
    }
}
