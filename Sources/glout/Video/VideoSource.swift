import CFFmpeg
import Foundation
import Glibc
import WaylandOutputs

/// A --content video, decoded once per process for every window that shows it: a thread
/// of its own decodes ahead of the frames the windows ask for into a bounded queue, and
/// each window takes from it the frame its refresh's target time calls for
/// (``VideoTimeline``). The video loops: at its end the thread goes back to the start
/// and goes on numbering, so the wrap is one more frame.
final class VideoSource: @unchecked Sendable {
    let path: String
    let timeline: VideoTimeline
    let width: Int
    let height: Int
    let codecName: String
    /// --video-decoder, and whether it gave a VA-API device.
    let decoding: VideoDecoding
    let decodesWithVAAPI: Bool
    /// The textures every window draws the frames from, uploaded once per frame.
    let textures: VideoTextures
    /// What the decoding thread makes of each frame: planes for the shader, or BGRA
    /// (``VideoConversion``). Set by ``start(conversion:)``, before the thread runs.
    private(set) var conversion = VideoConversion.shader
    /// Frames decoded ahead at most: 12, or fewer where 12 would take more than
    /// ``queueBytes`` (a 1920x1080 frame is 3 MB as planes, 8 MB as BGRA), and no fewer
    /// than 3 (2 for frames of over half that).
    var capacity: Int {
        let each = VideoFrame.bytes(width: width, height: height, conversion: conversion)
        return min(12, max(each > VideoSource.queueBytes / 2 ? 2 : 3, VideoSource.queueBytes / max(each, 1)))
    }
    static let queueBytes = 96 << 20
    /// The frames' memory, reused: a frame let go (shown by every window, or dropped by a
    /// seek) is the next one's, four kept spare at most, and no more than twice
    /// ``queueBytes`` of them (one at least).
    private let memory = VideoFrameMemory.Pool(spares: 4, bytes: 2 * VideoSource.queueBytes)
    /// A refresh this many frames past the newest decoded frame seeks instead of waiting
    /// for the decoder to get there (the realtime clock's start, a frozen time let go).
    private var seekDistance: Int { max(24, Int(2 * timeline.framesPerSecond)) }

    // Everything below is guarded by `mutex`; `wake` tells the decoding thread.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let wake = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// Tells a window that waits for a frame (a snapshot) that one was queued.
    private let arrived = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var queue: [VideoFrame] = []
    /// Each window's last frame asked for, and when (CLOCK_MONOTONIC ns).
    private var consumers: [ObjectIdentifier: (frame: Int, asked: UInt64)] = [:]
    /// The newest frame asked for: the decoder keeps up to ``capacity`` frames past it.
    private var wanted = 0
    private var seekTarget: Int? = 0
    private var stopping = false
    private var decodeNanoseconds: [UInt64] = []
    private var warned = false
    private var thread = pthread_t()
    private var running = false
    private let log: Log
    private var decoder: (any FrameDecoder)?
    /// The file opened anew at its start, where a seek cannot go there.
    private let reopen: () throws -> any FrameDecoder
    /// Makes the decoded frames into pictures (the decoding thread's own).
    private let converter = FrameConverter()
    /// Whether the frames are RGB, kept as BGRA whatever the conversion (``FrameDecoder/isRGB``).
    private let isRGB: Bool

    /// Opens `path` with FFmpeg (its decoder as `decoding` says) and reads its timeline.
    convenience init(path: String, log: Log, decoding: VideoDecoding) throws {
        try self.init(decoder: try VideoDecoder(path: path, decoding: decoding), path: path, log: log, decoding: decoding) {
            try VideoDecoder(path: path, decoding: decoding)
        }
    }

