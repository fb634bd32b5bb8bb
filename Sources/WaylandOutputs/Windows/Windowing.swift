import CWayland

/// What a window's surface is made with: the globals bound on the connection's main
/// thread, and the tables input and placement use, taken once there and handed to the
/// window's own thread. Nothing in it changes afterwards, so no thread reads what another
/// writes (the registry itself belongs to the main thread).
struct Windowing: @unchecked Sendable {
    // @unchecked: the proxies are OpaquePointers, which are not Sendable. libwayland lets
    // any thread send requests on a proxy; these are bound before the snapshot, never
    // changed, and destroyed only with the OutputTracker every window's lease keeps alive.
    let compositor: OpaquePointer
    let wmBase: OpaquePointer
    let viewporter: OpaquePointer?
    let fractionalScaleManager: OpaquePointer?
    let shm: OpaquePointer?
    let fifoManager: OpaquePointer?
    let commitTimingManager: OpaquePointer?
    /// wp_presentation and its clock, where offered.
    let presentation: (proxy: OpaquePointer, clock: UInt32)?
    /// Surfaces to outputs, for input; wl_output proxies to names, for placement.
    let surfaces: SurfaceDirectory
    let names: ProxyNames
    let connection: Connection
}

extension OutputTracker {
    /// The globals windows need, on the main thread; throws when the compositor lacks
    /// wl_compositor or xdg_wm_base.
    func windowing() throws -> Windowing {
        connection.requireMainThread()
        try requireWindowing()
        guard let compositor = registry.compositor, let wmBase = registry.wmBase else {
            throw WaylandError.missingGlobal(interface: registry.compositor == nil ? "wl_compositor" : "xdg_wm_base",
                                             required: 1, offered: nil)
        }
        return Windowing(compositor: compositor, wmBase: wmBase, viewporter: registry.viewporter,
                         fractionalScaleManager: registry.fractionalScaleManager, shm: registry.shm,
                         fifoManager: registry.fifoManager, commitTimingManager: registry.commitTimingManager,
                         presentation: registry.presentation.map { ($0, registry.presentationClock) },
                         surfaces: surfaces, names: proxyNames, connection: connection)
    }
}
