import CWayland

/// How the compositor answered a configuration (zwlr_output_configuration_v1's
/// succeeded, failed or cancelled event).
package enum ConfigurationOutcome: Sendable, Equatable {
    /// Applied.
    case succeeded
    /// Not applied: the compositor could not do it.
    case failed
    /// Not applied: the outputs changed while the configuration was made.
    case cancelled
}

/// What went wrong changing an output's mode through wlr-output-management.
package enum OutputManagementError: Error, Equatable, CustomStringConvertible {
    /// The compositor does not offer zwlr_output_manager_v1.
    case unavailable
    /// No head has this name.
    case unknownHead(String)
    /// The compositor describes a head that is on as off or without a mode (sway 1.7 does
    /// for outputs with custom modes, such as headless ones); a configuration built on it
    /// would turn live outputs off, so none is sent.
    case untrustedDescription(head: String)
    /// The compositor has not described its heads (no done event yet).
    case noState
    /// The compositor answered with failed or cancelled.
    case refused(ConfigurationOutcome)
    /// The compositor did not answer in time.
    case noAnswer(after: Duration)

    package var description: String {
        switch self {
        case .unavailable: "the compositor does not offer zwlr_output_manager_v1 (wlr-output-management)"
        case .unknownHead(let name): "wlr-output-management knows no output named \(name)"
        case .untrustedDescription(let head):
            "the compositor refused the new mode: wlr-output-management describes \(head) as off or without a mode "
                + "although it is on; not trusting it (sway 1.7 does this for outputs with custom modes, such as headless ones)"
        case .noState: "the compositor refused the new mode: no state from the compositor yet"
        case .refused(.cancelled): "the compositor refused the new mode: the outputs changed meanwhile (cancelled)"
        case .refused: "the compositor refused the new mode: the configuration failed"
        case .noAnswer(let after): "the compositor refused the new mode: no answer within \(after)"
        }
    }
}

/// What a new wlr-output-management configuration does with each head. Pure, so the
/// rules are unit-tested: every head the compositor describes keeps its state except
/// the target, and nothing is sent when the description cannot be trusted.
enum ConfigurationPlan {
    /// A head as the compositor described it.
    struct Head: Sendable, Equatable {
        var name: String
        var enabled: Bool
        var modes: [OutputMode]
        var currentMode: OutputMode?

        init(name: String, enabled: Bool, modes: [OutputMode], currentMode: OutputMode?) {
            self.name = name
            self.enabled = enabled
            self.modes = modes
            self.currentMode = currentMode
        }
    }

    enum Action: Sendable, Equatable {
        /// Keep the head on, as it is.
        case keep(String)
        /// Keep the head off.
        case keepOff(String)
        /// Switch the head to one of its listed modes.
        case setMode(String, OutputMode)
        /// Switch the head to a mode it does not list.
        case setCustomMode(String, OutputMode)
    }

    /// The actions that switch `target` to `mode`. `connected` are the outputs the
    /// client sees through wl_output: a head among them described as off, or with no
    /// mode, means the description is wrong (sway 1.7 describes outputs that use custom
    /// modes, headless and nested ones among them, that way), and a configuration built
    /// on it would turn live outputs off; so nothing is planned.
    static func switching(_ target: String, to mode: OutputMode, heads: [Head],
                                 connected: Set<String>) throws -> [Action] {
        guard heads.contains(where: { $0.name == target }) else { throw OutputManagementError.unknownHead(target) }
        for head in heads where connected.contains(head.name) && (!head.enabled || head.currentMode == nil) {
            throw OutputManagementError.untrustedDescription(head: head.name)
        }
        return heads.map { head in
            guard head.name == target else { return head.enabled ? .keep(head.name) : .keepOff(head.name) }
            let listed = head.modes.named(mode.size, refreshMilliHertz: mode.refreshMilliHertz == 0 ? nil : mode.refreshMilliHertz)
            return listed.map { .setMode(head.name, $0) } ?? .setCustomMode(head.name, mode)
        }
    }
}

