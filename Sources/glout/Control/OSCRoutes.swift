/// One argument of an OSC message, as glout reads it.
enum OSCArgument: Equatable, Sendable {
    case string(String)
    case integer(Int64)
    /// A 32-bit float (f).
    case real(Double)
    /// A 64-bit double (d).
    case double(Double)
    /// Any other type, by its type tag (T, F, N, I, b, t, c, m...).
    case other(Character)

    /// Its OSC type tag, for errors.
    var tag: Character {
        switch self {
        case .string: "s"
        case .integer: "i"
        case .real: "f"
        case .double: "d"
        case .other(let tag): tag
        }
    }
}

/// The OSC addresses of the control API, under /glout/, to the same commands as HTTP's
/// routes. Pure.
enum OSCRoutes {
    static let prefix = "/glout"

    /// Every address, for errors and documents.
    static let addresses = ["/glout/outputs", "/glout/status", "/glout/content", "/glout/outputs/NAME/content",
                            "/glout/layout", "/glout/primary", "/glout/show", "/glout/identify", "/glout/cue", "/glout/cue/layout",
                            "/glout/cue/primary", "/glout/cues", "/glout/cues/cancel", "/glout/events"]

    /// Where every answer goes, to the sender: the request's address, the HTTP status
    /// and the JSON body (the HTTP API's).
    static let replyAddress = "/glout/reply"

    /// /glout/events ,i SECONDS or ,ii SECONDS MISSED: the sender gets the events for that
    /// long (0 to 3600 s; 0: no more), refreshes-missed only for MISSED refreshes or more
    /// (default 1). Nil for any other address; an error for other arguments.
    static func subscription(path: String, arguments: [OSCArgument]) throws(ControlError) -> (seconds: Int, missedThreshold: Int)? {
        guard path == prefix + "/events" else { return nil }
        let shape = "/glout/events takes ,i SECONDS (0 to \(OSCSubscriptions.longest)) or ,ii SECONDS MISSED (1 to 1000000)"
        var values: [Int64] = []
        for argument in arguments {
            guard case .integer(let value) = argument else { throw ControlError(400, shape) }
            values.append(value)
        }
        guard (1...2).contains(values.count), (0...Int64(OSCSubscriptions.longest)).contains(values[0]),
              values.count == 1 || (1...1_000_000).contains(values[1]) else {
            throw ControlError(400, shape)
        }
        return (Int(values[0]), values.count == 2 ? Int(values[1]) : 1)
    }