    /// The video `decoder` decodes, from file `path`, with its `timeline` (read now when
    /// not given); `reopen` opens the file again at its start.
    init(decoder: any FrameDecoder, timeline: VideoTimeline? = nil, path: String, log: Log, decoding: VideoDecoding,
         reopen: @escaping () throws -> any FrameDecoder) throws {
        self.decoding = decoding
        self.reopen = reopen
        isRGB = decoder.isRGB
        decodesWithVAAPI = decoder.decodesWithVAAPI
        self.path = path
        self.log = log
        self.timeline = try timeline ?? decoder.timeline()
        width = decoder.width
        height = decoder.height
        codecName = decoder.codecName
        // Texture slots as the frames' memory: four, fewer for the largest frames.
        textures = VideoTextures(capacity: min(4, 2 * VideoSource.queueBytes / max(1, 4 * width * height)), log: log, name: path)
        // Numbered in decoding order, a pass must start at the stream's very start: a
        // fresh open is sure to (the scan left the decoder at the end).
        self.decoder = self.timeline.framed ? try reopen() : decoder
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(wake, nil)
        pthread_cond_init(arrived, nil)
    }

    deinit {
        stop()
        pthread_cond_destroy(wake)
        pthread_cond_destroy(arrived)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        wake.deallocate()
        arrived.deallocate()
    }

    /// Starts the decoding thread (once), making each frame into what `conversion` says
    /// (``VideoConversion/shader`` or ``VideoConversion/swscale``; RGB frames always BGRA).
    func start(conversion: VideoConversion) throws {
        guard !running else { return }
        self.conversion = isRGB ? .swscale : conversion
        let body = Unmanaged.passRetained(self).toOpaque()
        let result = withSignalsBlocked { pthread_create(&thread, nil, { argument in
            let source = Unmanaged<VideoSource>.fromOpaque(argument!).takeRetainedValue()
            source.decode()
            return nil
        }, body) }
        guard result == 0 else {
            Unmanaged<VideoSource>.fromOpaque(body).release()
            throw GloutError("--content \(Log.printable(path)): cannot start its decoding thread "
                             + "(\(String(cString: strerror(result))))")
        }
        running = true
    }

    /// Stops and joins the decoding thread; the frames taken stay valid.
    func stop() {
        guard running else { return }
        locked { stopping = true }
        pthread_cond_signal(wake)
        // A window or preload waiting for a frame gives up now, not at its deadline.
        pthread_cond_broadcast(arrived)
        // The last owner may let go on the decoding thread itself (its own reference, once
        // it stopped on its own): a thread cannot join itself, so it is detached.
        if pthread_equal(pthread_self(), thread) != 0 { pthread_detach(thread) } else { pthread_join(thread, nil) }
        running = false
    }

