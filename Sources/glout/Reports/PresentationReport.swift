import WaylandOutputs

/// What the compositor itself said of a run's frames (wp_presentation_feedback), beside
/// what glout saw: the intervals between presented times, the share of frames presented at
/// the refresh after the one before (one frame interval on), the frames discarded, the
/// presentation flags, and how far from its target each frame was presented, the start-up
/// frames apart from the steady state. Pure.
struct PresentationReport: Equatable, Encodable {
    var frames: Int
    var discarded: Int
    /// Between consecutive presented frames.
    var presented_interval_ms: IntervalSummary
    /// Consecutive frames presented one frame interval apart: by the compositor's sequence
    /// (Δseq = interval) where it gives one, else within half a period of the interval.
    var next_refresh_pct: Double
    /// Presented time minus target (late positive), steady state and start-up.
    var landing: LandingSummary?
    var startup_landing: LandingSummary?
    /// The steady frames against the compositor's own grid, fitted afterwards: how far its
    /// presentations lie off a steady refresh, and how far the targets do.
    var own_grid: OwnGrid?
    /// The flags most frames were presented with: vsync, hw_clock, hw_completion, zero_copy.
    var flags: [String]

    /// `steady` and `startup` are the frames of the measured run and of its warm-up;
    /// `period` the refresh period, `interval` the frame interval (every Nth refresh).
    /// Nil when the compositor presented fewer than two of the steady frames.
    init?(steady: [FrameSample], startup: [FrameSample], period: UInt64, interval: Int = 1) {
        let presented = steady.filter { $0.presented != nil }
        guard presented.count >= 2 else { return nil }
        frames = presented.count
        discarded = steady.filter(\.discarded).count
        var intervals: [UInt64] = []
        var next = 0, pairs = 0
        for (earlier, later) in zip(presented, presented.dropFirst())
        where later.index == earlier.index + 1 && later.presented! >= earlier.presented! {
            let delta = later.presented!.nanoseconds - earlier.presented!.nanoseconds
            intervals.append(delta)
            pairs += 1
            if let a = earlier.presentedSequence, let b = later.presentedSequence, a > 0, b > a {
                if b - a == UInt64(interval) { next += 1 }
            } else if (Int64(bitPattern: delta) - Int64(interval) * Int64(period)).magnitude * 2 < period {
                next += 1
            }
        }
        presented_interval_ms = IntervalSummary(nanoseconds: intervals)
        next_refresh_pct = pairs == 0 ? 0 : Double(next) * 100 / Double(pairs)
        landing = LandingSummary(PresentationReport.landings(steady))
        startup_landing = LandingSummary(PresentationReport.landings(startup))
        own_grid = OwnGrid(presented, period: period)
        var counts: [UInt32: Int] = [:]
        for sample in presented { counts[sample.presentationFlags ?? 0, default: 0] += 1 }
        let common = counts.max { ($0.value, $0.key) < ($1.value, $1.key) }?.key ?? 0
        flags = [(0x1, "vsync"), (0x2, "hw_clock"), (0x4, "hw_completion"), (0x8, "zero_copy")]
            .filter { common & $0.0 != 0 }.map(\.1)
    }

    /// Presented time against target, for every presented frame with a target.
    static func landings(_ samples: [FrameSample]) -> [FrameLanding] {
        samples.compactMap { sample in
            guard let target = sample.target, let presented = sample.presented else { return nil }
            return FrameLanding(index: sample.index, target: target, landed: presented, source: .presentation,
                                targetSource: sample.targetSource ?? .estimate)
        }
    }
}

/// A steady-state run's presented times against the compositor's own refresh grid, fitted
/// to them afterwards: for each presented frame, a straight line through the presented
/// times of the refreshes within ``window`` of its own (least squares, refreshes counted by
/// the compositor's sequence where it gives one, else by whole periods between
/// presentations). Landing error, presented minus target, is then exactly the
/// presentation's distance off that grid less the target's: where a compositor presents
/// off its own refresh by 2 ms now and then (a headless output whose "refresh" is when its
/// compositing ended), no target made beforehand can land nearer, and `target_off_ms`
/// says whether glout's aim was nonetheless at the refresh. Pure.
struct OwnGrid: Equatable, Encodable {
    /// Refreshes either side of a frame that the line through it is fitted to (half a
    /// second at 60 Hz): long enough to average jitter, short enough to follow a grid
    /// whose period drifts (weston's headless output measures its own).
    static let window: Int64 = 30

    /// |presented − grid|, milliseconds: p50, p99, max.
    var presented_off_ms: Spread
    /// target − grid, milliseconds: p50 signed (positive: aimed late), p99 and max of the
    /// magnitude. Nil where no frame had a target.
    var target_off_ms: Spread?
    var frames: Int

    struct Spread: Equatable, Encodable {
        var p50: Double
        var p99: Double
        var max: Double
    }

    /// `presented`: frames in order of index, each with a presented time; `period` the
    /// refresh period. Nil for fewer than 8 frames or no period.
    init?(_ presented: [FrameSample], period: UInt64) {
        guard presented.count >= 8, period > 0 else { return nil }
        let times = presented.map { Double($0.presented!.nanoseconds &- presented[0].presented!.nanoseconds) / 1e6 }
        let refreshMs = Double(period) / 1e6
        // The refresh each frame was presented at, counted from the first.
        var counts: [Int64] = [0]
        for i in 1..<presented.count {
            let a = presented[i - 1], b = presented[i]
            let step: Int64
            if let sa = a.presentedSequence, let sb = b.presentedSequence, sa > 0, sb > sa, sb - sa < 1 << 20 {
                step = Int64(sb - sa)
            } else {
                step = Swift.max(1, Int64(((times[i] - times[i - 1]) / refreshMs).rounded()))
            }
            counts.append(counts[i - 1] + step)
        }
        var presentedOff: [Double] = [], targetOff: [Double] = []
        var low = 0, high = 0
        for i in presented.indices {
            while counts[low] < counts[i] - OwnGrid.window { low += 1 }
            while high + 1 < presented.count, counts[high + 1] <= counts[i] + OwnGrid.window { high += 1 }
            // Least squares over the window, in refreshes and milliseconds from frame i.
            var n = 0.0, sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0
            for j in low...high {
                let x = Double(counts[j] - counts[i]), y = times[j] - times[i]
                n += 1; sx += x; sy += y; sxx += x * x; sxy += x * y
            }
            let denominator = n * sxx - sx * sx
            let slope = denominator > 0 ? (n * sxy - sx * sy) / denominator : refreshMs
            let grid = times[i] + (sy - slope * sx) / n
            presentedOff.append((times[i] - grid).magnitude)
            if let target = presented[i].target {
                let aimed = Double(Int64(bitPattern: target.nanoseconds &- presented[0].presented!.nanoseconds)) / 1e6
                targetOff.append(aimed - grid)
            }
        }
        frames = presented.count
        presented_off_ms = OwnGrid.spread(presentedOff, signedMedian: false)
        target_off_ms = targetOff.isEmpty ? nil : OwnGrid.spread(targetOff, signedMedian: true)
    }

    private static func spread(_ values: [Double], signedMedian: Bool) -> Spread {
        let magnitudes = values.map(\.magnitude).sorted()
        let median = signedMedian ? IntervalSummary.percentile(values.sorted(), 50) : IntervalSummary.percentile(magnitudes, 50)
        return Spread(p50: median, p99: IntervalSummary.percentile(magnitudes, 99), max: magnitudes.last!)
    }
}
