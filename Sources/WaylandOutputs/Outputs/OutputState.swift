/// An event about one output, as wl_output and zxdg_output_v1 deliver them. Recorded
/// sequences of these drive ``OutputState`` in tests exactly as the compositor does.
enum OutputEvent: Sendable, Equatable {
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
        var name: String?
        var description: String?

        mutating func merge(_ newer: XdgFields) {
            position = newer.position ?? position
            size = newer.size ?? size
            name = newer.name ?? name
            description = newer.description ?? description
        }
    }

    private var pending: Output
    private var committed: Output?
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

    /// Applies one event. Returns the new description when this event completes a
    /// change (it differs from the last one published), else nil.
    mutating func apply(_ event: OutputEvent) -> Output? {
        switch event {
        case let .geometry(pw, ph, subpixel, make, model, transform):
            pending.physicalSize = Size(width: pw, height: ph)
            pending.subpixel = Subpixel(rawValue: subpixel) ?? .unknown
            pending.make = make
            pending.model = model
            pending.transform = OutputTransform(rawValue: transform) ?? .normal
        case let .mode(flags, width, height, refresh):
            var mode = OutputMode(size: Size(width: width, height: height), refreshMilliHertz: refresh,
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
            pending.scale = max(1, scale)
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
            pendingXdg.position = (x, y)
        case let .logicalSize(width, height):
            pendingXdg.size = (width, height)
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
            guard let size = committedXdg.size else { return nil }
            output.logicalFrame.width = size.width
            output.logicalFrame.height = size.height
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
    mutating func deriveLogicalSize() {
        guard let mode = currentMode else { return }
        let size = transform.swapsAxes ? mode.size.transposed : mode.size
        logicalFrame.width = size.width / max(1, scale)
        logicalFrame.height = size.height / max(1, scale)
    }
}