    /// Stops each video's decoding thread, then deletes its textures in the shared
    /// context: for videos no window draws any more.
    static func release(_ videos: [VideoSource], graphics: Graphics) {
        guard !videos.isEmpty else { return }
        for video in videos { video.stop() }
        _ = try? graphics.withSharedContext { for video in videos { video.textures.delete() } }
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// The picture for frame `number`, asked by `consumer` at `now`: that frame, or
    /// while the decoder has not reached it the newest one before it (`late`), or nil
    /// before any frame is decoded. With `waiting` seconds, waits up to that long for the
    /// frame itself (a snapshot draws one exact frame).
    func picture(for number: Int, consumer: ObjectIdentifier, now: UInt64,
                 waiting: Double = 0) -> (picture: VideoFrame?, late: Bool) {
        if waiting > 0 {
            _ = picture(for: number, consumer: consumer, now: now)
            var deadline = timespec()
            clock_gettime(CLOCK_REALTIME, &deadline)
            let end = Double(deadline.tv_sec) + Double(deadline.tv_nsec) / 1e9 + waiting
            deadline = timespec(tv_sec: Int(end), tv_nsec: Int((end - end.rounded(.down)) * 1e9))
            pthread_mutex_lock(mutex)
            while !stopping, !queue.contains(where: { $0.number == number }) {
                // Room for the decoder to go on towards it.
                trim(now: now)
                pthread_cond_signal(wake)
                if pthread_cond_timedwait(arrived, mutex, &deadline) == ETIMEDOUT { break }
            }
            pthread_mutex_unlock(mutex)
        }
        let result: (VideoFrame?, Bool) = locked {
            consumers[consumer] = (number, now)
            wanted = max(wanted, number)
            let newest = queue.last?.number ?? (seekTarget ?? wanted)
            if let first = queue.first, number < first.number, seekTarget == nil {
                seek(to: number)
            } else if number > newest + seekDistance {
                seek(to: number)
            }
            trim(now: now)
            guard let found = queue.lastIndex(where: { $0.number <= number }) else { return (nil, true) }
            return (queue[found], queue[found].number != number)
        }
        pthread_cond_signal(wake)
        return result
    }

    /// Frame `number` will be asked for soon (a playlist's next item): unless a window
    /// shows this video now, the decoder goes there ahead of time, so the item's first
    /// refresh finds its frame.
    func prepare(_ number: Int) {
        let now = MonotonicInstant.now.nanoseconds
        let moved: Bool = locked {
            guard !consumers.values.contains(where: { now &- $0.asked < 500_000_000 }) else { return false }
            // Frames before it are not needed: room for the decoder to go on to it.
            if let keep = queue.lastIndex(where: { $0.number <= number }), keep > 0 { queue.removeFirst(keep) }
            if queue.contains(where: { $0.number == number }) || seekTarget == number { return false }
            if let last = queue.last?.number, last < number, number - last <= capacity {
                wanted = max(wanted, number)
                return true
            }
            seek(to: number)
            return true
        }
        if moved { pthread_cond_signal(wake) }
    }

    /// Whether a window asked for a frame within the last half second.
    var isShownNow: Bool {
        let now = MonotonicInstant.now.nanoseconds
        return locked { consumers.values.contains { now &- $0.asked < 500_000_000 } }
    }

    /// Decodes frames `first` and on (`count` of them, no more than the textures hold) and
    /// uploads them into the textures, each in a short turn of the shared context: the
    /// first refreshes that show them find them there, as they would a frame another
    /// output uploaded (allocating and filling a video's textures on a render thread costs
    /// a refresh on llvmpipe). Waits up to 5 s for each frame.
    func preload(from first: Int, count: Int, graphics: Graphics) throws {
        let token = NSObject()
        let reader = ObjectIdentifier(token)
        // The token lives through the loop: its identity is the reader's, not to be reused.
        try withExtendedLifetime(token) {
            defer { forget(reader) }
            for number in first..<first + min(count, textures.capacity, timeline.count) {
                let (picture, late) = picture(for: number, consumer: reader, now: MonotonicInstant.now.nanoseconds, waiting: 5)
                guard let picture, !late else { return }
                try graphics.withSharedContext(deadline: SharedTexture.yielding) {
                    textures.finishedReading(textures.bind(picture, reader: reader), reader: reader)
                }
            }
        }
    }

    /// `consumer` shows no more: its place no longer keeps frames.
    func forget(_ consumer: ObjectIdentifier) {
        locked { _ = consumers.removeValue(forKey: consumer) }
        textures.forget(consumer)
    }

    /// Decode time per frame, p50 and p99 in milliseconds (nil before any).
    var decodeMilliseconds: (p50: Double, p99: Double)? {
        let times = locked { decodeNanoseconds }.sorted()
        guard !times.isEmpty else { return nil }
        func at(_ q: Double) -> Double { Double(times[min(times.count - 1, Int(q * Double(times.count)))]) / 1e6 }
        return (at(0.5), at(0.99))
    }

    private func seek(to number: Int) {
        queue.removeAll()
        seekTarget = number
        wanted = number
    }

    /// Drops frames every window has moved past (windows that asked nothing for two
    /// seconds do not count: an output that rests or went away).
    private func trim(now: UInt64) {
        let active = consumers.values.filter { now &- $0.asked < 2_000_000_000 }.map(\.frame)
        guard let oldest = active.min() else { return }
        // Keep the newest frame at or before the oldest asked for: it is still showing.
        if let keep = queue.lastIndex(where: { $0.number <= oldest }), keep > 0 { queue.removeFirst(keep) }
    }

    private var needsFrames: Bool {
        seekTarget != nil || (queue.count < capacity && (queue.last?.number ?? Int.min) < wanted + capacity)
    }

    /// Where the decoding thread is: the pass, the last frame's index in it, the first
    /// frame number wanted, and how the pass went (frames given, made, failed).
    private struct Position {
        var pass = 0, lastIndex = -1, discardBelow = 0
        var frames = 0, made = 0, failed = 0
        var warnedFailure = false

        /// A new pass from its start, wanting frames from `discardBelow` on.
        mutating func restart(pass: Int, discardBelow: Int) {
            (self.pass, self.discardBelow, lastIndex) = (pass, discardBelow, -1)
            (frames, made, failed) = (0, 0, 0)
        }
    }

    /// The decoding thread: decodes while the queue has room and frames are wanted, seeks
    /// when told, and at the end of the stream goes back to its start.
    private func decode() {
        guard var decoder = locked({ self.decoder }) else { return }
        let name = Log.printable(path)
        var position = Position()
        // To the key frame at or before `ticks`: a seek; where FFmpeg cannot seek, or the
        // frames are numbered in decoding order (which only the stream's start keeps
        // exact), the file opened again at its start.
        func rewind(toTicks ticks: Int64) -> Bool {
            if !timeline.framed, decoder.seek(toTicks: ticks) { return true }
            do {
                decoder = try reopen()
                return true
            } catch {
                let reason = (error as? GloutError)?.message ?? "--content \(name): cannot open it again"
                log.warning("\(reason); the video stops at the frame it shows")
                return false
            }
        }
        while let work = nextWork() {
            if let target = work {
                let (pass, index) = timeline.position(of: target)
                if timeline.framed, pass == position.pass, index > position.lastIndex {
                    // Further on in this pass: decoding on to it is the exact way there.
                    position.discardBelow = target
                } else {
                    guard rewind(toTicks: timeline.starts[index]) else { break }
                    position.restart(pass: pass, discardBelow: target)
                }
            }
            let began = MonotonicInstant.now.nanoseconds
            let madeBefore = position.made
            let step = decoder.step { frame, start in deliver(frame, start: start, at: &position) }
            recordDecodeTime(since: began, frames: position.made - madeBefore)
            switch step {
            case .more: break
            case .corrupt(let reason):
                if locked({ let first = !warned; warned = true; return first }) {
                    log.warning("--content \(name): skipped \(reason); playback goes on")
                }
            case .end:
                guard position.frames > 0, position.made > 0 || position.failed == 0 else {
                    log.warning("--content \(name): a pass of the video gave no frame glout could show; it stops at the last one")
                    return
                }
                guard rewind(toTicks: timeline.starts[0]) else { return }
                position.restart(pass: position.pass + 1, discardBelow: (position.pass + 1) * timeline.count)
            }
        }
    }

    /// Waits until frames are wanted: nil to stop, else the frame to seek to, if asked.
    private func nextWork() -> Int?? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !stopping && !needsFrames { pthread_cond_wait(wake, mutex) }
        if stopping { return nil }
        let target = seekTarget
        seekTarget = nil
        return .some(target)
    }

