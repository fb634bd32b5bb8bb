import CMicroHTTPD
import Foundation
import Glibc

/// The control API's HTTP/1.1 server, on libmicrohttpd: a thread that accepts, a thread
/// per connection (so a slow client or a long decode holds up only its own), and none of
/// them a render thread. It enforces the limits and the bearer token, collects the body,
/// and hands each request to `handler` on the connection's thread.
final class HTTPServer: @unchecked Sendable {
    /// A request as the handler sees it.
    struct Request: Sendable {
        var method: String
        var path: String
        /// The query's arguments, decoded (the last of a name given twice).
        var query: [String: String] = [:]
        var body: [UInt8]
    }

    /// What one client may send and hold.
    struct Limits: Sendable {
        var body = 1 << 20
        var headers = 16 << 10
        var connections: UInt32 = 64
        var idleSeconds: UInt32 = 10
    }

    let address: ListenAddress
    /// The port it listens on: the address's, or the one the system picked for port 0.
    private(set) var port: UInt16 = 0
    private let token: BearerToken?
    private let limits: Limits
    private let handler: @Sendable (Request) -> ControlReply
    private var daemon: OpaquePointer?

    /// Listens on `address` at once; throws when it cannot (the port taken, say).
    init(address: ListenAddress, token: BearerToken?, limits: Limits = Limits(),
         handler: @escaping @Sendable (Request) -> ControlReply) throws {
        (self.address, self.token, self.limits, self.handler) = (address, token, limits, handler)
        daemon = try start()
    }

    deinit { stop() }

    /// Stops listening, closes every connection and joins their threads.
    func stop() {
        guard let daemon else { return }
        self.daemon = nil
        MHD_stop_daemon(daemon)
    }

    private func start() throws -> OpaquePointer {
        let flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_POLL.rawValue
        let listening = try address.bind(.stream, for: "--http")
        port = listening.port
        let completed: MHD_RequestCompletedCallback = { _, _, state, _ in
            guard let state, let pointer = state.pointee else { return }
            Unmanaged<RequestState>.fromOpaque(pointer).release()
            state.pointee = nil
        }
        let this = Unmanaged.passUnretained(self).toOpaque()
        var options = [
            MHD_OptionItem(option: .LISTEN_SOCKET, value: Int(listening.descriptor), ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_LIMIT, value: Int(limits.connections), ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: Int(limits.idleSeconds), ptr_value: nil),
            // Room for the request line, the headers the limit allows, and the reply's.
            MHD_OptionItem(option: .CONNECTION_MEMORY_LIMIT, value: limits.headers * 2 + 16384, ptr_value: nil),
            MHD_OptionItem(option: .NOTIFY_COMPLETED, value: unsafeBitCast(completed, to: Int.self), ptr_value: nil),
            MHD_OptionItem(option: .END, value: 0, ptr_value: nil),
        ]
        let started: OpaquePointer? = options.withUnsafeMutableBufferPointer { items in
            withVaList([Int32(bitPattern: MHD_OPTION.ARRAY.rawValue), items.baseAddress!, Int32(bitPattern: MHD_OPTION.END.rawValue)]) {
                MHD_start_daemon_va(flags, 0, nil, nil, { context, connection, url, method, _, data, size, state in
                    guard let context, let connection, let state, let size else { return .NO }
                    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
                    return server.respond(connection, url: url, method: method, data: data, size: size, state: state)
                }, this, $0)
            }
        }
        guard let started else {
            close(listening.descriptor)
            throw GloutError("--http \(address): the HTTP server did not start (\(String(cString: strerror(errno))))")
        }
        return started
    }

    /// One request's body as it arrives.
    private final class RequestState {
        var body: [UInt8] = []
    }

