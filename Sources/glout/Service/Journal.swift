import Glibc
import WaylandOutputs

/// glout's log lines as the journal takes them: where standard error is the journal's own
/// stream ($JOURNAL_STREAM names its device and inode, systemd.exec(5)), each line starts
/// with its syslog priority, `<3>` for an error, `<4>` a warning, `<6>` information and
/// `<7>` debugging, so that `journalctl -p warning` finds glout's warnings.
enum Journal {
    /// Whether standard error is the stream $JOURNAL_STREAM names.
    static let isStandardError: Bool = {
        guard let value = environment("JOURNAL_STREAM") else { return false }
        let parts = value.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var status = stat()
        guard fstat(2, &status) == 0 else { return false }
        return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }()

    static func priority(_ level: Log.Level) -> Int {
        switch level {
        case .error: 3
        case .warning: 4
        case .info: 6
        case .debug: 7
        }
    }

    /// `text` with `<priority>` before each of its lines, when the journal reads standard
    /// error; else as it is.
    static func lines(_ text: String, level: Log.Level, journal: Bool = isStandardError) -> String {
        guard journal else { return text }
        let prefix = "<\(priority(level))>"
        var out = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast(text.hasSuffix("\n") ? 1 : 0) {
            out += prefix + line + "\n"
        }
        return out
    }

    /// glout's log: lines at `minimum` or above to standard error, after `prefix`, each
    /// with its priority where the journal reads them.
    static func log(prefix: String, minimum: Log.Level) -> Log {
        Log { level, message in
            guard level >= minimum else { return }
            let tag = level == .warning ? "warning: " : level == .error ? "error: " : ""
            writeStandardError(lines("\(prefix)\(tag)\(message)\n", level: level))
        }
    }
}
