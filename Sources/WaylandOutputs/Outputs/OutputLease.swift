/// A window's hold on its output's wl_output proxy. Render threads pass the proxy to
/// xdg_toplevel.set_fullscreen and compare it with wl_surface.enter, so it must outlive
/// them: when the output disconnects, ``Screens`` keeps the proxy until every lease on it
/// has ended, however late its window is closed. The lease also keeps the `Screens` (and
/// with it the globals a window creates its surfaces from) alive.
final class OutputLease: @unchecked Sendable {
    /// The wl_output proxy, valid until ``end()``.
    let output: OpaquePointer
    private let proxy: OutputProxy
    private let screens: Screens
    private let ended = Locked(false)

    init(proxy: OutputProxy, screens: Screens) {
        self.proxy = proxy
        self.output = proxy.output
        self.screens = screens
    }

    /// Gives the proxy back; call it once no thread will touch `output` again. The proxy is
    /// released on the connection's main thread: at once when called there, else at its
    /// next dispatch.
    func end() {
        guard ended.withLock({ ended in defer { ended = true }; return !ended }) else { return }
        let (screens, proxy) = (screens, proxy)
        screens.connection.onMainThread { screens.endLease(on: proxy) }
    }

    deinit { end() }
}
