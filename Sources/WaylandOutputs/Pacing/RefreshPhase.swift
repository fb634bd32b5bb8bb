/// Where one output's refreshes fall, learnt from the compositor's presentation times:
/// a period and a phase (the time of one refresh), filtered against jitter, and where a
/// frame started at a given moment will be presented. This is how a display link's
/// target becomes a real refresh instead of a guess (``DisplayLinkFrame/targetTimestamp``).
/// Times are CLOCK_MONOTONIC nanoseconds. Pure, so recorded sequences are unit-tested.
///
/// The period is the compositor's (wp_presentation_feedback.presented refresh) where it
/// reports one, else the mode's, else measured; the phase follows each presentation,
/// a quarter of the way at a time, so that one late timestamp moves it little, except
/// where an output's presentations well off the grid have lately been steps that the
/// refreshes after them kept (headless wlroots): such a one is followed at once. Refresh
/// counts come from the sequence where the compositor gives one with a vsync'd
/// presentation (``CompositorValues/presentedSequence(_:flags:)``), else from the
/// distance in periods. A presentation off the grid by more than a quarter period is
/// ignored, and three in a row are a jump: the grid starts again from the last one.
/// Presentations that keep drifting one way off the period said, or jump three times in
/// 2 s, keep a period of their own: it is measured instead from then on.
struct RefreshPhase: Sendable, Equatable {
    /// The refresh period, once known.
    private(set) var period: UInt64?
    /// A refresh on the grid: the latest presentation, filtered.
    private(set) var anchor: UInt64?
    private var anchorSequence: UInt64 = 0
    /// Presentations taken into the grid since it started, and those off it in a row.
    private(set) var samples = 0
    private var offGrid = 0
    /// Recent jumps, and whether the period is measured though one is said.
    private var jumps: [UInt64] = []
    /// The latest errors of presentations against the grid, signed.
    private var errors: [Int64] = []
    private(set) var measuresOwnPeriod = false
    /// Whether presentations well off the grid have lately been steps that the refreshes
    /// after them kept (above 0) or late ones that they did not (below), from -3 to 3; and
    /// the last such error, with the gain (in quarters) the grid took it with.
    private var stepEvidence = 0
    private var lastLargeError: LargeError?
    private struct LargeError: Sendable, Equatable {
        var error: Int64
        var gain: Int64
    }
    /// Intervals measured while neither the compositor nor the mode gave a period.
    private var measured = 0
    /// How many intervals the period is measured from where nothing gives it.
    static let measuring = 8
    /// For the recent frames: the time from the frame's start to its presentation, and
    /// from its commit to its presentation.
    private var offsets: [UInt64] = []
    private var margins: [UInt64] = []
    /// How far each way of predicting was from the presented times of the latest frames
    /// (nanoseconds), compared by their means with each error capped at a quarter period
    /// (``score(_:)``): a refresh the compositor missed costs both the same, and a way
    /// whose errors are small at the middle but large now and then (a grid on a
    /// compositor that times each refresh from the one before, as headless wlroots does,
    /// so that its refreshes wander) loses to one that is a little off every time.
    private var gridErrors: [UInt64] = []
    private var latencyErrors: [UInt64] = []
    /// How many of the latest offsets the grid's median is taken over: few enough that the
    /// slow frames of a start soon leave it (kwin's first 40 frames after the grid locked
    /// were targeted a refresh late with all 32), enough that jitter does not move it. The
    /// latency target, which is not rounded to a refresh, takes all it remembers.
    static let recent = 9
    /// How many recent frames the offsets and margins remember.
    static let memory = 32

    /// Whether the grid can be trusted for targets: a period and three presentations on it.
    var isLocked: Bool { period != nil && anchor != nil && samples >= 3 }

    /// Forgets the grid (a mode change, a suspension): it is learnt again.
    mutating func reset() {
        self = RefreshPhase()
    }

