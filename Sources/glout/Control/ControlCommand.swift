import Foundation
import WaylandOutputs

/// What a client of the control API asks glout to do, whichever way it came (HTTP or
/// OSC): plain values, checked before they reach the session.
enum ControlCommand: Equatable, Sendable {
    /// The outputs, as `glout outputs --json` prints them.
    case outputs
    /// Per output: rates, on-time share, landing, the API's content; glout's version and uptime.
    case status
    /// The OpenAPI document of the HTTP API.
    case openAPI
    /// A PNG of the picture the output named presents next (HTTP only: it does not fit a
    /// datagram).
    case screenshot(String)
    /// Shows `file` on the output named, or on every output (nil).
    case setContent(output: String?, file: String)
    case setLayout(LayoutMode)
    case setPrimary(String)
    /// Every output shows its name in large type for a few seconds.
    case identify
    /// Plays the show file named instead of the one that plays (--show).
    case setShow(String)
    /// Files shown from the first refresh targeted at or after `at` (CLOCK_REALTIME
    /// seconds), on each output the action names.
    /// With `changes`, the layout or the primary from that refresh too.
    case addCue(at: Double, actions: [CueAction], changes: CueChanges = CueChanges())
    /// The cues not yet due.
    case listCues
    /// Cancels the cue of this id (nil: every cue) that is not yet due.
    case cancelCues(Int?)
    /// A stream of server-sent events (HTTP only), refreshes-missed events only for that
    /// many refreshes or more.
    case events(missedThreshold: Int)
}

/// One action of a cue: a file on the output named, or on every output (nil).
struct CueAction: Equatable, Sendable {
    var output: String?
    var file: String
}

/// What a cue changes besides files: the layout, the primary (nil: neither).
struct CueChanges: Equatable, Sendable {
    var layout: LayoutMode?
    var primary: String?

    var isEmpty: Bool { layout == nil && primary == nil }

    /// As GET /cues lists them, after the files.
    var json: [[String: Any]] {
        (layout.map { [["layout": $0.rawValue]] } ?? []) + (primary.map { [["primary": $0]] } ?? [])
    }
}

/// A request the API refuses: its HTTP status and why, said to the client as JSON.
struct ControlError: Error, Equatable, Sendable {
    var status: Int
    var message: String

    init(_ status: Int, _ message: String) {
        (self.status, self.message) = (status, message)
    }
}

/// What the API answers: a status and a body (JSON, or a document of its own type).
struct ControlReply: Sendable {
    var status: Int
    var body: [UInt8]
    var contentType = "application/json"
    /// For `GET /events`: the stream the body is read from as it goes.
    var stream: EventStream? = nil

    /// A JSON body made of `value`.
    static func json(_ value: Any, status: Int = 200) -> ControlReply {
        ControlReply(status: status, body: JSONText.encode(value) + [10])
    }

    /// A JSON body already encoded.
    static func encoded(_ text: String, status: Int = 200) -> ControlReply {
        ControlReply(status: status, body: Array(text.utf8) + (text.hasSuffix("\n") ? [] : [10]))
    }

    /// The error's JSON: `{"error": {"status": N, "message": "..."}}`.
    static func error(_ error: ControlError) -> ControlReply {
        json(["error": ["status": error.status, "message": error.message]], status: error.status)
    }
}

/// The HTTP API's routes: a method, a path and a body to a ``ControlCommand``. Pure.
enum ControlRoutes {
    /// Where every resource lives.
    static let prefix = "/api/v1"

