/// How a display link should pace its output: given with ``OutputSession/WindowRequest``,
/// changed with ``OutputSession/setDisplayLink(_:on:)``.
public struct DisplayLinkSettings: Sendable, Equatable {
    /// Draw on every Nth refresh (1: every refresh).
    public var frameInterval: Int
    /// When set, chooses `frameInterval` from the output's refresh: the interval whose
    /// rate comes closest to this (60 on a 59.94 Hz output draws every refresh).
    public var preferredFramesPerSecond: Double?
    /// A paused link draws nothing until it is resumed.
    public var isPaused: Bool
    /// Target each frame at the refresh it will be presented at, learnt from presentation
    /// feedback (``DisplayLinkFrame/TargetSource/presentation``), and commit with a
    /// wp_fifo_v1 barrier where the compositor offers it. Off: the estimate from frame
    /// callbacks, and no barrier (to compare). Default: on.
    public var usesPresentationTimes: Bool
    /// Also give each commit its target refresh as a wp_commit_timer_v1 timestamp, where
    /// the compositor offers commit timing and the target comes from presentation times.
    /// Default: off, because mutter 48.7, the one compositor here that offers it, held a
    /// timestamped commit for good in 2 runs of 5 (headless), and a window then
    /// shows nothing more. fifo alone puts frames at their targets there.
    public var usesCommitTiming: Bool

    /// The frame interval in effect on an output whose refresh period is `period`
    /// nanoseconds: from ``preferredFramesPerSecond`` when set, else ``frameInterval``.
    public func effectiveInterval(refreshPeriod period: UInt64) -> Int {
        guard let preferred = preferredFramesPerSecond, preferred > 0, period > 0 else { return frameInterval }
        let ratio = (1e9 / Double(period) / preferred).rounded()
        guard ratio.isFinite else { return ratio > 0 ? 1_000_000 : 1 }
        return max(1, Int(min(ratio, 1_000_000)))
    }

    public init(frameInterval: Int = 1, preferredFramesPerSecond: Double? = nil, isPaused: Bool = false,
                usesPresentationTimes: Bool = true, usesCommitTiming: Bool = false) {
        self.frameInterval = max(1, frameInterval)
        self.preferredFramesPerSecond = preferredFramesPerSecond
        self.isPaused = isPaused
        self.usesPresentationTimes = usesPresentationTimes
        self.usesCommitTiming = usesCommitTiming
    }
}

/// The pacing decisions of one display link, without any proxy: when to draw, what
/// to tell the renderer, when to give up waiting for a callback. Times are
/// MonotonicClock nanoseconds.
struct DisplayLinkTiming: Sendable {
    /// What the render loop should do now.
    enum Action: Sendable, Equatable {
        case draw
        /// Nothing to do before `until` (nil: until an event or a wake-up).
        case wait(until: UInt64?)
    }

    var settings = DisplayLinkSettings()
    /// The current mode's refresh period, if the output reports a refresh. A new one
    /// starts the refresh grid again.
    var modePeriod: UInt64? {
        didSet { if modePeriod != oldValue { phase.reset() } }
    }
    /// The output's refresh grid, from presentation times.
    private(set) var phase = RefreshPhase()
    /// How long recent frames took from their start to their commit (the last 16).
    private var renderTimes: [UInt64] = []
    /// The refresh period presentation feedback reported, if any.
    private(set) var presentedPeriod: UInt64?
    /// Frames started so far.
    private(set) var frameCount: UInt64 = 0
    /// Frame callbacks received so far.
    private(set) var callbacks: UInt64 = 0
    /// Whether the link gave up waiting for a callback (the compositor stopped showing
    /// the surface) and how often that happened.
    private(set) var isSuspended = false
    private(set) var suspensions: UInt64 = 0
    /// Whether the picture stands still: no frame until a redraw is requested.
    private(set) var isIdle = false

    private var callbackPending = false
    /// When the current surface's first frame callback came, if it has had one.
    private var firstCallback: UInt64?
    private var requestedAt: UInt64 = 0
    private var lastCallback: UInt64?
    private var lastCallbackTime: UInt32?
    private var redrawRequested = true
    /// The last callback intervals, for a measured period when nothing else says.
    private var recentIntervals: [UInt64] = []

    init(modePeriod: UInt64?) {
        self.modePeriod = modePeriod
    }

    /// The refresh period: from presentation feedback, else the current mode, else
    /// measured from the callbacks (median of the last 16), else 60 Hz.
    var duration: UInt64 {
        if let presentedPeriod, presentedPeriod > 0 { return presentedPeriod }
        if let modePeriod, modePeriod > 0 { return modePeriod }
        if recentIntervals.count >= 4 { return recentIntervals.sorted()[recentIntervals.count / 2] }
        return UInt64(OutputMode.assumedRefreshPeriod.inNanoseconds)
    }

    /// The frame interval in effect: from `preferredFramesPerSecond` when set.
    var effectiveInterval: Int { settings.effectiveInterval(refreshPeriod: duration) }

    /// How long the link waits for a callback, from the commit that asked for it, before
    /// it calls itself suspended: 8 intervals, at least a quarter of a second; at least a
    /// second for a surface's first callback, which comes only once the compositor has
    /// mapped the surface, and for those asked within a second of it (on a cold start,
    /// eight outputs' shaders compiled on two cores kept sway from mapping a surface for
    /// over 250 ms, and sway 1.10 from calling back one already mapped for as long).
    var stallTimeout: UInt64 {
        let startingUp = firstCallback.map { requestedAt < $0 + 1_000_000_000 } ?? true
        return max(startingUp ? 1_000_000_000 : 250_000_000, 8 * duration * UInt64(effectiveInterval))
    }