    /// A frame was presented at `time` (the compositor's refresh `period`, 0 if it gave
    /// none, and its refresh `sequence`, 0 if none). `nominal` is the mode's period, if
    /// known; `started` and `committed` are when that frame began and was committed.
    mutating func presented(at time: UInt64, refresh: UInt64, sequence: UInt64, nominal: UInt64?,
                            started: UInt64? = nil, committed: UInt64? = nil) {
        let reported = !measuresOwnPeriod && (1_000_000...1_000_000_000).contains(refresh) ? refresh : nil
        let nominal = measuresOwnPeriod ? nil : nominal.flatMap { (1_000_000...1_000_000_000).contains($0) ? $0 : nil }
        if let started { scorePredictions(presentedAt: time, started: started, committed: committed ?? started) }
        defer {
            // How long frames take to reach the screen does not depend on the grid: kept
            // also where there is none, and across a jump.
            if let started, time >= started, time - started < 1_000_000_000 { remember(&offsets, time - started) }
            if let committed, time >= committed, time - committed < 1_000_000_000 { remember(&margins, time - committed) }
        }
        // The compositor says the period changed by more than 2%: a new mode.
        if let reported, let period, reported.distance(to: period).magnitude * 50 > period { reset() }
        if reported == nil, nominal == nil, measured < RefreshPhase.measuring {
            measureUnsaidPeriod(at: time, sequence: sequence)
            return
        }
        guard let anchor, let period else {
            period = period ?? reported ?? nominal
            anchor = time
            anchorSequence = sequence
            samples = 1
            return
        }
        // Refreshes since the anchor: counted by the compositor where it counts.
        let elapsed = Int64(bitPattern: time &- anchor)
        let count: Int64
        if sequence > anchorSequence, anchorSequence > 0, sequence - anchorSequence < 1 << 32 {
            count = Int64(sequence - anchorSequence)
        } else {
            count = RefreshPhase.rounded(elapsed, by: period)
        }
        let predicted = Int64(bitPattern: anchor) &+ count &* Int64(period)
        let error = Int64(bitPattern: time) &- predicted
        guard error.magnitude <= period / 4 else {
            leftGrid(at: time, sequence: sequence)
            return
        }
        offGrid = 0
        remember(&errors, error, keeping: 8)
        if !measuresOwnPeriod, errors.count == 8, errors.allSatisfy({ $0 > 0 }) || errors.allSatisfy({ $0 < 0 }),
           (errors.reduce(0, &+) / 8).magnitude > period / 16 {
            // Every error lately on one side, by more than a sixteenth of a period: the
            // presentations drift off the period said, which the grid only chases. The
            // period is measured from here on.
            startMeasuring(at: time, sequence: sequence)
            return
        }
        follow(error: error, predicted: predicted, refreshes: count, period: period, reported: reported,
               nominal: nominal, sequence: sequence)
    }

    /// How near each prediction, made now for a frame started and committed at these
    /// times, comes to where it was presented.
    private mutating func scorePredictions(presentedAt time: UInt64, started: UInt64, committed: UInt64) {
        if let grid = gridTarget(start: started, commit: committed) {
            remember(&gridErrors, Int64(bitPattern: time &- grid).magnitude)
        }
        if let latency = latencyTarget(start: started) {
            remember(&latencyErrors, Int64(bitPattern: time &- latency).magnitude)
        }
    }

    /// No period said (labwc's and phoc's headless outputs have no refresh): the shortest
    /// of the first intervals, per refresh where a sequence counts them. A start-up frame
    /// that missed a refresh cannot make it too long.
    private mutating func measureUnsaidPeriod(at time: UInt64, sequence: UInt64) {
        if let anchor, time > anchor {
            let refreshes = sequence > anchorSequence && anchorSequence > 0 ? sequence - anchorSequence : 1
            let interval = (time - anchor) / max(1, refreshes)
            if (1_000_000...1_000_000_000).contains(interval) {
                period = min(period ?? interval, interval)
                measured += 1
            }
        }
        anchor = time
        anchorSequence = sequence
        samples = 1
    }

    /// A presentation more than a quarter period off the grid. The third in a row is a
    /// jump: the grid starts again from here, keeping the period. Three jumps within 2 s:
    /// the presentations keep to a period of their own, not the one said (weston's headless
    /// output, when the machine cannot keep its refresh, presents every 17.7 ms of a
    /// reported 16.7): it is measured from then on.
    private mutating func leftGrid(at time: UInt64, sequence: UInt64) {
        offGrid += 1
        guard offGrid >= 3 else { return }
        remember(&jumps, time, keeping: 3)
        if !measuresOwnPeriod, jumps.count == 3, jumps[0] <= time, time - jumps[0] < 2_000_000_000 {
            startMeasuring(at: time, sequence: sequence)
            return
        }
        let kept = (period: self.period, offsets: offsets, margins: margins, gridErrors: gridErrors,
                    latencyErrors: latencyErrors, jumps: jumps, own: measuresOwnPeriod, measured: measured)
        reset()
        (self.period, offsets, margins, gridErrors, latencyErrors, jumps, measuresOwnPeriod, measured) = kept
        self.anchor = time
        anchorSequence = sequence
        samples = 1
    }

