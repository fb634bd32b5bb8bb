import CWayland

/// Owns one output's wl_output and zxdg_output_v1 proxies and feeds their events to
/// an ``OutputState``. Lives on the main queue.
final class OutputProxy: ProxyOwner {
    let id: UInt32
    let output: OpaquePointer
    let version: UInt32
    private(set) var xdgOutput: OpaquePointer?
    private(set) var state: OutputState
    /// Called with each new complete description.
    var published: ((Output) -> Void)?
    /// Windows holding this proxy (``OutputLease``).
    var leases = 0

    private let log: Log
    private var complaints = CompositorComplaints()

    init(id: UInt32, output: OpaquePointer, version: UInt32, log: Log) {
        self.id = id
        self.output = output
        self.version = version
        self.log = log
        state = OutputState(id: id)
        wl_output_add_listener(output, OutputProxy.outputListener.pointer, userData)
    }

    /// Asks xdg-output for the logical geometry (zxdg_output_manager_v1.get_xdg_output).
    func attachXdgOutput(manager: OpaquePointer, version: UInt32) {
        guard xdgOutput == nil else { return }
        xdgOutput = zxdg_output_manager_v1_get_xdg_output(manager, output)
        zxdg_output_v1_add_listener(xdgOutput, OutputProxy.xdgListener.pointer, userData)
        state.expectXdgOutput(version: version)
    }

    /// Releases the proxies in reverse order of creation: xdg-output, then wl_output
    /// (wl_output.release from version 3, else a local destroy).
    func destroy() {
        if let xdgOutput { zxdg_output_v1_destroy(xdgOutput) }
        xdgOutput = nil
        if version >= 3 { wl_output_release(output) } else { wl_output_destroy(output) }
    }

    private func handle(_ event: OutputProtocolEvent) {
        let output = state.apply(event)
        let problems = state.takeProblems()
        if !problems.isEmpty {
            let subject = "output " + Log.printable(output?.name ?? state.published?.name ?? state.pendingName ?? "wl_output \(id)")
            for problem in problems { complaints.report(problem, about: subject, log: log) }
        }
        if let output { published?(output) }
    }

    static let outputListener = ListenerTable(wl_output_listener()) {
        $0.geometry = { data, _, _, _, pw, ph, subpixel, make, model, transform in
            owner(data, as: OutputProxy.self).handle(.geometry(
                physicalWidth: pw, physicalHeight: ph, subpixel: subpixel,
                make: make.map { String(cString: $0) } ?? "", model: model.map { String(cString: $0) } ?? "",
                transform: transform))
        }
        $0.mode = { data, _, flags, width, height, refresh in
            owner(data, as: OutputProxy.self).handle(.mode(flags: flags, width: width, height: height, refresh: refresh))
        }
        $0.done = { data, _ in owner(data, as: OutputProxy.self).handle(.done) }
        $0.scale = { data, _, factor in owner(data, as: OutputProxy.self).handle(.scale(factor)) }
        $0.name = { data, _, name in owner(data, as: OutputProxy.self).handle(.name(String(cString: name!))) }
        $0.description = { data, _, text in
            owner(data, as: OutputProxy.self).handle(.description(String(cString: text!)))
        }
    }

    private static let xdgListener = ListenerTable(zxdg_output_v1_listener(
        logical_position: { data, _, x, y in owner(data, as: OutputProxy.self).handle(.logicalPosition(x: x, y: y)) },
        logical_size: { data, _, w, h in owner(data, as: OutputProxy.self).handle(.logicalSize(width: w, height: h)) },
        done: { data, _ in owner(data, as: OutputProxy.self).handle(.xdgDone) },
        name: { data, _, name in owner(data, as: OutputProxy.self).handle(.xdgName(String(cString: name!))) },
        description: { data, _, text in
            owner(data, as: OutputProxy.self).handle(.xdgDescription(String(cString: text!)))
        }
    ))
}
