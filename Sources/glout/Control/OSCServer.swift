import CLo
import Dispatch
import Foundation
import Glibc
import WaylandOutputs

/// The control API over OSC 1.0 on UDP (--osc): one thread of its own reads the socket,
/// liblo decodes each message, and every message is answered to its sender at
/// ``OSCRoutes/replyAddress`` with the request's address, the HTTP status and the JSON
/// body. Senders outside --osc-allow (when given) are not answered at all.
final class OSCServer: @unchecked Sendable {
    /// A message as the handler sees it.
    struct Message: Sendable {
        var path: String
        var arguments: [OSCArgument]
    }

    let address: ListenAddress
    /// The port it listens on: the address's, or the one the system picked for port 0.
    let port: UInt16
    private let socket: Int32
    private let allowed: [AddressPrefix]
    private let log: Log
    private let handler: @Sendable (Message) -> ControlReply
    /// The senders that asked for events.
    private let subscriptions: OSCSubscriptions
    /// Written to stop the reader; the reader signals `finished` as it ends.
    private var wake: (read: Int32, write: Int32) = (-1, -1)
    private let finished = DispatchSemaphore(value: 0)
    private var running = false
    /// Senders refused so far, logged once each (the reader's own).
    private var refused: Set<[UInt8]> = []

    /// Binds `address` and starts reading; throws when it cannot (the port taken, say).
    init(address: ListenAddress, allowed: [AddressPrefix], events: EventHub, log: Log,
         handler: @escaping @Sendable (Message) -> ControlReply) throws {
        let bound = try address.bind(.datagram, for: "--osc")
        (self.address, port, socket, self.allowed, self.log, self.handler) = (address, bound.port, bound.descriptor, allowed, log, handler)
        subscriptions = OSCSubscriptions(hub: events, socket: bound.descriptor)
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            close(socket)
            throw GloutError("--osc: cannot make a pipe (\(String(cString: strerror(errno))))")
        }
        wake = (pipeEnds[0], pipeEnds[1])
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        // Weak: Foundation releases a thread's closure only as the thread exits, after stop()
        // has returned; holding the server there could make this thread release the last
        // reference to what the handler holds (glout's stage, whose end needs the main thread).
        let finished = finished
        let thread = Thread { [weak self] in
            self?.read()
            finished.signal()
        }
        thread.name = "glout OSC"
        thread.start()
        running = true
    }

    deinit { stop() }

    /// Stops the reader, waits for it to end (an answer under way is finished), and closes
    /// the socket.
    func stop() {
        guard running else { return }
        running = false
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
        finished.wait()
        subscriptions.stop()
        close(wake.read)
        close(wake.write)
        close(socket)
    }

    /// The largest datagram UDP carries.
    static let datagramLimit = 65507

    private func read() {
        var buffer = [UInt8](repeating: 0, count: OSCServer.datagramLimit + 1)
        var sockets = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0), pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
        while true {
            guard poll(&sockets, 2, -1) >= 0 || errno == EINTR else {
                log.warning("OSC: poll failed (\(String(cString: strerror(errno)))); OSC stops")
                return
            }
            if sockets[1].revents != 0 { return }
            guard sockets[0].revents != 0 else { continue }
            var sender = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let count = buffer.withUnsafeMutableBytes { bytes in
                withUnsafeMutablePointer(to: &sender) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        recvfrom(socket, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT), $0, &length)
                    }
                }
            }
            guard count >= 0 else { continue }
            let from = Sender(sender, length: length)
            guard isAllowed(from) else { continue }
            for (path, reply) in answers(to: buffer[0..<count], from: from) {
                send(reply, for: path, to: from)
            }
        }
    }

    /// Whether --osc-allow lets `sender` in (without it, every sender: loopback only).
    private func isAllowed(_ sender: Sender) -> Bool {
        guard !allowed.isEmpty else { return true }
        if allowed.contains(where: { $0.contains(sender.address) }) { return true }
        if refused.count < 256, refused.insert(sender.address).inserted {
            log.warning("OSC: ignoring \(sender), which --osc-allow does not list")
        }
        return false
    }

    /// The answer to each message of a packet, with the message's address; one answer
    /// to a packet that is not OSC.
    private func answers(to packet: ArraySlice<UInt8>, from sender: Sender) -> [(String, ControlReply)] {
        let messages: [ArraySlice<UInt8>]
        do throws(ControlError) {
            messages = try OSCPacket.messages(in: packet)
        } catch {
            return [("", .error(error))]
        }
        return messages.map { bytes in
            do throws(ControlError) {
                let message = try OSCServer.decode(bytes)
                if let asked = try OSCRoutes.subscription(path: message.path, arguments: message.arguments) {
                    return (message.path, subscriptions.subscribe(sender, seconds: asked.seconds,
                                                                  missedThreshold: asked.missedThreshold))
                }
                return (message.path, handler(message))
            } catch {
                return ("", .error(error))
            }
        }
    }

    /// liblo's reading of one message: its address and arguments.
    static func decode(_ bytes: ArraySlice<UInt8>) throws(ControlError) -> Message {
        guard bytes.count >= 4, bytes.count % 4 == 0 else {
            throw ControlError(400, "not an OSC message (\(bytes.count) bytes; a message is a multiple of 4)")
        }
        var data = Array(bytes)
        var result: Int32 = 0
        // liblo copies what it keeps: nothing points into `data` after the call.
        let decoded: (message: lo_message, path: String)? = data.withUnsafeMutableBytes { raw in
            guard let message = lo_message_deserialise(raw.baseAddress, raw.count, &result) else { return nil }
            // The path was checked as a string by the call above.
            let path = lo_get_path(raw.baseAddress, raw.count).map { String(cString: $0) } ?? ""
            return (message, path)
        }
        guard let decoded else {
            throw ControlError(400, "not an OSC message (\(bytes.count) bytes; liblo error \(result))")
        }
        defer { lo_message_free(decoded.message) }
        let count = Int(lo_message_get_argc(decoded.message))
        guard count > 0 else { return Message(path: decoded.path, arguments: []) }
        guard let types = lo_message_get_types(decoded.message), let values = lo_message_get_argv(decoded.message) else {
            throw ControlError(400, "\(ControlRoutes.quoted(decoded.path)): arguments liblo cannot read")
        }
        var arguments: [OSCArgument] = []
        for index in 0..<count {
            let tag = UInt8(bitPattern: types[index])
            guard let value = values[index] else {
                arguments.append(.other(Character(UnicodeScalar(tag))))
                continue
            }
            // Each argument's own bytes, as liblo allocated them (4 for i and f): reading
            // the whole lo_arg union (8 bytes) would read past a 4-byte one.
            let raw = UnsafeRawPointer(value)
            switch tag {
            case UInt8(ascii: "s"), UInt8(ascii: "S"):
                arguments.append(.string(String(cString: raw.assumingMemoryBound(to: CChar.self))))
            case UInt8(ascii: "i"): arguments.append(.integer(Int64(raw.loadUnaligned(as: Int32.self))))
            case UInt8(ascii: "h"): arguments.append(.integer(raw.loadUnaligned(as: Int64.self)))
            case UInt8(ascii: "f"): arguments.append(.real(Double(raw.loadUnaligned(as: Float.self))))
            case UInt8(ascii: "d"): arguments.append(.double(raw.loadUnaligned(as: Double.self)))
            default: arguments.append(.other(Character(UnicodeScalar(tag))))
            }
        }
        return Message(path: decoded.path, arguments: arguments)
    }

    /// Sends `reply` to the sender as /glout/reply ,sis: the request's address, the
    /// status, the JSON body. A body too long for one datagram is answered 413.
    private func send(_ reply: ControlReply, for path: String, to sender: Sender) {
        var datagram = OSCServer.encode(reply, for: path)
        if datagram.count > OSCServer.datagramLimit {
            datagram = OSCServer.encode(.error(ControlError(413, "the answer (\(datagram.count) bytes) is too long for "
                                                            + "a datagram; ask over HTTP")), for: path)
        }
        sender.send(datagram, on: socket)
    }

    /// /glout/reply ,sis as bytes, by liblo.
    static func encode(_ reply: ControlReply, for path: String) -> [UInt8] {
        guard let message = lo_message_new() else { return [] }
        defer { lo_message_free(message) }
        // The body is JSON: no NUL in it.
        let body = String(decoding: reply.body, as: UTF8.self).trimmingCharacters(in: .newlines)
        lo_message_add_string(message, path)
        lo_message_add_int32(message, Int32(reply.status))
        lo_message_add_string(message, body)
        var size = 0
        guard let data = lo_message_serialise(message, OSCRoutes.replyAddress, nil, &size) else { return [] }
        defer { free(data) }
        return Array(UnsafeRawBufferPointer(start: data, count: size))
    }

    /// Where a datagram came from.
    struct Sender: CustomStringConvertible {
        var storage: sockaddr_storage
        var length: socklen_t
        /// The address's bytes: 4 (IPv4) or 16 (IPv6).
        var address: [UInt8]

        init(_ storage: sockaddr_storage, length: socklen_t) {
            (self.storage, self.length) = (storage, length)
            var copy = storage
            address = withUnsafeBytes(of: &copy) { raw in
                switch Int32(storage.ss_family) {
                case AF_INET: withUnsafeBytes(of: raw.load(as: sockaddr_in.self).sin_addr) { Array($0) }
                case AF_INET6: withUnsafeBytes(of: raw.load(as: sockaddr_in6.self).sin6_addr) { Array($0) }
                default: []
                }
            }
        }

        /// Sends `datagram` to it from `socket`, without waiting (a full buffer drops it).
        func send(_ datagram: [UInt8], on socket: Int32) {
            var address = storage
            _ = datagram.withUnsafeBytes { bytes in
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        sendto(socket, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT), $0, length)
                    }
                }
            }
        }

        /// The address and port, as bytes: one sender, whatever else its datagrams say.
        var key: [UInt8] {
            var copy = storage
            return withUnsafeBytes(of: &copy) { Array($0.prefix(Int(length))) }
        }

        var description: String {
            AddressPrefix(bytes: address).map { String($0.description.prefix { $0 != "/" }) } ?? "an unknown sender"
        }
    }
}
