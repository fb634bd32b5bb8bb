import WaylandOutputs

/// Walks `--name value` and `--name=value` options one by one.
struct OptionReader {
    private var arguments: ArraySlice<String>
    private var inlineValue: String?
    let command: String

    init(_ arguments: [String], command: String) {
        self.arguments = arguments[...]
        self.command = command
    }

    /// The next option name, or nil at the end.
    mutating func next() throws(UsageError) -> String? {
        if let inlineValue { throw error("unexpected value '\(inlineValue)'") }
        guard let argument = arguments.popFirst() else { return nil }
        guard argument.hasPrefix("-"), argument.count > 1 else {
            throw error("unexpected argument '\(argument)' (options start with --)")
        }
        if argument.hasPrefix("--"), let eq = argument.firstIndex(of: "=") {
            inlineValue = String(argument[argument.index(after: eq)...])
            return String(argument[..<eq])
        }
        return argument
    }

    /// Rejects `--flag=value` for an option that takes no value.
    mutating func flag(_ option: String) throws(UsageError) {
        if let value = inlineValue { throw error("\(option) takes no value, not '\(value)'") }
    }

    /// The value of `option`, from `--option=value` or the next argument.
    mutating func value(for option: String) throws(UsageError) -> String {
        if let value = inlineValue {
            inlineValue = nil
            return value
        }
        guard let value = arguments.popFirst() else { throw error("\(option) needs a value") }
        return value
    }

    /// One of `choices`' words, for the value it stands for.
    mutating func choice<T>(for option: String, among choices: [(String, T)]) throws(UsageError) -> T {
        let value = try value(for: option)
        guard let found = choices.first(where: { $0.0 == value }) else {
            let words = choices.map(\.0)
            let listed = words.count > 1 ? words.dropLast().joined(separator: ", ") + " or " + words.last! : words.joined()
            throw error("\(option) must be \(listed), not '\(value)'")
        }
        return found.1
    }

    /// One of an enumeration's cases, by its raw value.
    mutating func choice<T: CaseIterable & RawRepresentable>(for option: String, _ type: T.Type) throws(UsageError) -> T
        where T.RawValue == String {
        try choice(for: option, among: T.allCases.map { ($0.rawValue, $0) })
    }

    mutating func name(for option: String) throws(UsageError) -> String {
        let value = try value(for: option)
        guard !value.isEmpty, !value.contains(","), !value.contains(where: \.isWhitespace) else {
            throw error("\(option) needs one output name, not '\(value)'")
        }
        return value
    }

    mutating func names(for option: String) throws(UsageError) -> [String] {
        let value = try value(for: option)
        let names = value.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard !names.isEmpty, names.allSatisfy({ !$0.isEmpty && !$0.contains(where: \.isWhitespace) }) else {
            throw error("\(option) needs output names separated by commas, not '\(value)'")
        }
        var seen = Set<String>()
        for name in names where !seen.insert(name).inserted {
            throw error("\(option) names \(name) twice")
        }
        return names
    }

    /// The most seconds any option takes (about 31 years): a time this long, in
    /// nanoseconds, still adds to the monotonic clock without overflow.
    static let maximumSeconds: Double = 1_000_000_000

    mutating func seconds(for option: String, allowZero: Bool) throws(UsageError) -> Double {
        let value = try value(for: option)
        guard let seconds = Double(value), seconds.isFinite, allowZero ? seconds >= 0 : seconds > 0,
              seconds <= OptionReader.maximumSeconds else {
            let bound = allowZero ? "0 or more" : "more than 0"
            throw error("\(option) needs a number of seconds, \(bound) and at most 1000000000, not '\(value)'")
        }
        return seconds
    }

    /// The next argument as [HOST:]PORT, where a server listens (``ListenAddress``).
    mutating func listenAddress(for option: String) throws(UsageError) -> ListenAddress {
        let value = try value(for: option)
        guard let address = ListenAddress(value) else {
            throw error("\(option) needs [HOST:]PORT (HOST an IPv4 or [IPv6] address, PORT 0 to 65535), not '\(value)'")
        }
        return address
    }

    mutating func path(for option: String) throws(UsageError) -> String {
        let value = try value(for: option)
        guard !value.isEmpty else { throw error("\(option) needs a path") }
        return value
    }

    /// NAME=MS: an output name and a number of milliseconds, 0 to 10000.
    mutating func stall(for option: String) throws(UsageError) -> (String, Double) {
        let value = try value(for: option)
        let parts = value.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty, !parts[0].contains(","),
              let milliseconds = Double(parts[1]), milliseconds.isFinite, milliseconds >= 0, milliseconds <= 10_000
        else { throw error("\(option) needs NAME=MS (an output and 0 to 10000 milliseconds), not '\(value)'") }
        return (parts[0], milliseconds)
    }

