import Foundation

/// A client of sway's IPC socket (the i3 protocol: "i3-ipc", a 32-bit payload length and
/// a 32-bit message type in host byte order, then the payload), used instead of swaymsg
/// because swaymsg gives up on a reply after 3 s. On a loaded two-core machine a nested
/// sway that is adding an output (a roundtrip with its parent) can take longer than that,
/// and a command whose reply came late would then look like one that failed.
struct SwayIPC {
    enum Message: UInt32 {
        case runCommand = 0
        case getOutputs = 3
        case getTree = 4
    }

    let socketPath: String
    /// How long a reply may take before the call fails: long enough for any load, short
    /// enough that a hung sway still ends the test.
    var timeout: Double = 30
    /// Called when a reply is late, for what to add to the error: where the processes are.
    var whenLate: (() -> String)?

    private static let magic = Array("i3-ipc".utf8)

    /// Sends one message and returns the reply's payload.
    func send(_ message: Message, _ payload: String = "") throws -> String {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("sway IPC: socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var wait = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))

        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = Array(socketPath.utf8CString)
        guard path.count <= MemoryLayout.size(ofValue: address.sun_path) else {
            throw HarnessError("sway IPC: socket path too long: \(socketPath)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            path.withUnsafeBytes { raw.copyMemory(from: $0) }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            throw HarnessError("sway IPC: cannot connect to \(socketPath): \(String(cString: strerror(errno)))")
        }

        let body = Array(payload.utf8)
        var request = Self.magic
        withUnsafeBytes(of: UInt32(body.count)) { request += $0 }
        withUnsafeBytes(of: message.rawValue) { request += $0 }
        request += body
        try request.withUnsafeBytes { bytes in
            var sent = 0
            while sent < bytes.count {
                let n = write(fd, bytes.baseAddress! + sent, bytes.count - sent)
                guard n > 0 else { throw HarnessError("sway IPC: write: \(String(cString: strerror(errno)))") }
                sent += n
            }
        }

        let header = try read(fd, count: Self.magic.count + 8, for: message)
        guard Array(header.prefix(Self.magic.count)) == Self.magic else {
            throw HarnessError("sway IPC: a reply without the i3-ipc magic")
        }
        let length = header.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: Self.magic.count, as: UInt32.self) }
        return String(decoding: try read(fd, count: Int(length), for: message), as: UTF8.self)
    }

    /// How long a reply may take before the state of the processes is captured and
    /// printed (the wait then goes on, up to `timeout`).
    var lateAfter: Double = 5
    /// Called each second a reply is late, to get a stuck sway going (see
    /// ``Compositor/swaymsg(_:)``); nil for none.
    var whenSlow: (() -> Void)?

    private func read(_ fd: Int32, count: Int, for message: Message) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        var waited = 0.0
        var reported = false
        setReceiveTimeout(fd, 1)
        while filled < count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, count - filled) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && waited + 1 < timeout {
                waited += 1
                whenSlow?()
                if waited >= lateAfter && !reported {
                    reported = true
                    print("sway IPC: no reply to \(message) after \(waited) s; where the processes are:\n"
                          + (whenLate?() ?? ""))
                }
                continue
            }
            guard n > 0 else {
                let why = n == 0 ? "sway closed the connection" : String(cString: strerror(errno))
                throw HarnessError("sway IPC: no reply to \(message) within \(timeout) s: \(why)")
            }
            filled += n
        }
        if reported { print("sway IPC: the reply to \(message) came after \(waited) s") }
        return bytes
    }

    private func setReceiveTimeout(_ fd: Int32, _ seconds: Double) {
        var wait = timeval(tv_sec: Int(seconds), tv_usec: Int(seconds.truncatingRemainder(dividingBy: 1) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Runs a command as swaymsg would, failing when sway reports that any part failed.
    func run(_ command: String) throws -> String {
        let reply = try send(.runCommand, command)
        let results = try JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [[String: Any]] ?? []
        for result in results where result["success"] as? Bool != true {
            throw HarnessError("sway refused \"\(command)\": \(result["error"] as? String ?? reply)")
        }
        return reply
    }
}
