import CWayland
import Dispatch

/// An output's power: lit, or off (its screen dark).
package enum PowerMode: UInt32, Sendable, Equatable, CustomStringConvertible {
    case off = 0
    case on = 1

    package var description: String { self == .on ? "on" : "off" }
}

/// How a request to turn an output off or on ended.
package enum PowerOutcome: Sendable, Equatable, CustomStringConvertible {
    /// The compositor reports the output in the mode asked for.
    case applied
    /// The compositor offers no zwlr_output_power_manager_v1.
    case unavailable
    /// The compositor ended the control (its failed event): this output cannot be powered
    /// this way, or another client holds its power.
    case refused
    /// The compositor answered, but the output's mode is not the one asked for (sway 1.7
    /// cannot turn its headless outputs off); the mode it reports, if any.
    case unchanged(PowerMode?)

    package var description: String {
        switch self {
        case .applied: "applied"
        case .unavailable: "the compositor does not offer wlr-output-power-management"
        case .refused: "the compositor refused it (wlr-output-power-management's failed)"
        case .unchanged(let mode): "the compositor left the output \(mode.map { "\($0)" } ?? "as it was") (wlr-output-power-management)"
        }
    }
}

/// Turns outputs off and on through wlr-output-power-management (zwlr_output_power_v1),
/// with a control per output made on first use. A request never waits: it is answered on
/// the session's thread when the output's mode event reports the mode asked for (applied)
/// or the control fails (refused); otherwise a second after a wl_display.sync sent behind
/// it came back (unchanged). sway 1.10 reports the new mode only after the sync: it turns
/// the output off at its next commit.
final class OutputPower: ProxyOwner {
    /// One output's control and what the compositor last said of it.
    private final class Control: ProxyOwner {
        let proxy: OpaquePointer
        weak var owner: OutputPower?
        var mode: PowerMode?
        var failed = false
        init(_ proxy: OpaquePointer, owner: OutputPower) { (self.proxy, self.owner) = (proxy, owner) }
    }

    /// A request whose sync has not come back yet.
    private final class Pending: ProxyOwner {
        let callback: OpaquePointer
        let control: Control
        let mode: PowerMode
        let done: (PowerOutcome) -> Void
        unowned let owner: OutputPower
        /// The sync came back (its callback destroyed).
        var synced = false
        init(callback: OpaquePointer, control: Control, mode: PowerMode, owner: OutputPower, done: @escaping (PowerOutcome) -> Void) {
            (self.callback, self.control, self.mode, self.owner, self.done) = (callback, control, mode, owner, done)
        }
    }

    /// How long after its sync a request waits for the mode event.
    static let patience: Duration = .seconds(1)

    private let connection: Connection
    private let display: OpaquePointer
    private let manager: OpaquePointer
    private var controls: [UInt32: Control] = [:]
    private var pending: [ObjectIdentifier: Pending] = [:]

    init(connection: Connection, manager: OpaquePointer) {
        self.connection = connection
        display = connection.display
        self.manager = manager
    }

    deinit {
        for request in pending.values where !request.synced { wl_callback_destroy(request.callback) }
        for control in controls.values { zwlr_output_power_v1_destroy(control.proxy) }
        zwlr_output_power_manager_v1_destroy(manager)
    }

    /// Asks for `mode` on output `id`, whose wl_output is `output`; `done` runs on the
    /// session's thread with the compositor's answer.
    func set(_ mode: PowerMode, id: UInt32, output: OpaquePointer, done: @escaping (PowerOutcome) -> Void) {
        let control = controls[id] ?? makeControl(id: id, output: output)
        guard !control.failed else { return done(.refused) }
        zwlr_output_power_v1_set_mode(control.proxy, mode.rawValue)
        let callback = wl_display_sync(display)!
        let request = Pending(callback: callback, control: control, mode: mode, owner: self, done: done)
        pending[ObjectIdentifier(request)] = request
        wl_callback_add_listener(callback, OutputPower.syncListener.pointer, request.userData)
        settle(control)
    }

    /// The output left: its control goes (a request still waiting ends as refused).
    func forget(_ id: UInt32) {
        guard let control = controls.removeValue(forKey: id) else { return }
        control.failed = true
        zwlr_output_power_v1_destroy(control.proxy)
        settle(control)
    }

    private func makeControl(id: UInt32, output: OpaquePointer) -> Control {
        let control = Control(zwlr_output_power_manager_v1_get_output_power(manager, output)!, owner: self)
        zwlr_output_power_v1_add_listener(control.proxy, OutputPower.controlListener.pointer, control.userData)
        controls[id] = control
        return control
    }

    /// Answers the requests on `control` that its state settles: the mode asked for, or failed.
    private func settle(_ control: Control) {
        for request in pending.values where request.control === control {
            if control.failed {
                answer(request, .refused)
            } else if control.mode == request.mode {
                answer(request, .applied)
            }
        }
    }

    private func answer(_ request: Pending, _ outcome: PowerOutcome) {
        guard pending.removeValue(forKey: ObjectIdentifier(request)) != nil else { return }
        if !request.synced { wl_callback_destroy(request.callback) }
        request.done(outcome)
    }

    /// The sync behind a request came back: answered now if settled, else after ``patience``.
    private func synced(_ request: Pending) {
        wl_callback_destroy(request.callback)
        request.synced = true
        settle(request.control)
        guard pending[ObjectIdentifier(request)] != nil else { return }
        let key = ObjectIdentifier(request), owner = SessionThreadReference(self)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(OutputPower.patience.inNanoseconds))) {
            [weak connection] in
            connection?.onMainThread {
                guard let power = owner.value, let request = power.pending[key] else { return }
                power.answer(request, .unchanged(request.control.mode))
            }
        }
    }

    private static let controlListener = ListenerTable(zwlr_output_power_v1_listener(
        mode: { data, _, mode in
            let control = owner(data, as: Control.self)
            // A value outside the enum is no mode this library knows.
            control.mode = PowerMode(rawValue: mode)
            control.owner?.settle(control)
        },
        failed: { data, _ in
            let control = owner(data, as: Control.self)
            control.failed = true
            control.owner?.settle(control)
        }
    ))

    private static let syncListener = ListenerTable(wl_callback_listener(
        done: { data, _, _ in
            let request = owner(data, as: Pending.self)
            request.owner.synced(request)
        }
    ))
}

/// A weak reference to an object of the session's thread, carried through another thread
/// and used only back on the session's thread.
private final class SessionThreadReference<Object: AnyObject>: @unchecked Sendable {
    weak var value: Object?
    init(_ value: Object) { self.value = value }
}