    /// The command of a request, or why it is refused (404 no such resource, 405 not that
    /// method, 400 a body that is not what the resource takes).
    static func command(method: String, path: String, query: [String: String] = [:],
                        body: [UInt8]) throws(ControlError) -> ControlCommand {
        guard path.hasPrefix(prefix + "/") else { throw ControlError(404, "no resource \(quoted(path)); the API is under \(prefix)/") }
        let parts = path.dropFirst(prefix.count + 1).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        switch parts {
        case ["outputs"]:
            try expect(method, "GET", path)
            return .outputs
        case ["status"]:
            try expect(method, "GET", path)
            return .status
        case ["openapi.json"]:
            try expect(method, "GET", path)
            return .openAPI
        case ["events"]:
            try expect(method, "GET", path)
            let text = query["missed"] ?? "1"
            guard let threshold = Int(text), threshold >= 1, threshold <= 1_000_000, !text.hasPrefix("+") else {
                throw ControlError(400, "\(path): missed=\(quoted(text)) is not a number of refreshes from 1 to 1000000")
            }
            return .events(missedThreshold: threshold)
        case ["content"]:
            try expect(method, "PUT", path)
            return .setContent(output: nil, file: try field("file", of: body, path: path))
        case let parts where parts.count == 3 && parts[0] == "outputs" && parts[2] == "screenshot":
            guard !parts[1].isEmpty else { throw ControlError(404, "no resource \(quoted(path)): the output's name is empty") }
            try expect(method, "GET", path)
            return .screenshot(parts[1])
        case let parts where parts.count == 3 && parts[0] == "outputs" && parts[2] == "content":
            guard !parts[1].isEmpty else { throw ControlError(404, "no resource \(quoted(path)): the output's name is empty") }
            try expect(method, "PUT", path)
            return .setContent(output: parts[1], file: try field("file", of: body, path: path))
        case ["layout"]:
            try expect(method, "PUT", path)
            let name = try field("layout", of: body, path: path)
            guard let layout = LayoutMode(rawValue: name) else {
                throw ControlError(400, "PUT \(path): layout \(quoted(name)) is none of "
                                   + LayoutMode.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return .setLayout(layout)
        case ["primary"]:
            try expect(method, "PUT", path)
            return .setPrimary(try field("output", of: body, path: path))
        case ["cues"]:
            switch method {
            case "GET": return .listCues
            case "POST": return try cue(in: body, path: path)
            case "DELETE": return .cancelCues(nil)
            default: throw ControlError(405, "\(path) takes GET, POST or DELETE, not \(quoted(method))")
            }
        case let parts where parts.count == 2 && parts[0] == "cues":
            guard let id = Int(parts[1]), id > 0, !parts[1].hasPrefix("+") else {
                throw ControlError(404, "no resource \(quoted(path)): a cue's id is a positive number")
            }
            try expect(method, "DELETE", path)
            return .cancelCues(id)
        case ["show"]:
            try expect(method, "PUT", path)
            return .setShow(try field("file", of: body, path: path))
        case ["identify"]:
            try expect(method, "POST", path)
            try emptyObject(body, path: path)
            return .identify
        default:
            throw ControlError(404, "no resource \(quoted(path)); \(prefix)/openapi.json lists them")
        }
    }

    private static func expect(_ method: String, _ allowed: String, _ path: String) throws(ControlError) {
        guard method == allowed else { throw ControlError(405, "\(path) takes \(allowed), not \(quoted(method))") }
    }

    /// The body as a JSON object, or an error that says what is wrong with it.
    static func object(_ body: [UInt8], path: String) throws(ControlError) -> [String: Any] {
        let value: Any
        do {
            value = try JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed])
        } catch {
            throw ControlError(400, "\(path): the body is not JSON (\(body.isEmpty ? "it is empty" : "\(body.count) bytes"))")
        }
        guard let object = value as? [String: Any] else { throw ControlError(400, "\(path): the body must be a JSON object") }
        return object
    }

    /// The one string member `name` of a body that has no other member.
    private static func field(_ name: String, of body: [UInt8], path: String) throws(ControlError) -> String {
        let object = try object(body, path: path)
        if let other = object.keys.sorted().first(where: { $0 != name }) {
            throw ControlError(400, "\(path): unknown member \(quoted(other)); the body is {\"\(name)\": STRING}")
        }
        guard let value = object[name] as? String else {
            throw ControlError(400, "\(path): the body is {\"\(name)\": STRING}" + (object[name] == nil ? "; \(name) is missing" : ""))
        }
        return try checked(value, name: name, in: path)
    }

    /// A name or path a client gave: 1 to 4096 bytes with no NUL.
    static func checked(_ value: String, name: String, in path: String) throws(ControlError) -> String {
        guard !value.isEmpty, value.utf8.count <= 4096, !value.utf8.contains(0) else {
            throw ControlError(400, "\(quoted(path)): \(name) must be 1 to 4096 bytes with no NUL")
        }
        return value
    }

    /// No body, or `{}`.
    private static func emptyObject(_ body: [UInt8], path: String) throws(ControlError) {
        guard !body.isEmpty else { return }
        guard try object(body, path: path).isEmpty else { throw ControlError(400, "\(path) takes no body, or {}") }
    }

    /// `text` in quotes, cut at 200 characters, with quotes and backslashes escaped and
    /// what a terminal would act on written out (``Log/printable(_:)``): clients' text is
    /// quoted back to them and logged.
    static func quoted(_ text: String) -> String {
        var kept = String(String.UnicodeScalarView(text.unicodeScalars.prefix(200)))
        kept = kept.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "\"" + Log.printable(kept) + (text.unicodeScalars.count > 200 ? "...\"" : "\"")
    }
}