    /// A decoded frame: numbered on the timeline, made into a picture and queued where it
    /// is wanted.
    private func deliver(_ frame: UnsafeMutablePointer<AVFrame>, start: Int64?, at position: inout Position) {
        let index = timeline.framed ? position.lastIndex + 1 : start.map(timeline.index(atOrBefore:)) ?? (position.lastIndex + 1)
        guard index > position.lastIndex, index < timeline.count else { return }
        position.lastIndex = index
        position.frames += 1
        let number = position.pass * timeline.count + index
        guard number >= position.discardBelow else { return }
        guard let picture = converter.picture(of: frame, number: number, conversion: conversion, pool: memory) else {
            position.failed += 1
            if !position.warnedFailure {
                position.warnedFailure = true
                log.warning("--content \(Log.printable(path)): frame \(index) (\(frame.pointee.width)x\(frame.pointee.height)) could "
                            + "not be made into a picture (out of memory, or a size glout does not play); it is skipped")
            }
            return
        }
        position.made += 1
        locked {
            if seekTarget == nil, (queue.last?.number ?? Int.min) < number { queue.append(picture) }
        }
        pthread_cond_broadcast(arrived)
    }

    /// The time per frame of the `frames` a step made since `began`.
    private func recordDecodeTime(since began: UInt64, frames: Int) {
        guard frames > 0 else { return }
        let each = (MonotonicInstant.now.nanoseconds &- began) / UInt64(frames)
        locked {
            if decodeNanoseconds.count >= 4096 { decodeNanoseconds.removeFirst(2048) }
            decodeNanoseconds.append(contentsOf: repeatElement(each, count: frames))
        }
    }
}
