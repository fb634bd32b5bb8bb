/// A window's hold on its output's wl_output proxy. Render threads pass the proxy to
/// xdg_toplevel.set_fullscreen and compare it with wl_surface.enter, so it must outlive
/// them: when the output disconnects, ``OutputTracker`` keeps the proxy until every lease on it
/// has ended, however late its window is closed. The lease also keeps the `OutputTracker` (and
/// with it the globals a window creates its surfaces from) alive.
// @unchecked: the wl_output proxy is immutable and libwayland lets any thread use it; the
// count of leases lives in OutputTracker and is changed on the main thread only (end() hands the
// change there); `ended` is a Locked.
final class OutputLease: @unchecked Sendable {
    /// The wl_output proxy, valid until ``end()``.
    let output: OpaquePointer
    private let proxy: OutputProxy
    private let tracker: OutputTracker
    private let ended = Locked(false)

    init(proxy: OutputProxy, tracker: OutputTracker) {
        self.proxy = proxy
        self.output = proxy.output
        self.tracker = tracker
    }

    /// Gives the proxy back; call it once no thread will touch `output` again. The proxy is
    /// released on the connection's main thread: at once when called there, else at its
    /// next dispatch.
    func end() {
        guard ended.withLock({ ended in defer { ended = true }; return !ended }) else { return }
        let (tracker, proxy) = (tracker, proxy)
        tracker.connection.onMainThread { tracker.endLease(on: proxy) }
    }

    deinit { end() }
}
