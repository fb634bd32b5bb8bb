import Foundation
import Glibc
import WaylandOutputs

/// Where the control API listens: `[HOST:]PORT`, HOST an IPv4 or a bracketed IPv6
/// address, 127.0.0.1 by default.
struct ListenAddress: Equatable, Sendable, CustomStringConvertible {
    var host: String
    var port: UInt16
    var isIPv6: Bool

    /// Parses `[HOST:]PORT`; nil when it is not one.
    init?(_ text: String) {
        var host = "127.0.0.1", portText = Substring(text)
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { return nil }
            host = String(text[text.index(after: text.startIndex)..<close])
            portText = text[text.index(close, offsetBy: 2)...]
        } else if let colon = text.lastIndex(of: ":") {
            host = String(text[..<colon])
            portText = text[text.index(after: colon)...]
            // An IPv6 address goes in brackets: "::1:80" is not one with a port.
            guard !host.contains(":") else { return nil }
        }
        guard let port = UInt16(portText), !portText.hasPrefix("+") else { return nil }
        var scratch = in6_addr()
        if inet_pton(AF_INET, host, &scratch) == 1 {
            isIPv6 = false
        } else if inet_pton(AF_INET6, host, &scratch) == 1 {
            isIPv6 = true
        } else {
            return nil
        }
        (self.host, self.port) = (host, port)
    }

    /// 127.0.0.0/8 or ::1: only this machine can connect.
    var isLoopback: Bool {
        if isIPv6 {
            var address = in6_addr()
            guard inet_pton(AF_INET6, host, &address) == 1 else { return false }
            return withUnsafeBytes(of: &address) { bytes in bytes.prefix(15).allSatisfy { $0 == 0 } && bytes[15] == 1 }
        }
        return host.hasPrefix("127.")
    }

    var description: String { isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// The bearer token a client off loopback must send (--http-token-file).
struct BearerToken: Sendable {
    private let bytes: [UInt8]

    /// The token the file holds, without its final line break: 16 to 4096 bytes of
    /// printable ASCII.
    init(file path: String) throws {
        var text = try FileSystem.readText(path, for: "--http-token-file")
        while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
        let bytes = Array(text.utf8)
        guard (16...4096).contains(bytes.count), bytes.allSatisfy({ (0x21...0x7e).contains($0) }) else {
            throw GloutError("--http-token-file \(Log.printable(path)): the token must be 16 to 4096 printable ASCII characters "
                             + "with no space (for example: openssl rand -hex 32 > FILE)")
        }
        self.bytes = bytes
    }

    init(_ token: String) { bytes = Array(token.utf8) }

    /// Whether an Authorization header carries this token (`Bearer TOKEN`), compared in
    /// time that depends on the token's length only, never on where a guess goes wrong.
    func accepts(authorization: String?) -> Bool {
        guard let authorization, authorization.hasPrefix("Bearer ") else { return false }
        let given = Array(authorization.utf8.dropFirst(7))
        var difference = UInt8(given.count == bytes.count ? 0 : 1)
        for index in bytes.indices {
            difference |= bytes[index] ^ (index < given.count ? given[index] : 0)
        }
        return difference == 0
    }
}

/// Where files the API names are found: anywhere the user can read (loopback), or only
/// under --content-root, with no `..` and no symbolic link out of it.
struct ContentRoot: Sendable {
    /// The root's real path; nil: no root.
    let path: String?

    init(_ directory: String?) throws {
        guard let directory else {
            path = nil
            return
        }
        guard let real = realpath(directory, nil) else {
            throw GloutError("--content-root \(Log.printable(directory)): \(String(cString: strerror(errno)))")
        }
        defer { free(real) }
        var info = stat()
        guard stat(real, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw GloutError("--content-root \(Log.printable(directory)): not a folder")
        }
        path = String(cString: real)
    }

    /// The file `name` stands for, or why it is refused (403 out of the root, 404 none).
    func resolve(_ name: String) throws(ControlError) -> String {
        guard let root = path else { return name }
        guard !name.hasPrefix("/") else {
            throw ControlError(403, "\(ControlRoutes.quoted(name)): give a path relative to the content root")
        }
        guard !name.split(separator: "/").contains("..") else {
            throw ControlError(403, "\(ControlRoutes.quoted(name)): no .. in a path under the content root")
        }
        let joined = root == "/" ? "/" + name : root + "/" + name
        guard let real = realpath(joined, nil) else {
            throw ControlError(404, "\(ControlRoutes.quoted(name)): no such file under the content root")
        }
        defer { free(real) }
        let resolved = String(cString: real)
        guard resolved.hasPrefix(root == "/" ? "/" : root + "/") else {
            throw ControlError(403, "\(ControlRoutes.quoted(name)): a link out of the content root")
        }
        return resolved
    }

    /// Whether the file at `path` (a playlist's item) is under the root, links followed.
    func holds(_ path: String) -> Bool {
        guard let root = self.path else { return true }
        guard let real = realpath(path, nil) else { return false }
        defer { free(real) }
        return String(cString: real).hasPrefix(root == "/" ? "/" : root + "/")
    }
}

/// Senders OSC answers off loopback (--osc-allow ADDR/PREFIX): an IPv4 or IPv6 network.
struct AddressPrefix: Equatable, Sendable, CustomStringConvertible {
    /// The network's address bytes (4 or 16), and how many leading bits must match.
    let bytes: [UInt8]
    let bits: Int

    /// Parses `ADDR/PREFIX` (`ADDR` alone: that one address); nil when it is not one.
    init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, parts[0], &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
        } else if inet_pton(AF_INET6, parts[0], &v6) == 1 {
            bytes = withUnsafeBytes(of: &v6) { Array($0) }
        } else {
            return nil
        }
        if parts.count == 2 {
            guard let bits = Int(parts[1]), !parts[1].hasPrefix("+"), (0...bytes.count * 8).contains(bits) else { return nil }
            self.bits = bits
        } else {
            bits = bytes.count * 8
        }
    }

    /// The one address of `bytes` (4 or 16); nil for another count.
    init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        (self.bytes, bits) = (bytes, bytes.count * 8)
    }

    /// Whether `address` (4 or 16 bytes, as the socket gives them) is in this network.
    func contains(_ address: [UInt8]) -> Bool {
        guard address.count == bytes.count else { return false }
        for bit in 0..<bits where (address[bit / 8] ^ bytes[bit / 8]) & (0x80 >> UInt8(bit % 8)) != 0 {
            return false
        }
        return true
    }

    var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        _ = bytes.withUnsafeBytes { inet_ntop(bytes.count == 4 ? AF_INET : AF_INET6, $0.baseAddress, &text, socklen_t(text.count)) }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) + "/\(bits)"
    }
}
