import CWayland

/// What happened to an output. `disconnected` is delivered before the output's
/// proxies are released, so windows on it can be torn down first.
package enum OutputEvent: Sendable, Equatable {
    case connected(Output)
    case changed(Output, previous: Output)
    case disconnected(Output)
}

/// The outputs the compositor offers: an ordered list with connected / changed /
/// disconnected events, and the input tied to them. ``OutputSession`` builds on it; use
/// it alone for a program that opens its windows itself. Use it on the connection's main
/// thread.
package final class OutputTracker {
    package let connection: Connection
    let registry: Registry
    private var proxies: [UInt32: OutputProxy] = [:]
    /// Outputs whose global is gone while a window still holds their proxy.
    private var retired: [ObjectIdentifier: OutputProxy] = [:]
    private var list = OutputList()
    /// wl_output proxy to output name, readable from render threads.
    let proxyNames = ProxyNames()

    /// Every global the compositor offers, with the version this library binds it at
    /// (known after ``start()``).
    package var globals: [CompositorGlobal] { registry.offered }

    /// Receives every event from when it is set, on the connection's main thread; set it
    /// there, at any time (before ``start()`` to hear of the outputs present then, or read
    /// ``outputs`` after it).
    package var onEvent: ((OutputEvent) -> Void)?
    /// Receives keyboard, pointer and touch input, tied to outputs. The seats are bound
    /// when it is first set: a client that takes no input never compiles a keymap.
    package var onInput: ((InputEvent) -> Void)? {
        didSet {
            guard onInput != nil else { return }
            for global in registry.globals.values where global.interface == "wl_seat" { addSeat(global) }
        }
    }
    /// Windows register their surfaces here so input can be tied to outputs.
    let surfaces = SurfaceDirectory()
    private var seats: [UInt32: Seat] = [:]

    package init(connection: Connection) {
        self.connection = connection
        registry = Registry(connection: connection)
        registry.outputAdded = { [unowned self] id, version in addOutput(id: id, version: version) }
        registry.globalRemoved = { [unowned self] id in
            if let seat = seats.removeValue(forKey: id) {
                seat.destroy()
            } else {
                removeOutput(id: id)
            }
        }
        registry.seatAdded = { [unowned self] global in if onInput != nil { addSeat(global) } }
    }

    deinit {
        management = nil
        power = nil
        for seat in seats.values { seat.destroy(report: false) }
        // Every lease holds this object, so no window uses these proxies any more.
        for proxy in Array(proxies.values) + Array(retired.values) { proxy.destroy() }
    }

    private func addSeat(_ global: Registry.Global) {
        guard seats[global.name] == nil else { return }
        let (proxy, bound) = registry.bind(global, interface: cw_wl_seat_interface())
        seats[global.name] = Seat(seat: proxy, version: bound, directory: surfaces, log: connection.log) { [unowned self] event in
            onInput?(event)
        }
    }

    /// Binds the globals and waits until every output present now is described.
    package func start() throws {
        connection.requireMainThread()
        try registry.start()
        if registry.xdgOutputManager == nil {
            connection.log.warning("the compositor does not offer zxdg_output_manager_v1: output positions are unknown, sizes derive from modes")
        }
        attachXdgOutputs()
        try connection.roundtrip()
        attachXdgOutputs()
        try connection.roundtrip()
        // An output described without its `done` (or, with xdg-output, without a logical
        // size) is not published; say so rather than leave it out silently.
        for proxy in proxies.values.sorted(by: { $0.id < $1.id }) where proxy.state.published == nil {
            let name = proxy.state.pendingName.map { " (\(Log.printable($0)))" } ?? ""
            connection.log.warning("wl_output \(proxy.id)\(name): the compositor has not completed its description "
                                   + "(no wl_output.done\(registry.xdgOutputManager == nil ? "" : ", or no xdg-output logical size")); "
                                   + "it is left out until it does")
        }
    }

    /// Described outputs in ``OutputOrder`` order.
    package var outputs: [Output] { list.ordered }

    /// The output with this name, if it is connected and described.
    package func output(named name: String) -> Output? { list.ordered.first { $0.name == name } }

    /// Throws ``WaylandError/missingGlobal(interface:required:offered:)`` unless the
    /// compositor offers what fullscreen windows need (wl_compositor, xdg_wm_base).
    package func requireWindowing() throws {
        try registry.require("wl_compositor")
        try registry.require("xdg_wm_base")
    }

    /// The clock wp_presentation timestamps use (wp_presentation.clock_id: 1 is
    /// CLOCK_MONOTONIC, 4 CLOCK_MONOTONIC_RAW), nil where the compositor offers no
    /// presentation-time.
    package var presentationClock: UInt32? { registry.presentation == nil ? nil : registry.presentationClock }

    /// Whether the compositor offers a global with this interface name.
    package func offers(_ interface: String) -> Bool {
        registry.globals.values.contains { $0.interface == interface }
    }

    /// The compositor's output configuration (wlr-output-management), bound on first use.
    /// Throws ``OutputManagementError/unavailable`` where the compositor lacks it.
    package func outputManagement() throws -> OutputManagement {
        if let management { return management }
        guard let manager = registry.bindOutputManager() else { throw OutputManagementError.unavailable }
        let management = try OutputManagement(connection: connection, manager: manager)
        self.management = management
        return management
    }

    private var management: OutputManagement?

    /// Turns output `id` off or on through wlr-output-power-management (bound on first
    /// use); `done` runs on the session's thread with the compositor's answer, at once
    /// where the compositor lacks the protocol or the output is gone.
    package func setPower(_ mode: PowerMode, of id: UInt32, done: @escaping (PowerOutcome) -> Void) {
        guard let proxy = proxies[id] else { return done(.refused) }
        if power == nil, let manager = registry.bindPowerManager() {
            power = OutputPower(connection: connection, manager: manager)
        }
        guard let power else { return done(.unavailable) }
        power.set(mode, id: id, output: proxy.output, done: done)
    }

    private var power: OutputPower?

    /// When the compositor announced the output's wl_output global.
    package func announcementTime(of id: UInt32) -> MonotonicInstant? {
        registry.globals[id].map { MonotonicInstant(nanoseconds: $0.announced) }
    }

    /// A hold on the wl_output of output `id` for a window, nil if it is not connected.
    func lease(_ id: UInt32) -> OutputLease? {
        guard let proxy = proxies[id] else { return nil }
        proxy.leases += 1
        return OutputLease(proxy: proxy, tracker: self)
    }

    /// Outputs that have disconnected but whose wl_output a window still holds.
    var outputsHeldAfterDisconnect: Int { retired.count }

    /// A lease ended (on the main thread): the proxy goes if its global went and no other
    /// window holds it.
    func endLease(on proxy: OutputProxy) {
        proxy.leases -= 1
        releaseIfUnheld(proxy)
    }

    /// Releases a retired proxy that no window holds any more, once.
    private func releaseIfUnheld(_ proxy: OutputProxy) {
        guard proxy.leases == 0, retired.removeValue(forKey: ObjectIdentifier(proxy)) != nil else { return }
        release(proxy)
    }

    private func release(_ proxy: OutputProxy) {
        proxyNames[proxy.output] = nil
        proxy.destroy()
    }


    private func addOutput(id: UInt32, version: UInt32) {
        let (proxy, bound) = registry.bind(registry.globals[id]!, interface: cw_wl_output_interface())
        let output = OutputProxy(id: id, output: proxy, version: bound, log: connection.log)
        output.published = { [unowned self] description in publish(description) }
        proxies[id] = output
        if let manager = registry.xdgOutputManager {
            output.attachXdgOutput(manager: manager, version: registry.xdgOutputManagerVersion)
        }
    }

    private func attachXdgOutputs() {
        guard let manager = registry.xdgOutputManager else { return }
        for proxy in proxies.values {
            proxy.attachXdgOutput(manager: manager, version: registry.xdgOutputManagerVersion)
        }
    }

    private func publish(_ output: Output) {
        if let proxy = proxies[output.id] {
            proxyNames[proxy.output] = output.name
        }
        let event = list.publish(output)
        onEvent?(event)
    }

    private func removeOutput(id: UInt32) {
        guard let proxy = proxies.removeValue(forKey: id) else { return }
        power?.forget(id)
        // Retired before the application hears of it: the last lease to end releases the
        // proxy, whether its window closes while the application handles the event or
        // later. The application is told first, so its windows go before the proxy.
        retired[ObjectIdentifier(proxy)] = proxy
        if let event = list.remove(id: id) {
            onEvent?(event)
        }
        releaseIfUnheld(proxy)
    }
}
