/// An event about one output, as wl_output and zxdg_output_v1 deliver them. Recorded
/// sequences of these drive ``OutputState`` in tests exactly as the compositor does.
enum OutputProtocolEvent: Sendable, Equatable {
    case geometry(physicalWidth: Int32, physicalHeight: Int32, subpixel: Int32,
                  make: String, model: String, transform: Int32)
    case mode(flags: UInt32, width: Int32, height: Int32, refresh: Int32)
    case scale(Int32)
    case name(String)
    case description(String)
    /// wl_output.done: the compositor has sent every property of a change.
    case done
    case logicalPosition(x: Int32, y: Int32)
    case logicalSize(width: Int32, height: Int32)
    case xdgName(String)
    case xdgDescription(String)
    /// zxdg_output_v1.done (versions 1 and 2; from version 3 wl_output.done covers it).
    case xdgDone
}

/// Accumulates one output's events and publishes a complete ``Output`` on `done`,
/// the way smithay-client-toolkit does: nothing half-changed is ever published.
struct OutputState: Sendable {
    let id: UInt32
    /// The bound zxdg_output_v1 version, nil while the output has no xdg-output.
    private(set) var xdgVersion: UInt32?
    /// The last published description; nil until the first complete `done`.
    private(set) var published: Output?

    /// What xdg-output says; each field stays nil until the compositor sends it.
    private struct XdgFields: Sendable {
        var position: (x: Int32, y: Int32)?
        var size: (width: Int32, height: Int32)?
        /// The compositor sent a logical size out of range: derive it as without xdg-output.
        var derivesSize = false
        var name: String?
        var description: String?

        mutating func merge(_ newer: XdgFields) {
            position = newer.position ?? position
            if newer.derivesSize {
                size = nil
                derivesSize = true
            } else if let newerSize = newer.size {
                size = newerSize
                derivesSize = false
            }
            name = newer.name ?? name
            description = newer.description ?? description
        }
    }

    private var pending: Output
    private var committed: Output?
    /// Values out of range met since ``takeProblems()`` (see ``CompositorValues``).
    private var problems: [CompositorValues.Problem] = []
    private var pendingXdg = XdgFields()
    private var committedXdg = XdgFields()

    init(id: UInt32) {
        self.id = id
        pending = Output(id: id, name: "")
    }

    /// Declares that an xdg-output exists for this output: its logical geometry must
    /// arrive before the first publication.
    mutating func expectXdgOutput(version: UInt32) {
        xdgVersion = version
    }

    /// The name the compositor gave so far (wl_output.name, else xdg_output.name), if any.
    var pendingName: String? {
        if !pending.name.isEmpty { return pending.name }
        return pendingXdg.name ?? committedXdg.name
    }

    /// The values out of range met since the last call, for the owner to report.
    mutating func takeProblems() -> [CompositorValues.Problem] {
        defer { problems.removeAll() }
        return problems
    }

    /// The checked value; its problem, if any, is kept for ``takeProblems()``.
    private mutating func checked<T>(_ checked: CompositorValues.Checked<T>) -> T {
        if let problem = checked.problem { problems.append(problem) }
        return checked.value
    }

    /// Applies one event. Returns the new description when this event completes a
    /// change (it differs from the last one published), else nil. Every value is checked
    /// (``CompositorValues``) before it is kept.
    mutating func apply(_ event: OutputProtocolEvent) -> Output? {
        switch event {
        case let .geometry(pw, ph, subpixel, make, model, transform):
            pending.physicalSize = checked(CompositorValues.physicalSize(width: pw, height: ph))
            pending.subpixel = checked(CompositorValues.subpixel(subpixel))
            pending.make = make
            pending.model = model
            pending.transform = checked(CompositorValues.transform(transform))
        case let .mode(flags, width, height, refresh):
            guard let size = checked(CompositorValues.mode(width: width, height: height)) else { return nil }
            var mode = OutputMode(size: size, refreshMilliHertz: checked(CompositorValues.refresh(refresh)),
                                  isCurrent: flags & 0x1 != 0, isPreferred: flags & 0x2 != 0)
            if mode.isCurrent {
                for i in pending.modes.indices { pending.modes[i].isCurrent = false }
            }
            if let i = pending.modes.firstIndex(where: { $0.sameTiming(as: mode) }) {
                mode.isPreferred = mode.isPreferred || pending.modes[i].isPreferred
                pending.modes[i] = mode
            } else {
                pending.modes.append(mode)
            }
        case .scale(let scale):
            pending.scale = checked(CompositorValues.scale(scale))
        case .name(let name):
            pending.name = name
        case .description(let description):
            pending.description = description
        case .done:
            committed = pending
            // From xdg-output version 3 on, wl_output.done also completes its changes.
            if (xdgVersion ?? 0) >= 3 { commitXdg() }
            return publishIfComplete()
        case let .logicalPosition(x, y):
            if let position = checked(CompositorValues.logicalPosition(x: x, y: y)) { pendingXdg.position = (position.x, position.y) }
        case let .logicalSize(width, height):
            if let size = checked(CompositorValues.logicalSize(width: width, height: height)) {
                pendingXdg.size = (size.width, size.height)
            } else {
                pendingXdg.derivesSize = true
            }
        case .xdgName(let name):
            pendingXdg.name = name
        case .xdgDescription(let description):
            pendingXdg.description = description
        case .xdgDone:
            commitXdg()
            return publishIfComplete()
        }
        return nil
    }

    private mutating func commitXdg() {
        committedXdg.merge(pendingXdg)
        pendingXdg = XdgFields()
    }

    private mutating func publishIfComplete() -> Output? {
        guard var output = committed else { return nil }
        if xdgVersion != nil {
            if let size = committedXdg.size {
                output.logicalFrame.width = size.width
                output.logicalFrame.height = size.height
            } else if committedXdg.derivesSize {
                output.deriveLogicalSize()
            } else {
                return nil
            }
            if let position = committedXdg.position {
                output.logicalFrame.x = position.x
                output.logicalFrame.y = position.y
            }
            // wl_output.name and .description (version 4) win over xdg-output's.
            if output.name.isEmpty, let name = committedXdg.name { output.name = name }
            if output.description.isEmpty, let description = committedXdg.description {
                output.description = description
            }
        } else {
            output.deriveLogicalSize()
        }
        if output.name.isEmpty { output.name = "wl_output-\(id)" }
        output.modes.sort(by: OutputMode.lowToHigh)
        guard output != published else { return nil }
        published = output
        return output
    }
}

extension Output {
    /// Without xdg-output: the current mode, turned by the transform, divided by the scale.
    /// Without a current mode, 0x0 (the window then takes the size its configure gives).
    mutating func deriveLogicalSize() {
        guard let mode = currentMode else { return }
        let size = transform.swapsAxes ? mode.size.transposed : mode.size
        logicalFrame.width = max(1, size.width / max(1, scale))
        logicalFrame.height = max(1, size.height / max(1, scale))
    }
}