    /// Asks for a frame without waiting for a callback (first frame, new size, a change
    /// of an idle picture).
    mutating func requestRedraw() {
        redrawRequested = true
        isIdle = false
    }

    /// The window's surface was made again after its callbacks stopped: the old surface's
    /// suspension ends with it and its callback is no longer waited for, so that the new
    /// surface's own stall, if any, is seen and counted afresh.
    mutating func surfaceReplaced() {
        isSuspended = false
        callbackPending = false
    }

    /// A new surface is about to draw its first frame: its first callback gets the longer
    /// wait of ``stallTimeout``.
    mutating func surfaceStarted() {
        firstCallback = nil
        requestRedraw()
    }

    /// The renderer's picture will not change: draw nothing more until a redraw is
    /// requested. A callback still pending is not waited for, so the link never counts
    /// an idle output as suspended.
    mutating func becomeIdle() { isIdle = true }

    /// What to do at `now`.
    mutating func next(now: UInt64) -> Action {
        if settings.isPaused { return .wait(until: nil) }
        if redrawRequested { return .draw }
        if isIdle { return .wait(until: nil) }
        if callbackPending {
            let deadline = requestedAt + stallTimeout
            guard now >= deadline else { return .wait(until: deadline) }
            if !isSuspended {
                isSuspended = true
                suspensions += 1
                // The compositor stopped showing the surface; where it shows it next, the
                // grid is learnt again.
                phase.reset()
            }
            return .wait(until: nil)
        }
        let interval = effectiveInterval
        guard interval > 1, let last = lastCallback else { return .draw }
        // Commit just after refresh N-1 so that the callback comes with refresh N.
        let drawAt = last + UInt64(interval - 1) * duration + min(2_000_000, duration / 4)
        return now >= drawAt ? .draw : .wait(until: drawAt)
    }

    /// How long a frame is expected to take from its start to its commit: the second
    /// longest of the last 16 (a high percentile that one odd frame does not move).
    var expectedRenderTime: UInt64 {
        guard renderTimes.count >= 2 else { return renderTimes.first ?? 0 }
        var longest: UInt64 = 0, second: UInt64 = 0
        for time in renderTimes {
            if time > longest { (longest, second) = (time, longest) } else if time > second { second = time }
        }
        return second
    }

    /// Starts a frame at `now` (the caller then requests the callback and commits).
    mutating func startFrame(now: UInt64) -> DisplayLinkFrame {
        let timestamp = redrawRequested ? now : (lastCallback ?? now)
        var target = timestamp + UInt64(effectiveInterval) * duration
        var source = DisplayLinkFrame.TargetSource.estimate
        if settings.usesPresentationTimes, let presented = phase.target(start: timestamp, commit: now + expectedRenderTime) {
            target = presented
            source = .presentation
        }
        let frame = DisplayLinkFrame(index: frameCount, timestamp: MonotonicInstant(nanoseconds: timestamp),
                                     targetTimestamp: MonotonicInstant(nanoseconds: target),
                                     duration: .nanoseconds(Int64(duration)), targetSource: source)
        frameCount += 1
        redrawRequested = false
        callbackPending = true
        requestedAt = now
        return frame
    }

    /// The frame callback arrived at `now` with the compositor's millisecond `time`.
    /// Returns true when this ends a suspension.
    @discardableResult
    mutating func callbackArrived(now: UInt64, time: UInt32) -> Bool {
        if let last = lastCallback, now > last {
            recentIntervals.append(now - last)
            if recentIntervals.count > 16 { recentIntervals.removeFirst() }
        }
        callbacks += 1
        callbackPending = false
        if firstCallback == nil { firstCallback = now }
        lastCallback = now
        lastCallbackTime = time
        let resumed = isSuspended
        isSuspended = false
        return resumed
    }

    /// A frame was committed: `start` is when its renderer was called, `commit` when the
    /// commit returned.
    mutating func committed(start: UInt64, commit: UInt64) {
        guard commit >= start else { return }
        // The compositor can answer only what it has: the wait for this frame's callback
        // counts from its commit, so a long first frame (a shader compiled cold) or a
        // slow renderer is not taken for a compositor that stopped showing the surface.
        if callbackPending { requestedAt = max(requestedAt, commit) }
        renderTimes.append(commit - start)
        if renderTimes.count > 16 { renderTimes.removeFirst(renderTimes.count - 16) }
    }

    /// Presentation feedback: the frame that started at `started` and was committed at
    /// `committed` was presented at `time`, with the compositor's refresh period (0:
    /// unknown) and sequence (0: none).
    mutating func presented(time: UInt64, refresh: UInt64, sequence: UInt64, started: UInt64?, committed: UInt64?) {
        if refresh > 0 { presentedPeriod = refresh }
        phase.presented(at: time, refresh: refresh, sequence: sequence, nominal: modePeriod, started: started,
                        committed: committed)
    }

    /// The arrival and compositor time of the callback that started the next frame, if
    /// the next frame follows a callback.
    var pendingCallback: (arrival: UInt64, time: UInt32)? {
        guard !redrawRequested, let lastCallback, let lastCallbackTime else { return nil }
        return (lastCallback, lastCallbackTime)
    }
}