    /// A presentation on the grid, `error` from where it was `predicted`, `refreshes`
    /// after the anchor: the anchor follows it, and a period not said is nudged.
    private mutating func follow(error: Int64, predicted: Int64, refreshes count: Int64, period: UInt64,
                                 reported: UInt64?, nominal: UInt64?, sequence: UInt64) {
        // A presentation well off the grid is either a late one (the grid stays; mutter's
        // presented times scatter so) or a step (every refresh after it follows: headless
        // wlroots times each refresh from the one before). Which, each output shows by what
        // came after its last such presentations; a step is followed at once.
        let large = period / 32
        let gain: Int64 = error.magnitude > large && stepEvidence > 0 ? 4 : 1
        if let last = lastLargeError {
            // The presentation after a large error tells which it was (and is not taken as
            // one of its own: after a late one, the grid's own return looks like a step).
            // This error, were the last one a step, and were it late only.
            let ifStep = last.error - last.error * last.gain / 4
            let ifLate = -(last.error * last.gain / 4)
            let stepped = (error &- ifStep).magnitude < (error &- ifLate).magnitude
            stepEvidence = min(3, max(-3, stepEvidence + (stepped ? 1 : -1)))
            lastLargeError = nil
        } else if error.magnitude > large {
            lastLargeError = LargeError(error: error, gain: gain)
        }
        self.anchor = UInt64(bitPattern: predicted &+ error * gain / 4)
        anchorSequence = sequence
        if let reported {
            self.period = reported
        } else if count > 0 {
            // Measured: nudge the period by the error spread over the refreshes between,
            // within 10% of the mode's (headless wlroots ticks whole milliseconds: 16 for
            // "60 Hz", 4% off).
            var adjusted = Int64(period) + error / count / 16
            if let nominal, nominal > 0 {
                let slack = Int64(nominal / 10)
                adjusted = min(max(adjusted, Int64(nominal) - slack), Int64(nominal) + slack)
            }
            self.period = UInt64(min(max(1_000_000, adjusted), 1_000_000_000))
        }
        samples += 1
    }

    /// Starts the grid again at `time`, its period measured from the presentations from
    /// now on, whatever the compositor or the mode says; how long frames take to the
    /// screen is kept.
    private mutating func startMeasuring(at time: UInt64, sequence: UInt64) {
        let kept = (offsets: offsets, margins: margins, gridErrors: gridErrors, latencyErrors: latencyErrors)
        self = RefreshPhase()
        (offsets, margins, gridErrors, latencyErrors) = kept
        measuresOwnPeriod = true
        anchor = time
        anchorSequence = sequence
        samples = 1
    }

    /// The first refresh on the grid at or after `time`, or nil while there is no grid.
    func refresh(after time: UInt64) -> UInt64? {
        guard let anchor, let period, period > 0 else { return nil }
        let offset = Int64(bitPattern: time &- anchor)
        // Ceiling division, for offsets on either side of the anchor.
        var count = offset / Int64(period)
        if count * Int64(period) < offset { count += 1 }
        return UInt64(bitPattern: Int64(bitPattern: anchor) &+ count &* Int64(period))
    }

    /// The refresh on the grid nearest to `time`, or nil while there is no grid.
    func refresh(nearest time: UInt64) -> UInt64? {
        guard let anchor, let period, period > 0 else { return nil }
        let count = RefreshPhase.rounded(Int64(bitPattern: time &- anchor), by: period)
        return UInt64(bitPattern: Int64(bitPattern: anchor) &+ count &* Int64(period))
    }

