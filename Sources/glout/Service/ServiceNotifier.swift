import Glibc
import WaylandOutputs

/// systemd's notification protocol (sd_notify(3)): datagrams of `KEY=VALUE` lines sent to
/// the AF_UNIX socket named by $NOTIFY_SOCKET, a path or, from `@`, an abstract name.
/// glout sends READY=1, STATUS=…, WATCHDOG=1 and STOPPING=1 through it when it runs as a
/// `Type=notify` service; without $NOTIFY_SOCKET there is no notifier and nothing is sent.
final class ServiceNotifier: Sendable {
    /// The watchdog's timeout, when the service manager asked for keep-alives
    /// ($WATCHDOG_USEC, for this process if $WATCHDOG_PID says so).
    let watchdogTimeout: Duration?
    private let descriptor: Int32
    private let address: sockaddr_un
    private let addressLength: socklen_t

    /// The notifier $NOTIFY_SOCKET asks for, nil without one; throws for a socket name
    /// glout cannot use (the supervisor says so and glout runs without one).
    static func fromEnvironment() throws(GloutError) -> ServiceNotifier? {
        guard let socket = environment("NOTIFY_SOCKET"), !socket.isEmpty else { return nil }
        var watchdog: Duration?
        // As sd_watchdog_enabled(3): for this process unless WATCHDOG_PID names another (or
        // is not a process number).
        let forThisProcess = environment("WATCHDOG_PID").map { Int32($0) == getpid() } ?? true
        if let text = environment("WATCHDOG_USEC"), let microseconds = UInt64(text), microseconds > 0, forThisProcess {
            watchdog = .microseconds(Int64(min(microseconds, UInt64(Int64.max / 1000))))
        }
        return try ServiceNotifier(socket: socket, watchdogTimeout: watchdog)
    }

    init(socket name: String, watchdogTimeout: Duration?) throws(GloutError) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(name.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard abstract || bytes.first == UInt8(ascii: "/"), bytes.count < capacity, !bytes.dropFirst().contains(0) else {
            throw GloutError("NOTIFY_SOCKET \(Log.printable(name)) is neither a socket path nor an abstract name (@…) "
                             + "of at most \(capacity - 1) bytes")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            path.copyBytes(from: bytes)
        }
        // Non-blocking: a service manager too busy to read its queue gets no keep-alive
        // rather than a main loop that stops.
        let descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
                                      | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard descriptor >= 0 else {
            throw GloutError("no socket for NOTIFY_SOCKET: \(String(cString: strerror(errno)))")
        }
        self.descriptor = descriptor
        self.address = address
        self.addressLength = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1))
        self.watchdogTimeout = watchdogTimeout
    }

    deinit { close(descriptor) }

    /// Sends `lines` in one datagram. Returns the error's text when it could not be sent
    /// (the service manager gone, its queue full): glout goes on either way.
    @discardableResult
    func send(_ lines: String...) -> String? { send(lines: lines) }

    @discardableResult
    func send(lines: [String]) -> String? {
        var text = lines.joined(separator: "\n")
        var address = self.address
        let sent = text.withUTF8 { bytes in
            withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                    sendto(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), socketAddress, addressLength)
                }
            }
        }
        return sent < 0 ? String(cString: strerror(errno)) : nil
    }
}
