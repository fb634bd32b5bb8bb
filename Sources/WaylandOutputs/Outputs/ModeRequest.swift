/// A mode asked for by name (preferred, current, highest, lowest) or size, with a refresh
/// or not. Resolved against an output's modes with ``resolve(in:allowCustom:)``.
package enum ModeRequest: Sendable, Equatable, CustomStringConvertible {
    case preferred, current, highest, lowest
    /// A size, with a refresh in mHz when one was given.
    case size(Size, refreshMilliHertz: Int32?)

    package var description: String {
        switch self {
        case .preferred: "preferred"
        case .current: "current"
        case .highest: "highest"
        case .lowest: "lowest"
        case let .size(size, refresh?): OutputMode(size: size, refreshMilliHertz: refresh).description
        case let .size(size, nil): "\(size)"
        }
    }

    /// The output's mode this request names. A size the output does not list is an error
    /// (naming the modes it does list) unless `allowCustom`, which makes a custom mode.
    package func resolve(in output: Output, allowCustom: Bool = false) throws -> OutputMode {
        let modes = output.modes
        func missing() -> ModeError { ModeError(request: self, output: output.name, available: modes) }
        switch self {
        case .preferred:
            guard let mode = output.preferredMode ?? output.currentMode else { throw missing() }
            return mode
        case .current:
            guard let mode = output.currentMode else { throw missing() }
            return mode
        case .highest:
            guard let mode = modes.last else { throw missing() }
            return mode
        case .lowest:
            guard let mode = modes.first else { throw missing() }
            return mode
        case let .size(size, refresh):
            if let mode = modes.named(size, refreshMilliHertz: refresh) { return mode }
            guard allowCustom else { throw missing() }
            return OutputMode(size: size, refreshMilliHertz: refresh ?? 0)
        }
    }
}

/// A mode request that an output cannot satisfy.
package struct ModeError: Error, Equatable, CustomStringConvertible {
    package let request: ModeRequest
    package let output: String
    package let available: [OutputMode]

    package var description: String {
        let list = available.isEmpty ? "it lists no modes" : "it offers " + available.map(\.description).joined(separator: ", ")
        return "output \(output) has no mode \(request): \(list)"
    }
}

extension OutputMode {
    /// Lowest to highest: fewer pixels first, then lower refresh.
    package static func lowToHigh(_ a: OutputMode, _ b: OutputMode) -> Bool {
        let pa = Int64(a.size.width) * Int64(a.size.height), pb = Int64(b.size.width) * Int64(b.size.height)
        if pa != pb { return pa < pb }
        if a.size.width != b.size.width { return a.size.width < b.size.width }
        return a.refreshMilliHertz < b.refreshMilliHertz
    }
}