    /// Where a frame started at `start`, to be committed about `commit`, will be
    /// presented, nil while nothing is known: by the grid (``gridTarget(start:commit:)``)
    /// or by the time recent frames took to the screen (``latencyTarget(start:)``),
    /// whichever has lately been nearer the presented times. The grid is right where the
    /// compositor keeps to its refresh (kwin, mutter); the latency where it presents off
    /// it, as weston's headless output does on a machine too slow for its refresh (every
    /// 19 to 21 ms, with a reported period of 16.7 ms), and where each refresh is timed
    /// from the one before (headless wlroots), so that a grid drifts off it by a
    /// compositing time now and then while the time from a frame callback to the screen
    /// stays.
    func target(start: UInt64, commit: UInt64) -> UInt64? {
        let grid = gridTarget(start: start, commit: commit)
        guard let latency = latencyTarget(start: start) else { return grid }
        guard let grid else { return latency }
        guard let gridError = score(gridErrors), let latencyError = score(latencyErrors), latencyError < gridError
        else { return grid }
        return latency
    }

    /// The mean of `errors`, each capped at a quarter period; nil for fewer than 8.
    private func score(_ errors: [UInt64]) -> UInt64? {
        guard errors.count >= 8 else { return nil }
        let cap = (period ?? UInt64(OutputMode.assumedRefreshPeriod.inNanoseconds)) / 4
        return errors.reduce(0) { $0 + min($1, cap) } / UInt64(errors.count)
    }

    /// The refresh on the grid a frame started at `start`, to be committed about `commit`,
    /// will be presented at: the refresh nearest to its start plus the time recent frames
    /// took from their start to their presentation (the median of the latest few), later if
    /// the commit is expected too late for it. Nil while the grid is not locked.
    ///
    /// The nearest refresh, not the first after the start: where the frame callback comes
    /// at the refresh (wlroots, labwc, phoc), starts fall on either side of it by a few
    /// microseconds, and counting refreshes from the first after the start would put every
    /// other frame's target a period off. Their start-to-presentation times all lie near
    /// one period, half a period from where rounding flips.
    func gridTarget(start: UInt64, commit: UInt64) -> UInt64? {
        guard isLocked, let period else { return nil }
        guard let typical = RefreshPhase.median(offsets.suffix(RefreshPhase.recent)), offsets.count >= 3,
              var target = refresh(nearest: start &+ typical) else { return refresh(after: start) }
        if target <= start, let next = refresh(after: start &+ 1) { target = next }
        if margins.count >= 8, let margin = margins.min() {
            // Committed too late for the refresh, the compositor needing at least as long
            // as the quickest frame lately took from commit to screen, capped at 1 ms:
            // the next one(s). Only then: a commit later than any that lately made its
            // refresh may still make it (pushing those put 2% of kwin's frames a refresh
            // early of their targets).
            let latest = commit &+ min(margin, 1_000_000)
            if latest > target {
                target += (latest - target + period - 1) / period * period
            }
        }
        return target
    }

    /// A frame's start plus the median time recent frames took from their start to the
    /// screen, once 8 have given it; nil before.
    func latencyTarget(start: UInt64) -> UInt64? {
        guard offsets.count >= RefreshPhase.memory / 4, let typical = RefreshPhase.median(offsets[...]) else { return nil }
        return start &+ typical
    }

    private func remember<T>(_ list: inout [T], _ value: T, keeping count: Int = RefreshPhase.memory) {
        list.append(value)
        if list.count > count { list.removeFirst(list.count - count) }
    }

    /// `value / divisor`, rounded to the nearest whole number (halves away from zero).
    private static func rounded(_ value: Int64, by divisor: UInt64) -> Int64 {
        // On magnitudes, which hold any Int64's (also Int64.min's) with room for d / 2.
        let d = max(1, min(divisor, UInt64(Int64.max)))
        let quotient = Int64(clamping: (value.magnitude + d / 2) / d)
        return value >= 0 ? quotient : -quotient
    }

    /// The median of `values` (the upper one of an even count), nil for none. No
    /// allocation: it runs every frame, over at most ``memory`` values.
    private static func median(_ values: ArraySlice<UInt64>) -> UInt64? {
        let rank = values.count / 2
        for value in values {
            var below = 0, equal = 0
            for other in values {
                if other < value { below += 1 } else if other == value { equal += 1 }
            }
            if below <= rank, rank < below + equal { return value }
        }
        return nil
    }

}