    /// [NAME=]FPS: an optional output name and a rate above 0 ("" for every output).
    mutating func rate(for option: String) throws(UsageError) -> (String, Double) {
        let value = try value(for: option)
        let parts = value.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let name = parts.count == 2 ? parts[0] : ""
        guard parts.count == 1 || !name.isEmpty, let rate = Double(parts.last!), rate.isFinite, rate > 0, rate <= 1000
        else { throw error("\(option) needs [NAME=]FPS (frames per second, above 0 and at most 1000), not '\(value)'") }
        return (name, rate)
    }

    /// [NAME=]VALUE: the output name ("" for every output) and the value.
    /// [NAME=]FILE: a NAME has no "/" in it, so a path with "=" stays a path.
    mutating func content(for option: String) throws(UsageError) -> (String, String) {
        let value = try value(for: option)
        if let eq = value.firstIndex(of: "="), !value[..<eq].contains("/") {
            let name = String(value[..<eq]), path = String(value[value.index(after: eq)...])
            guard !name.isEmpty, !path.isEmpty else { throw error("\(option) needs [NAME=]FILE, not '\(value)'") }
            return (name, path)
        }
        guard !value.isEmpty else { throw error("\(option) needs [NAME=]FILE") }
        return ("", value)
    }

    mutating func perOutput(for option: String) throws(UsageError) -> (String, String) {
        let value = try value(for: option)
        guard let eq = value.firstIndex(of: "=") else { return ("", value) }
        let name = String(value[..<eq]), rest = String(value[value.index(after: eq)...])
        guard !name.isEmpty, !rest.isEmpty else { throw error("\(option) needs [NAME=]VALUE, not '\(value)'") }
        return (name, rest)
    }

    /// none | scale[:PCT] | inset[:T,R,B,L] (or one percentage for every edge).
    func overscan(_ value: String) throws(UsageError) -> Overscan {
        let parts = value.split(separator: ":", maxSplits: 1).map(String.init)
        switch parts.first {
        case "none" where parts.count == 1:
            return .none
        case "scale":
            guard parts.count == 1 else {
                guard let percent = Double(parts[1]), percent >= 0, percent < 100 else { break }
                return .scale(percent: percent)
            }
            return .scale(percent: 10)
        case "inset":
            guard parts.count == 2 else { return .inset(Insets(all: 5)) }
            if let all = Double(parts[1]), all >= 0, all < 50 { return .inset(Insets(all: all)) }
            if let insets = OptionReader.insets(parts[1]), insets.left + insets.right < 100, insets.top + insets.bottom < 100 {
                return .inset(insets)
            }
        default:
            break
        }
        throw error("--overscan needs [NAME=]none, scale[:PCT] (0 to under 100 percent) or inset[:T,R,B,L] "
                    + "(percent, 0 or more, each pair of opposite edges under 100), not '\(value)'")
    }

    /// [NAME=]MM, [NAME=]T,R,B,L, each with an optional px suffix (points).
    mutating func bezel(for option: String) throws(UsageError) -> (String, BezelRequest) {
        let (name, value) = try perOutput(for: option)
        guard let request = BezelRequest(value) else {
            throw error("\(option) needs [NAME=]MM or [NAME=]T,R,B,L in millimetres, or in points with a px suffix "
                        + "(0 to \(Bezel.maximum) each), not '\(name.isEmpty ? value : name + "=" + value)'")
        }
        return (name, request)
    }

    /// A machine's name in a wall: 1 to 255 characters, no spaces or control characters.
    mutating func machine(for option: String) throws(UsageError) -> String {
        let value = try value(for: option)
        guard !value.isEmpty, value.utf8.count <= 255,
              !value.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F })
        else { throw error("\(option) needs a machine name (1 to 255 characters, no spaces), not '\(value)'") }
        return value
    }

    /// T,R,B,L as four numbers, 0 or more.
    static func insets(_ text: String) -> Insets? {
        let values = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
        guard values.count == 4, values.allSatisfy({ $0 != nil && $0!.isFinite && $0! >= 0 }) else { return nil }
        return Insets(top: values[0]!, right: values[1]!, bottom: values[2]!, left: values[3]!)
    }

    func unknown(_ option: String) -> UsageError {
        error("unknown option \(option) for 'glout \(command)'")
    }

    func error(_ message: String) -> UsageError {
        UsageError(message: message, command: command)
    }
}