/// The compositor's output configuration through wlr-output-management (sway, and the
/// other wlroots compositors): read each head's modes, switch a head to another mode,
/// and put the original configuration back. Use it on the connection's main thread.
package final class OutputManagement: ProxyOwner {
    /// One mode of a head (zwlr_output_mode_v1).
    final class ModeProxy: ProxyOwner {
        let proxy: OpaquePointer
        unowned let head: Head
        var width: Int32 = 0, height: Int32 = 0, refresh: Int32 = 0, preferred = false
        init(_ proxy: OpaquePointer, head: Head) {
            self.proxy = proxy
            self.head = head
        }
    }

    /// One head (zwlr_output_head_v1).
    final class Head: ProxyOwner {
        let proxy: OpaquePointer
        unowned let owner: OutputManagement
        var name = ""
        var modes: [ModeProxy] = []
        var current: OpaquePointer?
        var enabled = false
        init(_ proxy: OpaquePointer, owner: OutputManagement) {
            self.proxy = proxy
            self.owner = owner
        }

        var currentMode: ModeProxy? { modes.first { $0.proxy == current } }

        /// The compositor will not use `mode` again (its `finished`): it goes, with its proxy.
        func forget(_ mode: ModeProxy) {
            modes.removeAll { $0 === mode }
            if current == mode.proxy { current = nil }
            wl_proxy_destroy(mode.proxy)
        }

        func destroy() {
            for mode in modes { wl_proxy_destroy(mode.proxy) }
            modes.removeAll()
            wl_proxy_destroy(proxy)
        }
    }


    private let connection: Connection
    private let manager: OpaquePointer
    private var heads: [Head] = []
    private var serial: UInt32?
    /// Each changed head's mode before the first change.
    private var saved: [String: OutputMode] = [:]
    private var outcome: ConfigurationOutcome?

    /// Binds zwlr_output_manager_v1 and waits for the compositor's current state.
    init(connection: Connection, manager: OpaquePointer) throws {
        self.connection = connection
        self.manager = manager
        zwlr_output_manager_v1_add_listener(manager, OutputManagement.managerListener.pointer, userData)
        // A compositor describes every head, then sends done, when the manager is bound:
        // one roundtrip normally; a few more for one that takes its time.
        for _ in 0..<3 where serial == nil { try connection.roundtrip() }
    }

    deinit {
        for head in heads { head.destroy() }
        zwlr_output_manager_v1_destroy(manager)
    }

    /// The modes a head offers, lowest to highest, with the current and preferred marked.
    package func modes(of name: String) -> [OutputMode] {
        guard let head = heads.first(where: { $0.name == name }) else { return [] }
        return head.modes.map {
            OutputMode(size: Size(width: $0.width, height: $0.height), refreshMilliHertz: $0.refresh,
                       isCurrent: $0.proxy == head.current, isPreferred: $0.preferred)
        }.sorted(by: OutputMode.lowToHigh)
    }

    /// The heads as the compositor describes them.
    var described: [ConfigurationPlan.Head] {
        heads.map { head in
            let current = head.currentMode.map {
                OutputMode(size: Size(width: $0.width, height: $0.height), refreshMilliHertz: $0.refresh, isCurrent: true,
                           isPreferred: $0.preferred)
            }
            return ConfigurationPlan.Head(name: head.name, enabled: head.enabled, modes: modes(of: head.name),
                                          currentMode: current)
        }
    }

    /// Switches head `name` to `mode` (one it lists, else a custom mode), remembering its
    /// mode before the first change so that ``restore(timeout:)`` can put it back. `connected`
    /// are the outputs the client sees (see the configuration plan). Waits up to
    /// `timeout` for the compositor's answer.
    package func setMode(_ mode: OutputMode, on name: String, connected: Set<String>, timeout: Duration = .seconds(5)) throws {
        let actions = try ConfigurationPlan.switching(name, to: mode, heads: described, connected: connected)
        let original = described.first { $0.name == name }?.currentMode
        try apply(actions, timeout: timeout)
        if saved[name] == nil, let original { saved[name] = original }
    }

    /// Puts back the mode of every head changed through this object. Returns the names of
    /// the heads restored.
    @discardableResult
    package func restore(timeout: Duration = .seconds(5)) throws -> [String] {
        let changed = saved
        guard !changed.isEmpty else { return [] }
        let actions = described.map { head -> ConfigurationPlan.Action in
            guard let original = changed[head.name] else { return head.enabled ? .keep(head.name) : .keepOff(head.name) }
            let listed = head.modes.contains { $0.sameTiming(as: original) }
            return listed ? .setMode(head.name, original) : .setCustomMode(head.name, original)
        }
        try apply(actions, timeout: timeout)
        saved.removeAll()
        return changed.keys.sorted()
    }

    /// Sends a configuration made of `actions`, applies it and waits for succeeded,
    /// failed or cancelled.
    private func apply(_ actions: [ConfigurationPlan.Action], timeout: Duration) throws {
        guard let serial else { throw OutputManagementError.noState }
        let configuration = zwlr_output_manager_v1_create_configuration(manager, serial)!
        defer { zwlr_output_configuration_v1_destroy(configuration) }
        zwlr_output_configuration_v1_add_listener(configuration, OutputManagement.configurationListener.pointer, userData)
        var headConfigurations: [OpaquePointer] = []
        defer { for configured in headConfigurations { wl_proxy_destroy(configured) } }
        for action in actions {
            let name: String = switch action {
            case .keep(let n), .keepOff(let n), .setMode(let n, _), .setCustomMode(let n, _): n
            }
            guard let head = heads.first(where: { $0.name == name }) else { continue }
            if case .keepOff = action {
                zwlr_output_configuration_v1_disable_head(configuration, head.proxy)
                continue
            }
            let configured = zwlr_output_configuration_v1_enable_head(configuration, head.proxy)!
            headConfigurations.append(configured)
            switch action {
            case .setMode(_, let mode):
                if let proxy = head.modes.first(where: { $0.width == mode.size.width && $0.height == mode.size.height
                    && $0.refresh == mode.refreshMilliHertz })?.proxy {
                    zwlr_output_configuration_head_v1_set_mode(configured, proxy)
                }
            case .setCustomMode(_, let mode):
                zwlr_output_configuration_head_v1_set_custom_mode(configured, mode.size.width, mode.size.height,
                                                                  mode.refreshMilliHertz)
            default:
                break
            }
        }
        outcome = nil
        zwlr_output_configuration_v1_apply(configuration)
        let deadline = MonotonicInstant.now + timeout
        while outcome == nil && MonotonicInstant.now < deadline {
            try connection.dispatch(timeout: deadline.fromNow)
        }
        switch outcome {
        case .succeeded:
            // Let the new state (and the wl_output events it causes) arrive.
            try connection.roundtrip()
        case nil:
            throw OutputManagementError.noAnswer(after: timeout)
        case let refusal?:
            throw OutputManagementError.refused(refusal)
        }
    }

    private static let managerListener = ListenerTable(zwlr_output_manager_v1_listener(
        head: { data, _, proxy in
            let management = owner(data, as: OutputManagement.self)
            let head = Head(proxy!, owner: management)
            management.heads.append(head)
            zwlr_output_head_v1_add_listener(proxy, OutputManagement.headListener.pointer, head.userData)
        },
        done: { data, _, serial in owner(data, as: OutputManagement.self).serial = serial },
        finished: { data, _ in owner(data, as: OutputManagement.self).serial = nil }
    ))

    private static let headListener = ListenerTable(zwlr_output_head_v1_listener(
        name: { data, _, name in owner(data, as: Head.self).name = String(cString: name!) },
        description: { _, _, _ in },
        physical_size: { _, _, _, _ in },
        mode: { data, _, proxy in
            let head = owner(data, as: Head.self)
            let mode = ModeProxy(proxy!, head: head)
            head.modes.append(mode)
            zwlr_output_mode_v1_add_listener(proxy, OutputManagement.modeListener.pointer, mode.userData)
        },
        enabled: { data, _, enabled in owner(data, as: Head.self).enabled = enabled != 0 },
        current_mode: { data, _, mode in owner(data, as: Head.self).current = mode },
        position: { _, _, _, _ in },
        transform: { _, _, _ in },
        scale: { _, _, _ in },
        finished: { data, _ in
            // The output is gone: its head and modes go with it.
            let head = owner(data, as: Head.self)
            head.owner.heads.removeAll { $0 === head }
            head.destroy()
        },
        make: { _, _, _ in },
        model: { _, _, _ in },
        serial_number: { _, _, _ in }
    ))

    private static let modeListener = ListenerTable(zwlr_output_mode_v1_listener(
        size: { data, _, width, height in
            let mode = owner(data, as: ModeProxy.self)
            mode.width = width
            mode.height = height
        },
        refresh: { data, _, refresh in owner(data, as: ModeProxy.self).refresh = refresh },
        preferred: { data, _ in owner(data, as: ModeProxy.self).preferred = true },
        finished: { data, _ in
            let mode = owner(data, as: ModeProxy.self)
            mode.head.forget(mode)
        }
    ))

    private static let configurationListener = ListenerTable(zwlr_output_configuration_v1_listener(
        succeeded: { data, _ in owner(data, as: OutputManagement.self).outcome = .succeeded },
        failed: { data, _ in owner(data, as: OutputManagement.self).outcome = .failed },
        cancelled: { data, _ in owner(data, as: OutputManagement.self).outcome = .cancelled }
    ))
}
