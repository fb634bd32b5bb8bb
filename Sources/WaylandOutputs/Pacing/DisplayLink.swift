import CWayland

/// One frame a display link hands to the renderer (the names are CADisplayLink's).
public struct DisplayLinkFrame: Sendable {
    /// Frames this link has produced before this one.
    public var index: UInt64
    /// The refresh this frame follows: arrival of its frame callback (for a first frame
    /// or a redraw after a resize, the moment it started).
    public var timestamp: MonotonicInstant
    /// When this frame should reach the screen: `timestamp` plus `frameInterval` periods.
    public var targetTimestamp: MonotonicInstant
    /// The refresh period: from presentation feedback, else the current mode, else measured.
    public var duration: Duration

    public init(index: UInt64, timestamp: MonotonicInstant, targetTimestamp: MonotonicInstant, duration: Duration) {
        self.index = index
        self.timestamp = timestamp
        self.targetTimestamp = targetTimestamp
        self.duration = duration
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

    func becomeIdle() { timing.becomeIdle() }

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

    func presented(refresh: UInt64) { timing.presented(refresh: refresh) }

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
