import CWayland

/// The compositor's globals (wl_registry): binds the ones this library uses, at the
/// highest version both sides know, and routes wl_output arrivals and removals.
final class Registry: ProxyOwner {
    struct Global: Sendable {
        let name: UInt32
        let interface: String
        let version: UInt32
        /// When the compositor announced it (MonotonicClock ns).
        let announced: UInt64
    }

    private let connection: Connection
    private let registry: OpaquePointer
    private(set) var globals: [UInt32: Global] = [:]

    private(set) var compositor: OpaquePointer?
    private(set) var wmBase: OpaquePointer?
    private(set) var xdgOutputManager: OpaquePointer?
    private(set) var xdgOutputManagerVersion: UInt32 = 0
    private(set) var presentation: OpaquePointer?
    /// The clock wp_presentation timestamps use (wp_presentation.clock_id).
    private(set) var presentationClock: UInt32 = 1
    private(set) var viewporter: OpaquePointer?
    private(set) var fractionalScaleManager: OpaquePointer?
    /// wl_shm, for windows whose frames go through buffers of their own.
    private(set) var shm: OpaquePointer?
    /// wp_fifo_manager_v1 and wp_commit_timing_manager_v1, where offered (mutter 48).
    private(set) var fifoManager: OpaquePointer?
    private(set) var commitTimingManager: OpaquePointer?

    /// A wl_output global appeared (name, offered version).
    var outputAdded: ((UInt32, UInt32) -> Void)?
    /// A wl_seat global appeared.
    var seatAdded: ((Global) -> Void)?
    /// A global disappeared; the closure runs before anything bound to it is released.
    var globalRemoved: ((UInt32) -> Void)?

    /// Versions this library is written for: it binds min(offered, highest, libwayland's).
    /// wl_compositor 6 brings wl_surface's preferred buffer scale and transform, where this
    /// libwayland has them; otherwise 4, as on libwayland 1.21.
    static let highestVersions: [String: UInt32] = [
        "wl_compositor": OutputSurface.surfaceVersion >= 6 ? 6 : 4, "wl_output": 4, "wl_seat": 7, "xdg_wm_base": 5,
        "zxdg_output_manager_v1": 3, "wp_presentation": 2, "wp_viewporter": 1,
        "wp_fractional_scale_manager_v1": 1, "zwlr_output_manager_v1": 2, "wl_shm": 1,
        "wp_fifo_manager_v1": 1, "wp_commit_timing_manager_v1": 1, "zwlr_output_power_manager_v1": 1,
    ]
    /// Versions below which a global is useless to this library.
    static let lowestVersions: [String: UInt32] = [
        "wl_compositor": 4, "wl_output": 2, "xdg_wm_base": 1,
        "zxdg_output_manager_v1": 1, "wp_presentation": 1, "wp_viewporter": 1,
    ]

    /// The interface descriptions ``bind(_:interface:)`` is given, by name.
    private static let interfaces: [String: @Sendable () -> UnsafePointer<wl_interface>?] = [
        "wl_compositor": cw_wl_compositor_interface, "wl_output": cw_wl_output_interface, "wl_seat": cw_wl_seat_interface,
        "xdg_wm_base": cw_xdg_wm_base_interface, "zxdg_output_manager_v1": cw_zxdg_output_manager_v1_interface,
        "wp_presentation": cw_wp_presentation_interface, "wp_viewporter": cw_wp_viewporter_interface,
        "wp_fractional_scale_manager_v1": cw_wp_fractional_scale_manager_v1_interface,
        "zwlr_output_manager_v1": cw_zwlr_output_manager_v1_interface, "wl_shm": cw_wl_shm_interface,
        "wp_fifo_manager_v1": cw_wp_fifo_manager_v1_interface,
        "wp_commit_timing_manager_v1": cw_wp_commit_timing_manager_v1_interface,
        "zwlr_output_power_manager_v1": cw_zwlr_output_power_manager_v1_interface,
    ]

    /// Every global offered, one per interface (the highest version of any instance),
    /// sorted by interface, with the version this library binds it at.
    var offered: [CompositorGlobal] {
        var highest: [String: UInt32] = [:]
        for global in globals.values { highest[global.interface] = max(highest[global.interface] ?? 0, global.version) }
        return highest.keys.sorted().map { interface in
            let version = highest[interface]!
            let bound = Registry.interfaces[interface].flatMap { description -> UInt32? in
                guard version >= Registry.lowestVersions[interface] ?? 1, let description = description() else { return nil }
                return Registry.version(offered: version, interface: interface, description: description)
            }
            return CompositorGlobal(interface: interface, version: version, boundVersion: bound)
        }
    }

    /// min(offered, our highest, the interface description's own).
    private static func version(offered: UInt32, interface: String, description: UnsafePointer<wl_interface>) -> UInt32 {
        min(offered, highestVersions[interface] ?? 1, UInt32(max(1, description.pointee.version)))
    }

    init(connection: Connection) {
        self.connection = connection
        registry = wl_display_get_registry(connection.display)
    }

    /// Starts listening and waits until the compositor has announced every global.
    func start() throws {
        wl_registry_add_listener(registry, Registry.listener.pointer, userData)
        try connection.roundtrip()
    }

