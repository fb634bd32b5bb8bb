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
