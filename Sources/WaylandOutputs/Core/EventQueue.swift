import CWayland
import Glibc

/// One Wayland event queue and the loop that waits on it: the textbook sequence
/// (prepare_read, flush, poll on the display fd and a wake-up fd, read_events or
/// cancel_read, dispatch_pending), safe to run on several threads at once, one queue each.
// @unchecked: the wl_event_queue is a raw pointer; libwayland's prepare_read / read_events
// protocol makes reading from several threads safe, and each queue is dispatched by one.
package final class EventQueue: @unchecked Sendable {
    unowned let connection: Connection
    /// The wl_event_queue, or nil for the display's default queue.
    let queue: OpaquePointer?
    /// Readable when another thread wants this queue's loop to return early.
    let wakeFD: Int32
    private let ownsWakeFD: Bool

    init(connection: Connection, queue: OpaquePointer?, wakeFD: Int32) {
        self.connection = connection
        self.queue = queue
        self.wakeFD = wakeFD
        self.ownsWakeFD = false
    }

    /// A new queue of its own (wl_display_create_queue) with its own wake-up eventfd, for
    /// a thread of your own to dispatch.
    package init(connection: Connection) {
        self.connection = connection
        self.queue = wl_display_create_queue(connection.display)
        self.wakeFD = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        self.ownsWakeFD = true
    }

    deinit {
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

    /// Dispatches events already queued, or else waits up to `timeout` (nil:
    /// without limit) for the display socket, the wake-up fd or one of `watching`, reads
    /// and dispatches. Returns the descriptors of `watching` that are readable.
    @discardableResult
    package func dispatch(timeout: Duration?, watching: [Int32] = []) throws -> [Int32] {
        let display = connection.display
        if prepareRead() != 0 {
            if dispatchPending() < 0 { throw lostError() }
            return []
        }
        let events: Int16
        do {
            events = try flushForPoll()
        } catch {
            wl_display_cancel_read(display)
            throw error
        }
        let polled: (socket: Int16, watching: [Int32])
        do {
            polled = try poll((wl_display_get_fd(display), events), timeout: timeout, watching: watching)
        } catch {
            wl_display_cancel_read(display)
            throw error
        }
        if polled.socket & Int16(POLLIN | POLLERR | POLLHUP) != 0 {
            let socket = wl_display_get_fd(display)
            if holdsOnlyEndOfStream(socket) {
                if leavesEndOfStream() {
                    wl_display_cancel_read(display)
                    usleep(2_000)
                    return polled.watching
                }
                guard try dispatchBeforeEndOfStream() else { return polled.watching }
            } else {
                endLeftSince = nil
            }
            if wl_display_read_events(display) < 0 { throw lostError() }
            // What this read brought for the main queue wakes the main thread, which does
            // not hold the socket while it waits: whoever runs this queue (a window's
            // thread, or a loop of the application's own).
            if queue != nil { connection.forwardMainQueueEvents() }
        } else {
            wl_display_cancel_read(display)
        }
        if dispatchPending() < 0 { throw lostError() }
        return polled.watching
    }

    /// Flushes what this and other threads queued, and says what to poll the socket for:
    /// input, and output too where the socket is full (the flush is retried on POLLOUT).
    /// A failure other than a closed socket (whose error the read then finds) throws.
    private func flushForPoll() throws -> Int16 {
        guard wl_display_flush(connection.display) < 0 else { return Int16(POLLIN) }
        if errno == EAGAIN { return Int16(POLLIN | POLLOUT) }
        guard errno == EPIPE else {
            let code = errno
            throw connection.failure() ?? .connectionLost(errno: code, message: nil)
        }
        return Int16(POLLIN)
    }

    /// The main queue's wait (``Connection/dispatch(timeout:watching:)``): as
    /// ``dispatch(timeout:watching:)``, but not prepared to read while it waits. It polls
    /// the socket and reads what it finds there unread (its render threads busy, or none),
    /// taking part in the read for as long as libwayland's read takes. Events another thread reads for this queue
    /// wake it through the wake-up fd (``Connection/forwardMainQueueEvents()``).
    func dispatchBesideReaders(timeout: Duration?, watching: [Int32]) throws -> [Int32] {
        let display = connection.display
        if prepareRead() != 0 {
            if dispatchPending() < 0 { throw lostError() }
            return []
        }
        // Not a reader while it waits: the readers that are do not wait for this thread.
        wl_display_cancel_read(display)
        let events = try flushForPoll()
        let socket = wl_display_get_fd(display)
        let polled = try poll((socket, events), timeout: timeout, watching: watching)
        // Prepared, this thread holds what the socket has until it reads or cancels: no other
        // thread can read it away in between. What it finds decides which: a read that
        // found the socket empty would wait for the other prepared threads, which may be
        // polling that empty socket without a timeout (a window whose picture stands
        // still), and they would wait for it.
        if polled.socket & Int16(POLLIN | POLLERR | POLLHUP) != 0, prepareRead() == 0 {
            let found = mainThreadShouldRead(socket)
            if found.read {
                if found.endOfStream {
                    guard try dispatchBeforeEndOfStream() else { return polled.watching }
                }
                // Every other prepared thread is woken by the same data and reads with it.
                if wl_display_read_events(display) < 0 { throw lostError() }
            } else {
                wl_display_cancel_read(display)
                // The socket stays readable at its end: not a busy loop meanwhile.
                if endSeen != nil { usleep(2_000) }
            }
        }
        if dispatchPending() < 0 { throw lostError() }
        return polled.watching
    }

    /// How long the end of the stream alone is left to the render threads. Two threads
    /// reading back to back race at a hang-up: the second reads the end of the stream,
    /// and libwayland then records "connection closed" (and dispatches nothing more)
    /// before the first has dispatched the protocol error that came just before it. A
    /// thread that reads dispatches at once; this is far below what anyone waits for.
    static let mainThreadEndGrace: Duration = .milliseconds(250)
    /// When the main thread first found only the end of the stream on the socket.
    private var endSeen: UInt64?

    /// Whether the main thread, prepared to read, reads what the socket holds now: data at
    /// once; nothing (another thread read it before this one was prepared), never; the end
    /// of the stream alone (no data before it) at once where no render thread reads, else
    /// once ``mainThreadEndGrace`` passed (the render threads read it themselves unless
    /// they are all stalled). A socket error other than EAGAIN or EINTR (ECONNRESET) counts
    /// as the end of the stream. `endOfStream`: what it reads is the end of the stream
    /// alone, which the caller reads only after ``dispatchBeforeEndOfStream()``.
    private func mainThreadShouldRead(_ socket: Int32) -> (read: Bool, endOfStream: Bool) {
        var byte: UInt8 = 0
        let peeked = recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        if peeked < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
            // Read away meanwhile.
            endSeen = nil
            return (false, false)
        }
        // Any other error (ECONNRESET, which this peek took) is an end of the stream.
        guard peeked <= 0 else {
            endSeen = nil
            return (true, false)
        }
        guard connection.hasRenderThreadReaders else { return (true, true) }
        let now = MonotonicClock.now()
        let since = endSeen ?? now
        endSeen = since
        return (now - since >= UInt64(EventQueue.mainThreadEndGrace.inNanoseconds), true)
    }

    /// How long a thread reading for a queue of its own leaves the end of the stream to the
    /// main thread while events it has not dispatched wait on the main queue.
    static let endGraceBesideMainQueue: Duration = .milliseconds(100)
    /// When this queue's thread first left the end of the stream.
    private var endLeftSince: UInt64?

    /// Whether this queue's thread, prepared to read, leaves the end of the stream, all the
    /// socket holds, alone for now: the main queue holds events not yet dispatched, which
    /// the compositor sent before it hung up; read now, the end of the stream would set
    /// "connection closed", and libwayland would dispatch nothing more. The main thread is
    /// woken to dispatch them; for at most ``endGraceBesideMainQueue``.
    private func leavesEndOfStream() -> Bool {
        guard queue != nil, connection.mainQueueHoldsEvents else { return false }
        connection.wakeMainQueue()
        let now = MonotonicClock.now()
        let since = endLeftSince ?? now
        endLeftSince = since
        return now - since < UInt64(EventQueue.endGraceBesideMainQueue.inNanoseconds)
    }

    /// Whether the socket, polled readable, holds the end of the stream and nothing before
    /// it, or an error (ECONNRESET: the compositor closed it with requests of ours unread;
    /// this peek takes that error, the read then finds the end).
    private func holdsOnlyEndOfStream(_ socket: Int32) -> Bool {
        var byte: UInt8 = 0
        let peeked = recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return peeked == 0 || (peeked < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
    }

    /// Before this thread, prepared, reads the end of the stream: withdraws; dispatches what
    /// other threads read for this queue, and with it libwayland's own queue, which comes
    /// first in every dispatch and holds the wl_display.error the compositor sent before
    /// hanging up; waits for the threads that are dispatching (one of them may be in that
    /// error's handler); then prepares again. Read first, the end of the stream would
    /// record "connection closed", after which libwayland dispatches nothing and records
    /// no other error: the protocol error another thread read but had not yet dispatched
    /// would be lost (no queue's prepare_read sees libwayland's own queue). Returns
    /// whether this thread is prepared to read again (not while its queue holds events:
    /// its next turn dispatches them first).
    private func dispatchBeforeEndOfStream() throws -> Bool {
        wl_display_cancel_read(connection.display)
        if dispatchPending() < 0 { throw lostError() }
        connection.waitForDispatchers(upTo: EventQueue.endGraceBesideMainQueue)
        return prepareRead() == 0
    }

    /// Polls `socket`, the wake-up fd and `watching` for up to `timeout` (nil: forever),
    /// and drains the wake-up fd. Returns the socket's revents (0 on a timeout or an
    /// interruption) and the readable descriptors of `watching`.
    private func poll(_ socket: (fd: Int32, events: Int16), timeout: Duration?,
                      watching: [Int32]) throws -> (socket: Int16, watching: [Int32]) {
        // On the stack: every thread polls for every batch of events and must not allocate
        // (only the list of readable descriptors is made, when there are any).
        try withUnsafeTemporaryAllocation(of: pollfd.self, capacity: 2 + watching.count) { fds in
            fds[0] = pollfd(fd: socket.fd, events: socket.events, revents: 0)
            fds[1] = pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)
            for (index, fd) in watching.enumerated() { fds[2 + index] = pollfd(fd: fd, events: Int16(POLLIN), revents: 0) }
            let milliseconds = timeout.map { Int32(max(0, min($0.inSeconds * 1000, 86_400_000)).rounded(.up)) } ?? -1
            let ready = Glibc.poll(fds.baseAddress, nfds_t(fds.count), milliseconds)
            if ready < 0 && errno != EINTR { throw lostError() }
            guard ready > 0 else { return (0, []) }
            if fds[1].revents & Int16(POLLIN) != 0 {
                var count: UInt64 = 0
                _ = read(wakeFD, &count, 8)
            }
            var readable: [Int32] = []
            for (index, fd) in watching.enumerated() where fds[2 + index].revents != 0 { readable.append(fd) }
            return (fds[0].revents, readable)
        }
    }

    /// Dispatches the events already read for this queue without waiting.
    @discardableResult
    package func dispatchPending() -> Int32 {
        connection.dispatching {
            if let queue { return wl_display_dispatch_queue_pending(connection.display, queue) }
            return wl_display_dispatch_pending(connection.display)
        }
    }

    /// Sends wl_display.sync on this queue and dispatches it until the answer arrives.
    func roundtrip() throws {
        let result = connection.dispatching {
            queue.map { wl_display_roundtrip_queue(connection.display, $0) } ?? wl_display_roundtrip(connection.display)
        }
        if result < 0 { throw lostError() }
        if queue != nil { connection.forwardMainQueueEvents() }
    }

    private func prepareRead() -> Int32 {
        if let queue { return wl_display_prepare_read_queue(connection.display, queue) }
        return wl_display_prepare_read(connection.display)
    }

    private func lostError() -> WaylandError {
        let code = errno
        return connection.failure() ?? .connectionLost(errno: code, message: LibwaylandLog.lastMessage)
    }
}
