import CWayland
import Glibc

/// Where the library's messages go. The default writes them to standard error.
public struct Log: Sendable {
    public enum Level: Int, Sendable, Comparable {
        case debug, info, warning, error
        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }

    public let write: @Sendable (Level, String) -> Void

    public init(_ write: @escaping @Sendable (Level, String) -> Void) { self.write = write }

    /// Lines at `minimum` or above go to standard error, prefixed with `prefix`.
    public static func standardError(prefix: String, minimum: Level = .info) -> Log {
        Log { level, message in
            guard level >= minimum else { return }
            let tag = level == .warning ? "warning: " : level == .error ? "error: " : ""
            writeStandardError("\(prefix)\(tag)\(message)\n")
        }
    }

    public func debug(_ message: @autoclosure () -> String) { write(.debug, message()) }

    /// Text from the compositor (a name, a description), fit to go into a log line: every
    /// control character written out (`\n`, `\t`, `\x1b`, `\u{85}`) and the
    /// bidirectional overrides too, so that it cannot forge lines, move a terminal's
    /// cursor or reorder what it shows. Invalid UTF-8 was replaced by U+FFFD when the
    /// text was read.
    public static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: \.isControlLike) else { return text }
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7f:
                let hex = String(scalar.value, radix: 16)
                escaped += "\\x" + (hex.count < 2 ? "0" : "") + hex
            case _ where scalar.isControlLike:
                escaped += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
    public func info(_ message: String) { write(.info, message) }
    public func warning(_ message: String) { write(.warning, message) }
    public func error(_ message: String) { write(.error, message) }
}

private extension Unicode.Scalar {
    /// C0 and C1 controls, DEL, and the bidirectional overrides and isolates that can make
    /// a terminal show text in another order than it is.
    var isControlLike: Bool {
        properties.generalCategory == .control || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
    }
}

/// libwayland reports some failures only through its log handler (for example the text of
/// a protocol error). The handler keeps the last line so errors can carry it, and hands
/// every line to the log the most recent connection installed.
enum LibwaylandLog {
    private static let state = Locked<(last: String?, log: Log?)>((nil, nil))

    static func install(_ log: Log) {
        state.withLock { $0.log = log }
        wl_log_set_handler_client { format, arguments in
            guard let format else { return }
            var buffer = [CChar](repeating: 0, count: 1024)
            guard let arguments else { return }
            _ = vsnprintf(&buffer, buffer.count, format, arguments)
            let length = buffer.firstIndex(of: 0) ?? buffer.count
            let line = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                .trimmingCharacters(in: "\n ")
            let log = LibwaylandLog.state.withLock { state -> Log? in
                state.last = line
                return state.log
            }
            log?.debug("libwayland: \(line)")
        }
    }

    static var lastMessage: String? { state.withLock { $0.last } }
}

/// Writes text to file descriptor 2 in one write(2), so lines from threads do not interleave.
package func writeStandardError(_ text: String) {
    var text = text
    text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
}

extension String {
    func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let c = s.first, set.contains(c) { s.removeFirst() }
        while let c = s.last, set.contains(c) { s.removeLast() }
        return String(s)
    }
}
