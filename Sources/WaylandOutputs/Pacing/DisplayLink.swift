import CWayland

/// One frame a display link hands to the renderer (the names are CADisplayLink's).
public struct DisplayLinkFrame: Sendable {
    /// Where a frame's ``targetTimestamp`` came from.
    public enum TargetSource: String, Sendable, Equatable {
        /// Where the frame will be presented, learnt from the compositor's presentation
        /// times: the refresh of the output's grid nearest to the frame's start plus the
        /// time recent frames took to reach the screen, later when the commit is expected
        /// late; or, where presented times keep to no grid, the start plus that time.
        /// See "Pacing and presentation".
        case presentation
        /// `timestamp` plus the frame interval times the refresh period: where the
        /// compositor reports no presentation times (sway 1.7, kwin 5.27), while the grid
        /// is being learnt, or when presentation targets are turned off
        /// (``DisplayLinkSettings/usesPresentationTimes``).
        case estimate
    }

    /// Frames this link has produced before this one.
    public var index: UInt64
    /// The refresh this frame follows: arrival of its frame callback (for a first frame
    /// or a redraw after a resize, the moment it started).
    public var timestamp: MonotonicInstant
    /// When this frame will reach the screen: the refresh it will be presented at
    /// (CADisplayLink's meaning), where the compositor reports presentation times; else
    /// `timestamp` plus `frameInterval` periods. ``targetSource`` says which.
    public var targetTimestamp: MonotonicInstant
    /// The refresh period: from presentation feedback, else the current mode, else measured.
    public var duration: Duration
    /// Where ``targetTimestamp`` came from.
    public var targetSource: TargetSource

    public init(index: UInt64, timestamp: MonotonicInstant, targetTimestamp: MonotonicInstant, duration: Duration,
                targetSource: TargetSource = .estimate) {
        self.index = index
        self.timestamp = timestamp
        self.targetTimestamp = targetTimestamp
        self.duration = duration
        self.targetSource = targetSource
    }
}

/// Paces drawing on one output from that output's own wl_surface.frame callbacks, like
/// a per-screen display link: a callback says the compositor has used the last frame and
/// wants the next one, so each output runs at its own rate and never waits for another.
///
/// It lives on its window's render thread; the callbacks arrive on that thread's queue.
/// The decisions are in ``DisplayLinkTiming``; this object owns the wl_callback.
final class DisplayLink: ProxyOwner {
    private(set) var timing: DisplayLinkTiming
    /// The wl_callback waiting for the next refresh, if any.
    private var callback: OpaquePointer?
    /// Called when a callback ends a suspension.
    var onResume: (() -> Void)?

    init(output: Output) {
        timing = DisplayLinkTiming(modePeriod: output.currentMode?.refreshPeriod.map { UInt64($0.inNanoseconds) })
    }

    deinit { cancel() }

    func update(output: Output) {
        timing.modePeriod = output.currentMode?.refreshPeriod.map { UInt64($0.inNanoseconds) }
    }

    func apply(_ settings: DisplayLinkSettings) {
        if settings != timing.settings {
            timing.settings = settings
        }
    }

    func requestRedraw() { timing.requestRedraw() }

    /// A new surface draws its first frame (``DisplayLinkTiming/surfaceStarted()``).
    func surfaceStarted() { timing.surfaceStarted() }

    func becomeIdle() { timing.becomeIdle() }

    /// The surface is made again after its callbacks stopped (``DisplayLinkTiming/surfaceReplaced()``).
    func surfaceReplaced() {
        cancel()
        timing.surfaceReplaced()
    }

    func next(now: UInt64) -> DisplayLinkTiming.Action { timing.next(now: now) }

    /// Starts a frame: requests the frame callback that will pace the next one
    /// (wl_surface.frame; the next commit of `surface` carries it). A callback still
    /// pending is dropped.
    func startFrame(surface: OpaquePointer, now: UInt64) -> DisplayLinkFrame {
        cancel()
        callback = wl_surface_frame(surface)
        wl_callback_add_listener(callback, DisplayLink.listener.pointer, userData)
        return timing.startFrame(now: now)
    }

    /// A frame started at `start` was committed at `commit` (for the expected render time).
    func committed(start: UInt64, commit: UInt64) { timing.committed(start: start, commit: commit) }

    /// What presentation feedback said of a frame (see ``DisplayLinkTiming/presented(time:refresh:sequence:started:committed:)``).
    func presented(time: UInt64, refresh: UInt64, sequence: UInt64, started: UInt64?, committed: UInt64?) {
        timing.presented(time: time, refresh: refresh, sequence: sequence, started: started, committed: committed)
    }

    /// Destroys the pending callback, if any; no event will arrive for it.
    func cancel() {
        if let callback { wl_callback_destroy(callback) }
        callback = nil
    }

    private func fired(time: UInt32) {
        if let callback { wl_callback_destroy(callback) }
        callback = nil
        if timing.callbackArrived(now: MonotonicClock.now(), time: time) { onResume?() }
    }

    static let listener = ListenerTable(wl_callback_listener()) {
        $0.done = { data, _, time in owner(data, as: DisplayLink.self).fired(time: time) }
    }
}
