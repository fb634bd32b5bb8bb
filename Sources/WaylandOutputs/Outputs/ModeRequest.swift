/// A mode asked for by name or size: `preferred`, `current`, `highest`, `lowest`, or
/// `WxH[@HZ]`. Resolved against an output's modes with ``resolve(in:allowCustom:)``.
public enum ModeRequest: Sendable, Equatable, CustomStringConvertible {
    case preferred, current, highest, lowest
    /// A size, with a refresh in mHz when one was given.
    case size(Size, refreshMilliHertz: Int32?)

    /// Parses "preferred", "1024x768" or "1024x768@60" (Hz, decimals allowed).
    public init?(_ text: String) {
        switch text {
        case "preferred": self = .preferred
        case "current": self = .current
        case "highest": self = .highest
        case "lowest": self = .lowest
        default:
            let parts = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
            let size = parts[0].split(separator: "x", omittingEmptySubsequences: false)
            guard size.count == 2, let w = Int32(size[0]), let h = Int32(size[1]), w > 0, h > 0, w <= 16384, h <= 16384
            else { return nil }
            var refresh: Int32?
            if parts.count == 2 {
                let hz = parts[1].hasSuffix("Hz") ? parts[1].dropLast(2) : parts[1]
                guard let value = Double(hz), value > 0, value <= 1000 else { return nil }
                refresh = Int32((value * 1000).rounded())
            }
            self = .size(Size(width: w, height: h), refreshMilliHertz: refresh)
        }
    }

    public var description: String {
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
    public func resolve(in output: Output, allowCustom: Bool = false) throws -> OutputMode {
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
public struct ModeError: Error, Equatable, CustomStringConvertible {
    public let request: ModeRequest
    public let output: String
    public let available: [OutputMode]

    public var description: String {
        let list = available.isEmpty ? "it lists no modes" : "it offers " + available.map(\.description).joined(separator: ", ")
        return "output \(output) has no mode \(request): \(list)"
    }
}

extension OutputMode {
    /// Lowest to highest: fewer pixels first, then lower refresh.
    public static func lowToHigh(_ a: OutputMode, _ b: OutputMode) -> Bool {
        let pa = Int64(a.size.width) * Int64(a.size.height), pb = Int64(b.size.width) * Int64(b.size.height)
        if pa != pb { return pa < pb }
        if a.size.width != b.size.width { return a.size.width < b.size.width }
        return a.refreshMilliHertz < b.refreshMilliHertz
    }
}