    deinit {
        for proxy in [compositor, wmBase, xdgOutputManager, presentation, viewporter, fractionalScaleManager, shm, fifoManager,
                      commitTimingManager] {
            if let proxy { wl_proxy_destroy(proxy) }
        }
        wl_registry_destroy(registry)
    }

    /// Binds a global (wl_registry.bind) at min(offered, our highest) version, and never
    /// above the version the interface description has (libwayland's own, for the core
    /// protocol): a newer event would reach a libwayland that cannot decode it.
    func bind(_ global: Global, interface: UnsafePointer<wl_interface>) -> (OpaquePointer, UInt32) {
        let version = Registry.version(offered: global.version, interface: global.interface, description: interface)
        let proxy = wl_registry_bind(registry, global.name, interface, version)!
        return (OpaquePointer(proxy), version)
    }

    /// Binds zwlr_output_manager_v1 (on demand: binding makes the compositor describe every
    /// head), or nil when the compositor does not offer it.
    func bindOutputManager() -> OpaquePointer? {
        guard let global = globals.values.first(where: { $0.interface == "zwlr_output_manager_v1" }) else { return nil }
        return bind(global, interface: cw_zwlr_output_manager_v1_interface()).0
    }

    /// Binds zwlr_output_power_manager_v1 (on demand: only a client that turns outputs off
    /// needs it), or nil when the compositor does not offer it.
    func bindPowerManager() -> OpaquePointer? {
        guard let global = globals.values.first(where: { $0.interface == "zwlr_output_power_manager_v1" }) else { return nil }
        return bind(global, interface: cw_zwlr_output_power_manager_v1_interface()).0
    }

    /// Throws ``WaylandError/missingGlobal(interface:required:offered:)`` unless the
    /// compositor offers `interface` at a usable version.
    func require(_ interface: String) throws {
        let required = Registry.lowestVersions[interface] ?? 1
        let offered = globals.values.filter { $0.interface == interface }.map(\.version).max()
        guard let offered, offered >= required else {
            throw WaylandError.missingGlobal(interface: interface, required: required, offered: offered)
        }
    }

    private func announce(_ global: Global) {
        globals[global.name] = global
        let lowest = Registry.lowestVersions[global.interface] ?? 1
        switch global.interface {
        case "wl_compositor" where compositor == nil && global.version >= lowest:
            compositor = bind(global, interface: cw_wl_compositor_interface()).0
        case "xdg_wm_base" where wmBase == nil:
            wmBase = bind(global, interface: cw_xdg_wm_base_interface()).0
            xdg_wm_base_add_listener(wmBase, Registry.wmBaseListener.pointer, nil)
        case "zxdg_output_manager_v1" where xdgOutputManager == nil:
            (xdgOutputManager, xdgOutputManagerVersion) = bind(global, interface: cw_zxdg_output_manager_v1_interface())
        case "wp_presentation" where presentation == nil:
            presentation = bind(global, interface: cw_wp_presentation_interface()).0
            wp_presentation_add_listener(presentation, Registry.presentationListener.pointer, userData)
        case "wp_viewporter" where viewporter == nil:
            viewporter = bind(global, interface: cw_wp_viewporter_interface()).0
        case "wp_fractional_scale_manager_v1" where fractionalScaleManager == nil:
            fractionalScaleManager = bind(global, interface: cw_wp_fractional_scale_manager_v1_interface()).0
        case "wp_fifo_manager_v1" where fifoManager == nil:
            fifoManager = bind(global, interface: cw_wp_fifo_manager_v1_interface()).0
        case "wp_commit_timing_manager_v1" where commitTimingManager == nil:
            commitTimingManager = bind(global, interface: cw_wp_commit_timing_manager_v1_interface()).0
        case "wl_shm" where shm == nil:
            // Its format events go unheard: ARGB8888, the only one used, every compositor has.
            shm = bind(global, interface: cw_wl_shm_interface()).0
        case "wl_seat":
            seatAdded?(global)
        case "wl_output":
            if global.version >= lowest {
                outputAdded?(global.name, global.version)
            } else {
                connection.log.warning("ignoring wl_output \(global.name): version \(global.version), version \(lowest) or later is required")
            }
        default:
            break
        }
    }

    private func remove(_ name: UInt32) {
        guard globals.removeValue(forKey: name) != nil else { return }
        globalRemoved?(name)
    }

    static let listener = ListenerTable(wl_registry_listener()) {
        $0.global = { data, _, name, interface, version in
            let registry = owner(data, as: Registry.self)
            registry.announce(Global(name: name, interface: String(cString: interface!), version: version,
                                     announced: MonotonicClock.now()))
        }
        $0.global_remove = { data, _, name in
            owner(data, as: Registry.self).remove(name)
        }
    }

    private static let presentationListener = ListenerTable(wp_presentation_listener(
        clock_id: { data, _, clock in owner(data, as: Registry.self).presentationClock = clock }
    ))

    /// xdg_wm_base.ping must be answered or the compositor deems the client dead.
    private static let wmBaseListener = ListenerTable(xdg_wm_base_listener(
        ping: { _, wmBase, serial in xdg_wm_base_pong(wmBase, serial) }
    ))
}
