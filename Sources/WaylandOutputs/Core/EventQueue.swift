import CWayland
import Glibc

/// One Wayland event queue and the loop that waits on it: dispatch what is queued, else
/// flush and wait on a wake-up fd that the connection's one reader of the socket
/// (``SocketReader``) writes when a read leaves events here. One thread dispatches each
/// queue; several queues are dispatched on several threads at once.
// @unchecked: the wl_event_queue is a raw pointer that libwayland locks, and each queue is
// dispatched by one thread.
package final class EventQueue: @unchecked Sendable {
    unowned let connection: Connection
    /// The wl_event_queue, or nil for the display's default queue.
    let queue: OpaquePointer?
    /// Readable when another thread wants this queue's loop to return early.
    let wakeFD: Int32
    private let ownsWakeFD: Bool
    /// The connection's reader, held: the main queue goes in the connection's deinit.
    private let reader: SocketReader

    init(connection: Connection, queue: OpaquePointer?, wakeFD: Int32) {
        self.connection = connection
        self.queue = queue
        self.wakeFD = wakeFD
        self.ownsWakeFD = false
        reader = connection.reader
        reader.register(ObjectIdentifier(self), queue: queue, wakeFD: wakeFD)
    }

    /// A new queue of its own (wl_display_create_queue) with its own wake-up eventfd, for
    /// a thread of your own to dispatch.
    package init(connection: Connection) {
        self.connection = connection
        self.queue = wl_display_create_queue(connection.display)
        self.wakeFD = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        self.ownsWakeFD = true
        reader = connection.reader
        reader.register(ObjectIdentifier(self), queue: queue, wakeFD: wakeFD)
    }

    deinit {
        reader.unregister(ObjectIdentifier(self))
        if let queue { wl_event_queue_destroy(queue) }
        if ownsWakeFD { close(wakeFD) }
    }

    /// Makes a running or the next `dispatch` return early. Safe from any thread.
    package func wake() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }

    /// A wrapper of `proxy` whose new objects and events go to this queue
    /// (wl_proxy_create_wrapper + wl_proxy_set_queue). Destroy it with `releaseWrapper`.
    func wrapper(of proxy: OpaquePointer) -> OpaquePointer {
        let raw = wl_proxy_create_wrapper(UnsafeMutableRawPointer(proxy))!
        let wrapped = OpaquePointer(raw)
        wl_proxy_set_queue(wrapped, queue)
        return wrapped
    }

    func releaseWrapper(_ wrapper: OpaquePointer) {
        wl_proxy_wrapper_destroy(UnsafeMutableRawPointer(wrapper))
    }

    /// Dispatches events already queued, or else flushes and waits up to `timeout` (nil:
    /// without limit) for the wake-up fd (the socket's reader found events for this queue,
    /// or another thread called ``wake()``) or one of `watching`, then dispatches. Returns
    /// the descriptors of `watching` that are readable. It never reads the socket: the
    /// connection's ``SocketReader`` does.
    @discardableResult
    package func dispatch(timeout: Duration?, watching: [Int32] = []) throws -> [Int32] {
        let dispatched = dispatchPending()
        if dispatched < 0 { throw lostError() }
        if dispatched > 0 { return [] }
        let polled = try poll(socketEvents: try flushForPoll(), timeout: timeout, watching: watching)
        if dispatchPending() < 0 { throw lostError() }
        return polled
    }

    /// Flushes what this and other threads queued, and says what to poll the socket for:
    /// nothing, or POLLOUT where the socket is full (the flush is retried then). A failure
    /// other than a closed socket (whose error the reader then finds) throws.
    private func flushForPoll() throws -> Int16 {
        guard wl_display_flush(connection.display) < 0 else { return 0 }
        if errno == EAGAIN { return Int16(POLLOUT) }
        guard errno == EPIPE else {
            let code = errno
            throw connection.failure() ?? .connectionLost(errno: code, message: nil)
        }
        return 0
    }

    /// Polls the wake-up fd, `watching`, and the socket for `socketEvents` (POLLOUT, or 0
    /// for not at all) for up to `timeout` (nil: forever), and drains the wake-up fd.
    /// Returns the readable descriptors of `watching`.
    private func poll(socketEvents: Int16, timeout: Duration?, watching: [Int32]) throws -> [Int32] {
        // On the stack: every thread polls for every batch of events and must not allocate
        // (only the list of readable descriptors is made, when there are any).
        try withUnsafeTemporaryAllocation(of: pollfd.self, capacity: 2 + watching.count) { fds in
            fds[0] = pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)
            // A negative fd is left out by poll.
            fds[1] = pollfd(fd: socketEvents != 0 ? wl_display_get_fd(connection.display) : -1,
                            events: socketEvents, revents: 0)
            for (index, fd) in watching.enumerated() { fds[2 + index] = pollfd(fd: fd, events: Int16(POLLIN), revents: 0) }
            let milliseconds = timeout.map { Int32(max(0, min($0.inSeconds * 1000, 86_400_000)).rounded(.up)) } ?? -1
            let ready = Glibc.poll(fds.baseAddress, nfds_t(fds.count), milliseconds)
            if ready < 0 && errno != EINTR { throw lostError() }
            guard ready > 0 else { return [] }
            if fds[0].revents & Int16(POLLIN) != 0 {
                var count: UInt64 = 0
                _ = read(wakeFD, &count, 8)
            }
            var readable: [Int32] = []
            for (index, fd) in watching.enumerated() where fds[2 + index].revents != 0 { readable.append(fd) }
            return readable
        }
    }

    /// Dispatches the events already read for this queue without waiting.
    @discardableResult
    package func dispatchPending() -> Int32 {
        reader.dispatching {
            if let queue { return wl_display_dispatch_queue_pending(connection.display, queue) }
            return wl_display_dispatch_pending(connection.display)
        }
    }

    /// Sends wl_display.sync on this queue and dispatches it until the answer arrives.
    func roundtrip() throws {
        let result = reader.dispatching {
            queue.map { wl_display_roundtrip_queue(connection.display, $0) } ?? wl_display_roundtrip(connection.display)
        }
        // Its reads may have brought events for other queues.
        reader.wakeQueuesHoldingEvents()
        if result < 0 { throw lostError() }
    }

    private func lostError() -> WaylandError {
        let code = errno
        return connection.failure() ?? .connectionLost(errno: code, message: LibwaylandLog.lastMessage)
    }
}
