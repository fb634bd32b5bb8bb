import WaylandOutputs

/// Summary of a sequence of durations, in milliseconds.
struct IntervalSummary: Equatable, Encodable {
    var count: Int
    var mean: Double
    var stddev: Double
    var p50: Double
    var p99: Double
    var p999: Double
    var max: Double

    static let empty = IntervalSummary(count: 0, mean: 0, stddev: 0, p50: 0, p99: 0, p999: 0, max: 0)

    /// Summarises `values` (nanoseconds) in milliseconds. Percentiles are nearest-rank:
    /// the smallest value with at least p% of the values at or below it.
    init(nanoseconds values: [UInt64]) {
        guard !values.isEmpty else {
            self = .empty
            return
        }
        let sorted = values.sorted().map { Double($0) / 1e6 }
        let mean = sorted.reduce(0, +) / Double(sorted.count)
        let variance = sorted.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(sorted.count)
        self.init(count: sorted.count, mean: mean, stddev: variance.squareRoot(),
                  p50: IntervalSummary.percentile(sorted, 50), p99: IntervalSummary.percentile(sorted, 99),
                  p999: IntervalSummary.percentile(sorted, 99.9), max: sorted.last!)
    }

    init(count: Int, mean: Double, stddev: Double, p50: Double, p99: Double, p999: Double, max: Double) {
        self.count = count
        self.mean = mean
        self.stddev = stddev
        self.p50 = p50
        self.p99 = p99
        self.p999 = p999
        self.max = max
    }

    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        // The epsilon keeps 99.9% of 1000 at rank 999 despite rounding in p / 100.
        let rank = Int((p / 100 * Double(sorted.count) - 1e-9).rounded(.up))
        return sorted[Swift.max(0, Swift.min(sorted.count - 1, rank - 1))]
    }

    /// The same summary in units of `period` nanoseconds.
    func inPeriods(of period: UInt64) -> IntervalSummary {
        let scale = 1e6 / Double(Swift.max(1, period))
        return IntervalSummary(count: count, mean: mean * scale, stddev: stddev * scale, p50: p50 * scale,
                               p99: p99 * scale, p999: p999 * scale, max: max * scale)
    }
}

/// Where the frame times of a run came from.
enum TimingSource: String, Encodable {
    /// wp_presentation_feedback.presented times.
    case presentation
    /// Arrival of the wl_surface.frame callbacks.
    case frameCallback = "frame-callback"
    /// glout's own commit times (eglSwapBuffers returning), for loops that cannot see
    /// the callbacks.
    case commit
}

/// The pacing of one output over a run, computed from its frame samples.
struct OutputPacing: Equatable {
    var frames: Int
    var presented: Int
    var discarded: Int
    /// Frames per second over the span of the frame times.
    var framesPerSecond: Double
    var source: TimingSource
    /// Intervals between consecutive frame times.
    var intervals: IntervalSummary
    /// The raw intervals, nanoseconds, in order (for plots).
    var intervalSeries: [UInt64]
    /// Intervals longer than 1.5 refresh periods.
    var missed: Int
    /// Percentage of intervals longer than the one before by more than half a period.
    var jankPercent: Double
    /// Percentage of the refreshes that showed a new frame: each interval counts as
    /// round(interval / tick) refreshes, the tick being the median interval when it is
    /// within a quarter of the period (headless sway ticks every 16 ms for "60 Hz"),
    /// else the period.
    var onTimePercent: Double
    /// Frame callback (or render start) to commit.
    var renderTime: IntervalSummary
    /// Commit to presentation, where presentation feedback said.
    var commitToPresent: IntervalSummary?
    /// From the compositor's wl_callback.done milliseconds (wrapping at 2^32).
    var compositorIntervals: IntervalSummary?
    var cpuMillisecondsPerFrame: Double

    /// `period` is the refresh period the intervals are judged against.
    init(samples: [FrameSample], period: UInt64) {
        frames = samples.count
        presented = samples.filter { $0.presented != nil }.count
        discarded = samples.filter(\.discarded).count
        // The best clock available for most frames.
        let times: [UInt64]
        if presented >= Swift.max(2, samples.count / 2) {
            source = .presentation
            times = samples.compactMap { $0.presented?.nanoseconds }
        } else if samples.filter({ $0.callbackArrival != nil }).count >= Swift.max(2, samples.count / 2) {
            source = .frameCallback
            times = samples.compactMap { $0.callbackArrival?.nanoseconds }
        } else {
            source = .commit
            times = samples.map(\.commit.nanoseconds)
        }
        let series = zip(times.dropFirst(), times).map { $0 > $1 ? $0 - $1 : 0 }
        intervalSeries = series
        intervals = IntervalSummary(nanoseconds: series)
        if let first = times.first, let last = times.last, last > first, times.count > 1 {
            framesPerSecond = Double(times.count - 1) * 1e9 / Double(last - first)
        } else {
            framesPerSecond = 0
        }
        let period = Swift.max(1, period)
        missed = series.filter { $0 * 2 > period * 3 }.count
        let janks = zip(series.dropFirst(), series).filter { $0 > $1 && ($0 - $1) * 2 > period }.count
        jankPercent = series.isEmpty ? 0 : Double(janks) * 100 / Double(series.count)
        let median = UInt64(intervals.p50 * 1e6)
        let tick = median * 4 >= period * 3 && median * 4 <= period * 5 ? median : period
        let refreshes = series.reduce(0) { $0 + Swift.max(1, Int((Double($1) / Double(tick)).rounded())) }
        onTimePercent = refreshes == 0 ? 100 : Double(series.count) * 100 / Double(refreshes)
        renderTime = IntervalSummary(nanoseconds: samples.map {
            let start = ($0.callbackArrival ?? $0.renderStart).nanoseconds
            return $0.commit.nanoseconds > start ? $0.commit.nanoseconds - start : 0
        })
        let toPresent = samples.compactMap { sample in
            sample.presented.map { $0 > sample.commit ? $0.nanoseconds - sample.commit.nanoseconds : 0 }
        }
        commitToPresent = toPresent.isEmpty ? nil : IntervalSummary(nanoseconds: toPresent)
        let compositorTimes = samples.compactMap(\.callbackTime)
        // A time that goes backwards wraps to weeks: no refresh interval lasts 10 s.
        let compositor = PacingMath.wrappingIntervals(compositorTimes).filter { $0 < 10_000 }.map { UInt64($0) * 1_000_000 }
        compositorIntervals = compositor.isEmpty ? nil : IntervalSummary(nanoseconds: compositor)
        let cpu = samples.reduce(Duration.zero) { $0 + $1.cpuTime }
        cpuMillisecondsPerFrame = samples.isEmpty ? 0 : cpu.inSeconds * 1e3 / Double(samples.count)
    }
}

enum PacingMath {
    /// Differences between successive 32-bit millisecond times that wrap at 2^32
    /// (wl_callback.done's time wraps after 49.7 days).
    static func wrappingIntervals(_ times: [UInt32]) -> [UInt32] {
        zip(times.dropFirst(), times).map { $0 &- $1 }
    }
}