    /// /glout/cue/layout ,ds AT LAYOUT and /glout/cue/primary ,ds AT OUTPUT: a cue that
    /// changes the layout or the primary (POST /api/v1/cues with that one action); nil for
    /// any other address.
    private static func cueChange(path: String, arguments: [OSCArgument], tags: String) throws(ControlError) -> ControlCommand? {
        let layout: Bool
        switch path {
        case prefix + "/cue/layout": layout = true
        case prefix + "/cue/primary": layout = false
        default: return nil
        }
        let shape = "\(path) takes ,ds AT \(layout ? "LAYOUT" : "OUTPUT"), AT seconds since 1970 as a double (or an integer); not \(tags)"
        guard arguments.count == 2, case .string(let text) = arguments[1] else { throw ControlError(400, shape) }
        let at = try cueTime(arguments[0], path: path, shape: shape)
        let value = try ControlRoutes.checked(text, name: "argument 2", in: path)
        guard layout else { return .addCue(at: at, actions: [], changes: CueChanges(primary: value)) }
        guard let mode = LayoutMode(rawValue: value) else {
            throw ControlError(400, "\(path): layout \(ControlRoutes.quoted(value)) is none of "
                               + LayoutMode.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return .addCue(at: at, actions: [], changes: CueChanges(layout: mode))
    }

    /// /glout/cue ,ds AT FILE or ,dss AT OUTPUT FILE: a cue of one file, on every output or one.
    private static func fileCue(path: String, arguments: [OSCArgument], tags: String) throws(ControlError) -> ControlCommand {
        let shape = "/glout/cue takes ,ds (AT FILE) or ,dss (AT OUTPUT FILE), AT seconds since 1970 as a double; not \(tags)"
        let at = try cueTime(arguments.first, path: path, shape: shape)
        let rest = arguments.dropFirst()
        guard (1...2).contains(rest.count) else { throw ControlError(400, shape) }
        var values: [String] = []
        for (index, argument) in rest.enumerated() {
            guard case .string(let text) = argument else { throw ControlError(400, shape) }
            values.append(try ControlRoutes.checked(text, name: "argument \(index + 2)", in: path))
        }
        return .addCue(at: at, actions: [CueAction(output: values.count == 2 ? values[0] : nil, file: values[values.count - 1])])
    }

    /// A cue's AT: a double (a float is too coarse for seconds since 1970), or a 64- or
    /// 32-bit integer; at most a year ahead.
    private static func cueTime(_ argument: OSCArgument?, path: String, shape: String) throws(ControlError) -> Double {
        let at: Double
        switch argument {
        case .double(let value): at = value
        case .integer(let value): at = Double(value)
        default: throw ControlError(400, shape)
        }
        try ControlRoutes.checkCueTime(at, in: path)
        return at
    }

    /// The command of a message, or why it is refused (404 no such address, 400 arguments
    /// that are not the address's).
    static func command(path: String, arguments: [OSCArgument]) throws(ControlError) -> ControlCommand {
        let strings = arguments.map { argument -> String? in
            if case .string(let text) = argument { return text }
            return nil
        }
        let tags = "," + String(arguments.map(\.tag))
        if let cue = try cueChange(path: path, arguments: arguments, tags: tags) { return cue }
        func take(_ count: Int, _ shape: String) throws(ControlError) -> [String] {
            guard strings.count == count, !strings.contains(where: { $0 == nil }) else {
                throw ControlError(400, "\(ControlRoutes.quoted(path)) takes \(shape), not \(tags)")
            }
            var values: [String] = []
            for (index, text) in strings.enumerated() {
                values.append(try ControlRoutes.checked(text ?? "", name: "argument \(index + 1)", in: path))
            }
            return values
        }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        switch parts {
        case ["", "glout", "outputs"]:
            _ = try take(0, "no arguments")
            return .outputs
        case ["", "glout", "status"]:
            _ = try take(0, "no arguments")
            return .status
        case ["", "glout", "content"]:
            if arguments.count == 2 {
                let values = try take(2, ",s (FILE) or ,ss (OUTPUT FILE)")
                return .setContent(output: values[0], file: values[1])
            }
            return .setContent(output: nil, file: try take(1, ",s (FILE) or ,ss (OUTPUT FILE)")[0])
        case let parts where parts.count == 5 && parts[0].isEmpty && parts[1] == "glout" && parts[2] == "outputs"
            && parts[4] == "screenshot" && !parts[3].isEmpty:
            throw ControlError(404, "\(ControlRoutes.quoted(path)): a screenshot does not fit a datagram; "
                               + "GET /api/v1/outputs/\(parts[3])/screenshot over HTTP")
        case let parts where parts.count == 5 && parts[0].isEmpty && parts[1] == "glout" && parts[2] == "outputs"
            && parts[4] == "content" && !parts[3].isEmpty:
            return .setContent(output: parts[3], file: try take(1, ",s (FILE)")[0])
        case ["", "glout", "layout"]:
            let name = try take(1, ",s (independent, mirror or span)")[0]
            guard let layout = LayoutMode(rawValue: name) else {
                throw ControlError(400, "\(path): layout \(ControlRoutes.quoted(name)) is none of "
                                   + LayoutMode.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return .setLayout(layout)
        case ["", "glout", "primary"]:
            return .setPrimary(try take(1, ",s (OUTPUT)")[0])
        case ["", "glout", "show"]:
            return .setShow(try take(1, ",s (FILE)")[0])
        case ["", "glout", "identify"]:
            // A controller's button sends a number (1 pressed, 0 released): either shows the names.
            let number: Bool = switch arguments.first {
            case .integer, .real, .double: true
            default: false
            }
            guard arguments.isEmpty || (arguments.count == 1 && number) else {
                throw ControlError(400, "/glout/identify takes no arguments, or one number; not \(tags)")
            }
            return .identify
        case ["", "glout", "cue"]:
            return try fileCue(path: path, arguments: arguments, tags: tags)
        case ["", "glout", "cues"]:
            _ = try take(0, "no arguments")
            return .listCues
        case ["", "glout", "cues", "cancel"]:
            switch (arguments.count, arguments.first) {
            case (0, _): return .cancelCues(nil)
            case (1, .integer(let id)) where id > 0 && id <= Int64(Int32.max): return .cancelCues(Int(id))
            default: throw ControlError(400, "/glout/cues/cancel takes no arguments (every cue) or ,i ID; not \(tags)")
            }
        default:
            throw ControlError(404, "no address \(ControlRoutes.quoted(path)); the addresses are "
                               + addresses.joined(separator: ", "))
        }
    }
}

/// The messages of an OSC packet: the packet itself, or a bundle's elements in order, with
/// bundles inside bundles. A bundle's time tag is not waited for: its messages take
/// effect as they arrive. Pure.
enum OSCPacket {
    /// How many messages one packet may carry, and how deep bundles may nest.
    static let maximumMessages = 64
    static let maximumDepth = 8

    static func messages(in packet: ArraySlice<UInt8>) throws(ControlError) -> [ArraySlice<UInt8>] {
        var found: [ArraySlice<UInt8>] = []
        try collect(packet, depth: 0, into: &found)
        return found
    }

    private static let bundleTag = Array("#bundle\0".utf8)

    private static func collect(_ packet: ArraySlice<UInt8>, depth: Int, into found: inout [ArraySlice<UInt8>]) throws(ControlError) {
        guard packet.first == UInt8(ascii: "#") else {
            guard found.count < maximumMessages else {
                throw ControlError(413, "a packet of more than \(maximumMessages) messages")
            }
            found.append(packet)
            return
        }
        guard packet.count >= 16, packet.prefix(8).elementsEqual(bundleTag) else {
            throw ControlError(400, "a packet that starts with # is a bundle: #bundle, a time tag, then its elements")
        }
        guard depth < maximumDepth else { throw ControlError(400, "bundles nested more than \(maximumDepth) deep") }
        var position = packet.startIndex + 16
        while position < packet.endIndex {
            guard packet.endIndex - position >= 4 else { throw ControlError(400, "a bundle element's size is cut off") }
            let size = packet[position..<position + 4].reduce(0) { $0 << 8 | Int($1) }
            position += 4
            guard size > 0, size % 4 == 0, size <= packet.endIndex - position else {
                throw ControlError(400, "a bundle element of \(size) bytes, where \(packet.endIndex - position) remain "
                                   + "(a size is a positive multiple of 4)")
            }
            try collect(packet[position..<position + size], depth: depth + 1, into: &found)
            position += size
        }
    }
}
