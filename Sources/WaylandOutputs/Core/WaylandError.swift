import Glibc

/// What went wrong between this process and the Wayland compositor.
public enum WaylandError: Error, Equatable, CustomStringConvertible {
    /// wl_display_connect failed: nothing listens at `socket`.
    case noCompositor(socket: String)
    /// A global the caller needs is absent (`offered` nil) or too old.
    case missingGlobal(interface: String, required: UInt32, offered: UInt32?)
    /// The compositor reported a protocol error on an object and closed the connection.
    case protocolError(interface: String, objectID: UInt32, code: UInt32, message: String?)
    /// The connection broke (hang-up, or another I/O error; `errno` says which).
    case connectionLost(errno: Int32, message: String?)
    /// The compositor did not answer within the time the caller allowed.
    case timeout(waitingFor: String)

    public var description: String {
        switch self {
        case .noCompositor(let socket):
            return "no Wayland compositor is listening at \(socket)"
        case .missingGlobal(let interface, let required, nil):
            return "the compositor does not offer \(interface) (version \(required) or later is required)"
        case .missingGlobal(let interface, let required, let offered?):
            return "the compositor offers \(interface) version \(offered), version \(required) or later is required"
        case .protocolError(let interface, let id, let code, let message):
            let detail = message.map { ": \($0)" } ?? ""
            return "protocol error \(code) on \(interface)@\(id)\(detail)"
        case .connectionLost(let errno, let message):
            if errno == EPIPE || errno == ECONNRESET || errno == 0 {
                return "the compositor closed the connection" + (message.map { " (\($0))" } ?? "")
            }
            return "the connection to the compositor failed: \(String(cString: strerror(errno)))"
                + (message.map { " (\($0))" } ?? "")
        case .timeout(let what):
            return "the compositor did not answer in time (waiting for \(what))"
        }
    }
}
