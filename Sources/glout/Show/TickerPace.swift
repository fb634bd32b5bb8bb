/// The time a ticker is drawn at, refresh by refresh: each refresh moves it on by the
/// output's refresh period as its refreshes keep it (N periods where N - 1 refreshes were
/// missed), pulled toward the frame's own target time by at most a fifth of a pixel's
/// travel. So a line scrolls the same distance every refresh even where the compositor's
/// refreshes come unevenly (headless wlroots times each from the one before, 16.2 to
/// 17.2 ms apart on a busy machine) or at another period than it says (weston's headless
/// output on a slow machine), and stays within a few milliseconds of the content clock,
/// which every output and machine of a span share. Pure; one per ticker on an output.
struct TickerPace: Sendable {
    /// The last frame's target time (seconds into the item) and the time it was drawn at.
    private var last: (truth: Double, paced: Double)?
    /// The period the refreshes keep, averaged over the latest few dozen (seconds).
    private var kept: Double?

    /// The most the paced time is pulled toward the target in one refresh, in pixels of
    /// travel: well inside the half pixel a refresh's advance may be off.
    static let pull = 0.2
    /// How far behind or ahead of the target the paced time may fall, in refresh periods,
    /// before it jumps back to it (a stall, a clock step).
    static let reach = 2.0
    /// How much of the gap between a refresh's interval and the kept period one refresh
    /// moves it: a late refresh of half a period moves it by a sixty-fourth of one.
    static let averaging = 32.0

    /// The time to draw a ticker moving `pixelsPerSecond` at, for a frame whose target is
    /// `truth` seconds into the item, on an output whose refresh period is said to be
    /// `period` seconds. The same target again (a second look in one frame, a still
    /// picture) is drawn where it was. The first frame, a frame less than a quarter of a
    /// refresh after the last or before it (the item begun again), and one too far from
    /// the target are drawn at the target itself.
    mutating func time(at truth: Double, period: Double, pixelsPerSecond: Double) -> Double {
        if let last, truth == last.truth { return last.paced }
        guard truth.isFinite, period.isFinite, period > 0, pixelsPerSecond.isFinite, pixelsPerSecond > 0,
              let last, truth > last.truth else { return start(at: truth) }
        // Refreshes counted by the period they keep (the one said, until they show
        // another within a quarter of it).
        var kept = self.kept.flatMap { ($0 - period).magnitude <= period / 4 ? $0 : nil } ?? period
        // A frame a quarter to a half of a period after the last is one refresh on: the
        // compositor presented the last one late and this one soon after (headless
        // wlroots at 144 Hz, now and then 11 ms and then 2 ms apart).
        let step = (truth - last.truth) / kept
        let refreshes = step >= 0.25 ? max(1, step.rounded()) : 0
        guard refreshes >= 1 else { return start(at: truth) }
        kept += ((truth - last.truth) / refreshes - kept) / TickerPace.averaging
        self.kept = kept
        let steady = last.paced + refreshes * kept
        let limit = min(kept / 4, TickerPace.pull / pixelsPerSecond)
        let paced = steady + min(max(truth - steady, -limit), limit)
        guard (truth - paced).magnitude <= TickerPace.reach * kept else { return start(at: truth) }
        self.last = (truth, paced)
        return paced
    }

    /// Draws at `truth` itself, and paces from there.
    private mutating func start(at truth: Double) -> Double {
        last = (truth, truth)
        return truth
    }
}