    /// libmicrohttpd calls this for a request's headers (the first call), for each piece of
    /// its body, then once more when the body is whole: the answer goes then, or at the
    /// first call when the headers alone refuse the request.
    private func respond(_ connection: OpaquePointer, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?,
                         data: UnsafePointer<CChar>?, size: UnsafeMutablePointer<Int>,
                         state: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        guard let pointer = state.pointee else {
            let request = RequestState()
            state.pointee = Unmanaged.passRetained(request).toOpaque()
            if let refusal = refusal(of: connection) {
                return send(.error(refusal), on: connection)
            }
            return .YES
        }
        let request = Unmanaged<RequestState>.fromOpaque(pointer).takeUnretainedValue()
        if size.pointee > 0 {
            guard request.body.count + size.pointee <= limits.body else {
                // A body past the limit without a Content-Length that said so (chunked):
                // libmicrohttpd (0.9.75) cannot answer while the body still arrives, so the
                // connection closes at the limit.
                return .NO
            }
            data.map { request.body.append(contentsOf: UnsafeRawBufferPointer(start: $0, count: size.pointee)) }
            size.pointee = 0
            return .YES
        }
        let path = url.map { String(cString: $0) } ?? "/"
        let reply = handler(Request(method: method.map { String(cString: $0) } ?? "", path: path,
                                    query: arguments(of: connection), body: request.body))
        return send(reply, on: connection)
    }

    private final class Arguments {
        var values: [String: String] = [:]
    }

    private func arguments(of connection: OpaquePointer) -> [String: String] {
        let collected = Arguments()
        withExtendedLifetime(collected) {
            _ = MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, { context, _, key, value in
                let collected = Unmanaged<Arguments>.fromOpaque(context!).takeUnretainedValue()
                if let key { collected.values[String(cString: key)] = value.map { String(cString: $0) } ?? "" }
                return .YES
            }, Unmanaged.passUnretained(collected).toOpaque())
        }
        return collected.values
    }

    /// Why a request is refused from its headers alone: no or a wrong token, headers or a
    /// declared body over the limits.
    private func refusal(of connection: OpaquePointer) -> ControlError? {
        var headerBytes = 0
        _ = withUnsafeMutablePointer(to: &headerBytes) { total in
            MHD_get_connection_values(connection, .HEADER_KIND, { total, _, key, value in
                let sum = total!.assumingMemoryBound(to: Int.self)
                sum.pointee += (key.map { strlen($0) } ?? 0) + (value.map { strlen($0) } ?? 0) + 4
                return .YES
            }, total)
        }
        if headerBytes > limits.headers {
            return ControlError(431, "the request's headers hold \(headerBytes) bytes; at most \(limits.headers)")
        }
        if let token {
            let authorization = MHD_lookup_connection_value(connection, .HEADER_KIND, "Authorization").map { String(cString: $0) }
            guard token.accepts(authorization: authorization) else {
                return ControlError(401, authorization == nil ? "this API needs Authorization: Bearer TOKEN"
                                                             : "the bearer token is not this API's")
            }
        }
        if let length = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length").map({ String(cString: $0) }),
           let bytes = UInt64(length), bytes > UInt64(limits.body) {
            return ControlError(413, "a body of \(bytes) bytes; at most \(limits.body)")
        }
        return nil
    }

    private func send(_ reply: ControlReply, on connection: OpaquePointer) -> MHD_Result {
        if let stream = reply.stream { return send(stream, on: connection) }
        let response = reply.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let response else { return .NO }
        defer { MHD_destroy_response(response) }
        _ = MHD_add_response_header(response, "Content-Type", reply.contentType)
        _ = MHD_add_response_header(response, "Cache-Control", "no-store")
        if reply.status == 401 { _ = MHD_add_response_header(response, "WWW-Authenticate", "Bearer") }
        return MHD_queue_response(connection, UInt32(reply.status), response)
    }

    /// A stream of events (text/event-stream) of unknown length: libmicrohttpd asks for
    /// each piece on the connection's thread, which waits in ``EventStream/read(into:)``
    /// for the next event; the stream goes when the connection does.
    private func send(_ stream: EventStream, on connection: OpaquePointer) -> MHD_Result {
        let retained = Unmanaged.passRetained(stream).toOpaque()
        let response = MHD_create_response_from_callback(UInt64.max, 16 << 10, { context, _, buffer, capacity in
            let stream = Unmanaged<EventStream>.fromOpaque(context!).takeUnretainedValue()
            // -1: MHD_CONTENT_READER_END_OF_STREAM.
            return stream.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: capacity)) ?? -1
        }, retained, { context in
            Unmanaged<EventStream>.fromOpaque(context!).release()
        })
        guard let response else {
            Unmanaged<EventStream>.fromOpaque(retained).release()
            return .NO
        }
        defer { MHD_destroy_response(response) }
        _ = MHD_add_response_header(response, "Content-Type", "text/event-stream")
        _ = MHD_add_response_header(response, "Cache-Control", "no-store")
        return MHD_queue_response(connection, 200, response)
    }
}
