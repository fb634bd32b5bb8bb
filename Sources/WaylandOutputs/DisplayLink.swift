import CWayland

/// One frame a ``DisplayLink`` hands to the renderer.
public struct DisplayLinkFrame: Sendable {
    /// Frames this link has produced before this one.
    public var index: UInt64
    /// When the refresh that this frame follows happened: arrival of the frame callback,
    /// in ``MonotonicClock`` nanoseconds (for the first frame, the moment it was started).
    public var timestamp: UInt64
    /// When this frame should reach the screen: `timestamp` plus `frameInterval` refreshes.
    public var targetTimestamp: UInt64
    /// The refresh period in nanoseconds.
    public var duration: UInt64
}

/// Paces drawing on one output from that output's own wl_surface.frame callbacks, like
/// a per-screen display link: a callback says the compositor has used the last frame and
/// wants the next one, so each output runs at its own rate and never waits for another.
///
/// It lives on its window's render thread; the callbacks arrive on that thread's queue.
public final class DisplayLink: ProxyOwner {
    /// The refresh period used until the link has measured one, from the current mode;
    /// 60 Hz when the output does not say.
    public private(set) var nominalPeriod: UInt64
    /// Frames produced so far.
    public private(set) var frameCount: UInt64 = 0
    /// The wl_callback waiting for the next refresh, if any.
    private var callback: OpaquePointer?
    /// Arrival of the last callback (MonotonicClock ns) and the compositor's time in ms.
    private(set) var lastCallbackArrival: UInt64?
    private(set) var lastCallbackTime: UInt32?
    /// Set when a callback has arrived and the next frame should be drawn.
    private(set) var frameDue = true

    init(output: Output) {
        nominalPeriod = output.currentMode?.refreshPeriodNanoseconds ?? 16_666_667
    }

    deinit { cancel() }

    /// Takes a new refresh period from the output's current mode.
    func update(output: Output) {
        if let period = output.currentMode?.refreshPeriodNanoseconds { nominalPeriod = period }
    }

    /// Requests the frame callback that will pace the next frame (wl_surface.frame);
    /// the next commit of `surface` carries it. A callback still pending is dropped.
    func requestCallback(surface: OpaquePointer) {
        cancel()
        callback = wl_surface_frame(surface)
        wl_callback_add_listener(callback, DisplayLink.listener.pointer, userData)
        frameDue = false
    }

    /// Produces the frame to draw now and counts it.
    func nextFrame(now: UInt64) -> DisplayLinkFrame {
        let timestamp = lastCallbackArrival ?? now
        defer { frameCount += 1 }
        return DisplayLinkFrame(index: frameCount, timestamp: timestamp,
                                targetTimestamp: timestamp + nominalPeriod, duration: nominalPeriod)
    }

    /// Destroys the pending callback, if any; no event will arrive for it.
    func cancel() {
        if let callback { wl_callback_destroy(callback) }
        callback = nil
    }

    private func fired(time: UInt32) {
        if let callback { wl_callback_destroy(callback) }
        callback = nil
        lastCallbackArrival = MonotonicClock.now()
        lastCallbackTime = time
        frameDue = true
    }

    private static let listener = ListenerTable(wl_callback_listener(
        done: { data, _, time in owner(data, as: DisplayLink.self).fired(time: time) }
    ))
}
