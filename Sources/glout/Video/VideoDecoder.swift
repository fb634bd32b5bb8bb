import CFFmpeg
import Glibc
import WaylandOutputs

/// What FFmpeg says an error code means, fit for a log line.
func ffmpegReason(_ code: Int32) -> String {
    var text = [CChar](repeating: 0, count: 256)
    av_strerror(code, &text, text.count)
    return Log.printable(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
}

/// A video file opened by FFmpeg: its best video stream and a decoder for it. Used on one
/// thread at a time (the opening thread, then ``VideoSource``'s decoding thread).
final class VideoDecoder: FrameDecoder {
    let path: String
    let stream: Int32
    let width: Int
    let height: Int
    let codecName: String
    /// The stream's time base in seconds, and its average frame rate (0: unknown).
    let tick: Double
    let averageRate: Double
    /// Whether a VA-API device decodes it (``VideoDecoding``); its frames are copied back.
    let decodesWithVAAPI: Bool
    /// Whether the stream's frames are RGB or a palette's (GIF, PNG in a container).
    let isRGB: Bool
    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private let packet: UnsafeMutablePointer<AVPacket>
    private let frame: UnsafeMutablePointer<AVFrame>
    /// A frame the GPU decoded, copied back into memory (``decodesWithVAAPI``).
    private let transferred: UnsafeMutablePointer<AVFrame>
    /// After the end of the stream, until the next seek: the decoder was drained.
    private var drained = false
    /// Each key frame's start (presentation time) and the time a seek to it asks for: its
    /// decoding time, at or before its start, because some demuxers (MPEG-TS) seek by
    /// decoding times and would land past the key frame. In order of start; from
    /// ``timeline()``'s scan.
    private var keyframes: [(start: Int64, seek: Int64)] = []
    /// The earliest time any packet of the stream has: a seek there goes to the start.
    private var earliest: Int64?

    /// The most frames a file has: 48 hours at 60 frames a second.
    static let mostFrames = 48 * 3600 * 60

    /// Opens `path`, its decoder as `decoding` says; errors name the file and FFmpeg's reason.
    init(path: String, decoding: VideoDecoding) throws {
        // FFmpeg's own log would reach the terminal unescaped, a line per damaged
        // macroblock: glout says what matters itself (``ffmpegReason(_:)``).
        av_log_set_level(AV_LOG_QUIET)
        func failure(_ reason: String) -> GloutError { GloutError("--content \(Log.printable(path)): \(reason)") }
        var format: UnsafeMutablePointer<AVFormatContext>?
        var codec: UnsafeMutablePointer<AVCodecContext>?
        var ready = false
        defer {
            if !ready {
                if codec != nil { avcodec_free_context(&codec) }
                if format != nil { avformat_close_input(&format) }
            }
        }
        // A live stream's playlist (HLS, DASH) never ends: FFmpeg would wait for its next
        // segment forever. A list of files is glout's own (FILE [SECONDS] lines).
        if let streaming = VideoDecoder.streamingFormat(path) {
            throw failure("a streaming playlist (FFmpeg's '\(streaming)'), which can wait for segments forever; glout plays a "
                          + "video file, or a list of them in lines of FILE [SECONDS]")
        }
        // A local file only: "file:" keeps a path such as "http:x" from being taken for a
        // URL, and the whitelist keeps a playlist inside the file from reaching out.
        var options: OpaquePointer?
        av_dict_set(&options, "protocol_whitelist", "file,crypto,data", 0)
        defer { av_dict_free(&options) }
        let opened = avformat_open_input(&format, "file:" + path, nil, &options)
        guard opened >= 0, let format else {
            throw failure("not a picture, shader or video glout can read (FFmpeg: \(ffmpegReason(opened)))")
        }
        let info = avformat_find_stream_info(format, nil)
        guard info >= 0 else { throw failure("FFmpeg cannot read its streams (\(ffmpegReason(info)))") }
        let best = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        guard best >= 0, let found = format.pointee.streams[Int(best)], let parameters = found.pointee.codecpar else {
            throw failure("has no video stream (FFmpeg: \(ffmpegReason(best)))")
        }
        let codecName = Log.printable(String(cString: avcodec_get_name(parameters.pointee.codec_id)))
        let (width, height) = (Int(parameters.pointee.width), Int(parameters.pointee.height))
        guard let decoder = avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw failure("its video codec '\(codecName)' has no decoder in this FFmpeg")
        }
        guard PictureLimits.allows(width: width, height: height) else {
            throw failure("its video is \(width)x\(height); glout plays videos of \(PictureLimits.described)")
        }
        codec = avcodec_alloc_context3(decoder)
        guard let context = codec, avcodec_parameters_to_context(context, parameters) >= 0 else {
            throw failure("FFmpeg cannot set up its '\(codecName)' decoder")
        }
        let timeBase = found.pointee.time_base
        context.pointee.pkt_timebase = timeBase
        // Two frame threads: the decoder runs ahead on its own, beside the render threads.
        context.pointee.thread_count = 2
        let vaapi = try VideoDecoder.attachVAAPI(to: context, decoder: decoder, decoding: decoding, codecName: codecName,
                                                 failure: failure)
        // The decoder's threads start here: with every signal blocked, so that SIGINT and
        // SIGTERM reach the thread glout watches them on, not one of FFmpeg's.
        let openedCodec = withSignalsBlocked { avcodec_open2(context, decoder, nil) }
        guard openedCodec >= 0 else {
            throw failure("FFmpeg cannot open its '\(codecName)' decoder (\(ffmpegReason(openedCodec)))")
        }
        ready = true
        self.path = path
        self.format = format
        self.codec = context
        stream = best
        self.codecName = codecName
        (self.width, self.height) = (width, height)
        tick = timeBase.num > 0 && timeBase.den > 0 ? Double(timeBase.num) / Double(timeBase.den) : 1e-6
        let rate = found.pointee.avg_frame_rate
        averageRate = rate.num > 0 && rate.den > 0 ? Double(rate.num) / Double(rate.den) : 0
        decodesWithVAAPI = vaapi
        let flags = av_pix_fmt_desc_get(AVPixelFormat(rawValue: parameters.pointee.format))?.pointee.flags ?? 0
        isRGB = flags & UInt64(AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL) != 0
        packet = av_packet_alloc()
        frame = av_frame_alloc()
        transferred = av_frame_alloc()
    }

    /// The demuxer FFmpeg picks for the start of `path` when it is one of those that
    /// stream segments (HLS, DASH), else nil.
    static func streamingFormat(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        var bytes = [UInt8](repeating: 0, count: 4096 + Int(glout_probe_padding()))
        let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, 4096) }
        guard count > 0 else { return nil }
        let found = bytes.withUnsafeMutableBufferPointer { glout_probe_format(path, $0.baseAddress, Int32(count)) }
        guard let found else { return nil }
        let name = String(cString: found)
        return ["hls", "applehttp", "dash"].contains(name) ? name : nil
    }

    /// Gives `context` a VA-API device where `decoding` allows one and the machine and the
    /// codec have it; true if it did. `.vaapi` without one is an error saying why.
    private static func attachVAAPI(to context: UnsafeMutablePointer<AVCodecContext>, decoder: UnsafePointer<AVCodec>,
                                    decoding: VideoDecoding, codecName: String,
                                    failure: (String) -> GloutError) throws -> Bool {
        guard decoding != .software else { return false }
        guard glout_codec_has_vaapi(decoder) != 0 else {
            if decoding == .vaapi { throw failure("--video-decoder vaapi: its codec '\(codecName)' has no VA-API decoder in this FFmpeg") }
            return false
        }
        var device: UnsafeMutablePointer<AVBufferRef>?
        defer { av_buffer_unref(&device) }
        let made = av_hwdevice_ctx_create(&device, AV_HWDEVICE_TYPE_VAAPI, nil, nil, 0)
        guard made >= 0, let device else {
            if decoding == .vaapi {
                // FFmpeg's reason is often only "Generic error in an external library".
                let noNode = access("/dev/dri", F_OK) != 0 ? "; this machine has no /dev/dri (no GPU)" : ""
                throw failure("--video-decoder vaapi: FFmpeg cannot open a VA-API device (\(ffmpegReason(made))\(noNode)); "
                              + "--video-decoder software decodes on the CPU")
            }
            return false
        }
        let attached = glout_decode_with(context, device)
        guard attached >= 0 else { throw failure("FFmpeg cannot hand its decoder the VA-API device (\(ffmpegReason(attached)))") }
        return true
    }

    deinit { close() }

    private func close() {
        if codec != nil { avcodec_free_context(&codec) }
        if format != nil { avformat_close_input(&format) }
        var packet: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&packet)
        var frame: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&frame)
        var transferred: UnsafeMutablePointer<AVFrame>? = transferred
        av_frame_free(&transferred)
    }

    /// Reads every packet of the stream once, without decoding, for the frames' start
    /// times and the end of the last: the timeline the refreshes choose from. A stream
    /// some of whose packets have no presentation time is numbered in decoding order
    /// instead, a packet a frame, at its average rate (``VideoTimeline/framed``).
    func timeline() throws -> VideoTimeline {
        let none = glout_av_nopts_value()
        var starts: [Int64] = [], end = Int64.min, packets = 0, missing = false, outOfRange = false
        while av_read_frame(format, packet) >= 0 {
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == stream else { continue }
            packets += 1
            guard packets <= VideoDecoder.mostFrames else {
                throw GloutError("--content \(Log.printable(path)): has more than \(VideoDecoder.mostFrames) frames")
            }
            let (pts, dts) = (packet.pointee.pts, packet.pointee.dts)
            for time in [pts, dts] where time != none { earliest = min(earliest ?? time, time) }
            if pts == none { missing = true; continue }
            if packet.pointee.flags & AV_PKT_FLAG_KEY != 0 { keyframes.append((pts, dts == none ? pts : min(dts, pts))) }
            starts.append(pts)
            let (packetEnd, overflow) = pts.addingReportingOverflow(max(0, packet.pointee.duration))
            outOfRange = outOfRange || overflow
            end = max(end, packetEnd)
        }
        let timeline: VideoTimeline?
        if missing || starts.isEmpty {
            timeline = VideoTimeline(frames: packets, duration: 1 / (averageRate > 0 ? averageRate : 25))
        } else {
            // A last packet without a duration lasts as long as the one before it.
            let sorted = starts.sorted()
            let last = sorted[sorted.count - 1]
            if end <= last, sorted.count > 1 {
                let (gap, over) = last.subtractingReportingOverflow(sorted[sorted.count - 2])
                let (after, past) = last.addingReportingOverflow(gap)
                outOfRange = outOfRange || over || past
                end = after
            }
            let (least, past) = last.addingReportingOverflow(1)
            outOfRange = outOfRange || past || end.subtractingReportingOverflow(sorted[0]).overflow
            guard !outOfRange else {
                throw GloutError("--content \(Log.printable(path)): its frames' times run from \(sorted[0]) to past \(last) "
                                 + "ticks, more than a 64-bit count of ticks holds")
            }
            timeline = VideoTimeline(starts: sorted, end: max(end, least), tick: tick)
        }
        keyframes.sort { $0.start < $1.start }
        guard let timeline else {
            throw GloutError("--content \(Log.printable(path)): its video stream has no frames")
        }
        guard timeline.framesPerSecond <= VideoTimeline.fastestRate else {
            throw GloutError("--content \(Log.printable(path)): its \(timeline.count) frames last \(timeline.length) s in all; "
                             + "glout plays at most \(Int(VideoTimeline.fastestRate)) frames a second")
        }
        guard timeline.framed || seek(toTicks: timeline.starts[0]) else {
            throw GloutError("--content \(Log.printable(path)): FFmpeg cannot go back to its start")
        }
        return timeline
    }

    /// Goes to the key frame at or before the frame that starts at `ticks` and forgets
    /// what the decoder held. Where the scan saw key frames, the seek asks for the key
    /// frame's decoding time (the start: the earliest time of the stream); else `ticks`.
    func seek(toTicks ticks: Int64) -> Bool {
        var time = ticks
        if let first = keyframes.first {
            // The last key frame starting at or before `ticks`.
            var (low, high) = (0, keyframes.count)
            while low < high {
                let middle = (low + high) / 2
                if keyframes[middle].start <= ticks { low = middle + 1 } else { high = middle }
            }
            time = low == 0 || ticks <= first.start ? min(earliest ?? first.seek, first.seek) : keyframes[low - 1].seek
        }
        let done = av_seek_frame(format, stream, time, AVSEEK_FLAG_BACKWARD) >= 0
            || av_seek_frame(format, stream, time, AVSEEK_FLAG_BACKWARD | AVSEEK_FLAG_ANY) >= 0
        avcodec_flush_buffers(codec)
        drained = false
        return done
    }

    /// Reads one packet and hands each frame it completes to `deliver` (with its start
    /// in ticks, nil when it has none); at the end, drains the decoder.
    func step(_ deliver: (_ frame: UnsafeMutablePointer<AVFrame>, _ start: Int64?) -> Void) -> DecodeStep {
        if drained { return .end }
        let read = av_read_frame(format, packet)
        if read < 0 {
            // The end (or an error that ends it): what the decoder still holds, then done.
            avcodec_send_packet(codec, nil)
            _ = receive(deliver)
            drained = true
            return .end
        }
        defer { av_packet_unref(packet) }
        guard packet.pointee.stream_index == stream else { return .more }
        let sent = avcodec_send_packet(codec, packet)
        if sent < 0 && sent != glout_averror_again() {
            return .corrupt("a packet FFmpeg cannot decode (\(ffmpegReason(sent)))")
        }
        return receive(deliver)
    }

    private func receive(_ deliver: (UnsafeMutablePointer<AVFrame>, Int64?) -> Void) -> DecodeStep {
        while true {
            let got = avcodec_receive_frame(codec, frame)
            if got == glout_averror_again() || got == glout_averror_eof() { return .more }
            if got < 0 { return .corrupt("a frame FFmpeg cannot decode (\(ffmpegReason(got)))") }
            let start = frame.pointee.best_effort_timestamp
            var decoded = frame
            if frame.pointee.hw_frames_ctx != nil {
                // In the GPU's memory: copied back (NV12, as a rule) with the frame's colours.
                let moved = av_hwframe_transfer_data(transferred, frame, 0)
                if moved < 0 {
                    av_frame_unref(frame)
                    return .corrupt("a frame the GPU decoded that FFmpeg cannot copy back (\(ffmpegReason(moved)))")
                }
                av_frame_copy_props(transferred, frame)
                decoded = transferred
            }
            deliver(decoded, start == glout_av_nopts_value() ? nil : start)
            av_frame_unref(transferred)
            av_frame_unref(frame)
        }
    }
}

/// Runs `body` with every signal blocked in the calling thread: threads it starts inherit
/// that, and leave signals to the thread that waits for them.
func withSignalsBlocked<T>(_ body: () throws -> T) rethrows -> T {
    var all = sigset_t(), previous = sigset_t()
    sigfillset(&all)
    pthread_sigmask(SIG_BLOCK, &all, &previous)
    defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
    return try body()
}
