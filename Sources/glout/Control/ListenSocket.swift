import Glibc
import WaylandOutputs

/// A socket of the control API bound to its address: a TCP one listening (HTTP) or a UDP
/// one (OSC). Binding here gives a clear error for a port taken, and the port the system
/// picked for port 0.
struct ListenSocket {
    enum Kind { case stream, datagram }

    let descriptor: Int32
    let port: UInt16
}

extension ListenAddress {
    /// Binds a socket of `kind` here (and listens, for a stream); `option` names the
    /// option in errors. The caller owns the descriptor.
    func bind(_ kind: ListenSocket.Kind, for option: String) throws -> ListenSocket {
        func failure(_ what: String) -> GloutError {
            GloutError("\(option) \(self): cannot \(what) (\(String(cString: strerror(errno))))")
        }
        let type = kind == .stream ? SOCK_STREAM.rawValue : SOCK_DGRAM.rawValue
        let fd = socket(isIPv6 ? AF_INET6 : AF_INET, Int32(type) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw failure("open a socket") }
        var one: Int32 = 1
        if kind == .stream { _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size)) }
        if isIPv6 { _ = setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &one, socklen_t(MemoryLayout<Int32>.size)) }
        var storage = socketAddress
        var length = socklen_t(isIPv6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(fd, $0, length) == 0 && (kind == .datagram || Glibc.listen(fd, 64) == 0)
            }
        }
        guard bound else {
            let error = failure(errno == EADDRINUSE ? "listen there: the port is taken" : "listen there")
            close(fd)
            throw error
        }
        length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        let port = withUnsafeBytes(of: &storage) { raw in
            isIPv6 ? raw.load(as: sockaddr_in6.self).sin6_port : raw.load(as: sockaddr_in.self).sin_port
        }
        return ListenSocket(descriptor: fd, port: UInt16(bigEndian: port))
    }

    /// The address as a sockaddr_in or sockaddr_in6.
    private var socketAddress: sockaddr_storage {
        var storage = sockaddr_storage()
        func store<Socket>(_ socket: Socket) {
            withUnsafeMutableBytes(of: &storage) { raw in withUnsafeBytes(of: socket) { raw.copyMemory(from: $0) } }
        }
        if isIPv6 {
            var socket = sockaddr_in6()
            socket.sin6_family = sa_family_t(AF_INET6)
            socket.sin6_port = port.bigEndian
            _ = inet_pton(AF_INET6, host, &socket.sin6_addr)
            store(socket)
        } else {
            var socket = sockaddr_in()
            socket.sin_family = sa_family_t(AF_INET)
            socket.sin_port = port.bigEndian
            _ = inet_pton(AF_INET, host, &socket.sin_addr)
            store(socket)
        }
        return storage
    }
}
