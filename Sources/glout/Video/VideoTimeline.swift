/// Which frame of a video each refresh shows: the frame whose display interval holds the
/// refresh's target time on the content clock. The video loops, so its time is content
/// time modulo its length, and frames are numbered on the unwrapped timeline (pass ×
/// frames per pass + index in the pass): the number only grows, across the wrap too.
struct VideoTimeline: Sendable, Equatable {
    /// The start of each frame of one pass in stream ticks, ascending (presentation order).
    let starts: [Int64]
    /// Seconds per tick (the stream's time base).
    let tick: Double
    /// One pass in ticks: from the first frame's start to the last frame's end.
    let lengthTicks: Int64
    /// Whether the frames are numbered in the order the decoder gives them rather than
    /// placed by their timestamps: a stream some of whose packets carry no presentation
    /// time (raw H.264, MPEG program streams). Its ticks are frames.
    let framed: Bool

    /// The most frames a second glout plays: above it a crafted file's frame numbers
    /// could outgrow Int64 on the realtime clock.
    static let fastestRate = 1e6

    /// Frames of `starts` (any order; repeats are dropped) ending at `end`; nil when
    /// there is no frame, no length, or a length beyond Int64, so that a timeline always
    /// has both.
    init?(starts unsorted: [Int64], end: Int64, tick: Double) {
        self.init(starts: unsorted, end: end, tick: tick, framed: false)
    }

    /// `count` frames of `duration` seconds each, numbered in decoding order (``framed``).
    init?(frames count: Int, duration: Double) {
        guard count > 0, duration.isFinite, duration > 0 else { return nil }
        self.init(starts: Array(0..<Int64(count)), end: Int64(count), tick: duration, framed: true)
    }

    private init?(starts unsorted: [Int64], end: Int64, tick: Double, framed: Bool) {
        var starts = Array(Set(unsorted)).sorted()
        guard let first = starts.first, tick.isFinite, tick > 0 else { return nil }
        starts.removeAll { $0 >= end }
        let (length, overflow) = end.subtractingReportingOverflow(first)
        guard !starts.isEmpty, !overflow, length > 0 else { return nil }
        self.starts = starts
        self.tick = tick
        self.lengthTicks = length
        self.framed = framed
    }

    var count: Int { starts.count }
    /// Seconds of one pass.
    var length: Double { Double(lengthTicks) * tick }
    var framesPerSecond: Double { Double(count) / length }

    /// The frame shown at content time `seconds` (before 0 and not finite: time 0).
    func frame(at seconds: Double) -> Int {
        let time = seconds.isFinite ? max(0, seconds) : 0
        let passes = (time / length).rounded(.down)
        let offset = min(max(0, time - passes * length), length)
        let ticks = starts[0] &+ Int64(min((offset / tick).rounded(.down), Double(lengthTicks)))
        return Int(passes) * count + index(atOrBefore: ticks)
    }

    /// The index in the pass of the last frame starting at or before `ticks` (0 before
    /// the first): where a decoded frame with that timestamp belongs.
    func index(atOrBefore ticks: Int64) -> Int {
        var (low, high) = (0, starts.count)  // the first start after `ticks` is in low...high
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] <= ticks { low = middle + 1 } else { high = middle }
        }
        return max(0, low - 1)
    }

    /// Frame `number`'s pass and index in the pass.
    func position(of number: Int) -> (pass: Int, index: Int) {
        let pass = number >= 0 ? number / count : -((-number + count - 1) / count)
        return (pass, number - pass * count)
    }

    /// Content time at which frame `number` starts.
    func seconds(of number: Int) -> Double {
        let (pass, index) = position(of: number)
        return Double(pass) * length + Double(starts[index] - starts[0]) * tick
    }
}

/// --video-sync: how a video's time follows the content clock.
enum VideoSync: String, Sendable, CaseIterable {
    /// Exactly: each refresh shows the frame of its target time (the default; walls).
    case time
    /// Where the refresh rate is within 1% of a whole number of frames, the video plays
    /// at that rate instead (as mpv's display-resample does), so every frame holds the
    /// same number of refreshes; elsewhere as `time`.
    case speed

    /// How much faster than its own rate a video of `framesPerSecond` plays on an output
    /// refreshing `refreshHertz` times a second: 1, or with `speed` the factor that makes
    /// the refreshes per frame whole, when that is within 1%.
    func rate(framesPerSecond: Double, refreshHertz: Double) -> Double {
        guard self == .speed, framesPerSecond > 0, refreshHertz.isFinite, refreshHertz > 0 else { return 1 }
        let ratio = refreshHertz / framesPerSecond
        let whole = ratio.rounded()
        guard whole >= 1, abs(ratio - whole) <= 0.01 * whole else { return 1 }
        return ratio / whole
    }
}

/// What a run of refreshes showed of a video: frames shown, how many refreshes each was
/// held for, frames held longer or shorter than the cadence (refresh rate / frame rate
/// rounded down or up), and frames passed over.
struct VideoCadence: Sendable, Equatable {
    /// Distinct frames shown.
    private(set) var shown = 0
    /// Refreshes per frame (its whole hold; the first frame's hold and the one still
    /// showing are not counted) → how many frames were held that long.
    private(set) var holds: [Int: Int] = [:]
    /// Frames held for another number of refreshes than their cadence calls for.
    private(set) var cadenceErrors = 0
    /// Frames that never showed though a refresh fell in their interval's neighbourhood:
    /// when the video's rate is below the refresh rate, none should be.
    private(set) var passedOver = 0
    private var current: Int?
    private var held = 0
    private var counted = false

    /// The refresh showed frame `number`; `refreshesPerFrame` is the refresh rate over the
    /// video's frame rate.
    mutating func refresh(showing number: Int, refreshesPerFrame: Double) {
        guard let last = current else {
            (current, held, shown) = (number, 1, 1)
            return
        }
        if number == last {
            held += 1
            return
        }
        if counted {
            holds[held, default: 0] += 1
            if refreshesPerFrame >= 1, !VideoCadence.allowed(held, refreshesPerFrame: refreshesPerFrame) { cadenceErrors += 1 }
        }
        if number > last + 1, refreshesPerFrame >= 1 { passedOver += number - last - 1 }
        (current, held, counted) = (number, 1, true)
        shown += 1
    }

    /// The run of refreshes ends here without a verdict (a playlist went on to another
    /// item): the frame showing now is not counted, and the next starts a new run.
    func cut() -> VideoCadence {
        var copy = self
        (copy.current, copy.held, copy.counted) = (nil, 0, false)
        return copy
    }

    /// Whether a frame held `refreshes` refreshes keeps the cadence (``holds(_:)``).
    static func allowed(_ refreshes: Int, refreshesPerFrame ratio: Double) -> Bool {
        // A frame of hours (a crafted file's): past what a count of refreshes can be.
        guard ratio < 1e9 else { return false }
        let (least, most) = holds(ratio)
        return refreshes == least || refreshes == most
    }

    /// The least and most refreshes a frame of `ratio` refreshes is held: the ratio
    /// rounded down and up, or within 1% of a whole number, only that number. `ratio`
    /// below 1e9.
    static func holds(_ ratio: Double) -> (least: Int, most: Int) {
        let nearest = ratio.rounded()
        if abs(ratio - nearest) <= 0.01 * nearest { return (Int(nearest), Int(nearest)) }
        return (Int(ratio.rounded(.down)), Int(ratio.rounded(.up)))
    }
}
