import CWayland
import Glibc
import Synchronization

/// The one thread that reads the display socket ("wayland-reader").
///
/// It waits on the socket with libwayland's read protocol (prepare_read on a queue of its
/// own that never holds events, flush, poll, read_events or cancel_read), dispatches
/// libwayland's own queue at once (wl_display.error and delete_id), and wakes every queue
/// the read left events on. The threads that dispatch those queues (the main thread, each
/// window's render thread) never read: they dispatch what is there and wait on their
/// wake-up fd, so a thread that stalls holds back no other, and a batch of events wakes
/// only the queues it is for. Other readers (libwayland's roundtrips, Mesa inside
/// eglSwapBuffers) read beside it by the same protocol; whoever ran them calls
/// ``wakeQueuesHoldingEvents()`` after.
///
/// The end of the stream is read only once every queue has dispatched what came before
/// it (for at most ``endGrace``): read, it records "connection closed", after which
/// libwayland dispatches nothing more.
// @unchecked: `display` is a raw pointer that libwayland locks for every thread; the
// queues are under a Locked, the rest are atomics or set once.
final class SocketReader: @unchecked Sendable {
    /// How long the end of the stream waits for the queues to dispatch the events the
    /// compositor sent before it.
    static let endGrace: Duration = .milliseconds(250)

    private let display: OpaquePointer
    /// A queue of the reader's own, always empty: preparing to read on it always succeeds,
    /// and dispatching it dispatches libwayland's own queue first.
    private let ownQueue: OpaquePointer
    /// Readable when the reader is to stop.
    private let stopFD: Int32
    private var thread: JoinableThread?
    /// The queues that threads dispatch: the wl_event_queue (nil for the default queue)
    /// and the eventfd that wakes its thread.
    private let queues = Locked<[ObjectIdentifier: (queue: OpaquePointer?, wakeFD: Int32)]>([:])
    /// Threads dispatching a queue now (``dispatching(_:)``).
    private let dispatchers = Atomic<Int>(0)

    init(display: OpaquePointer) throws {
        self.display = display
        ownQueue = wl_display_create_queue(display)
        stopFD = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        thread = try JoinableThread(name: "wayland-reader") { [self] in run() }
    }

    /// Stops and joins the thread, and destroys the reader's queue. The connection calls
    /// it before it disconnects the display; after it, the reader touches the display no
    /// more (the queues it still holds are not read for).
    func stop() {
        guard let thread else { return }
        var one: UInt64 = 1
        _ = write(stopFD, &one, 8)
        thread.join()
        self.thread = nil
        wl_event_queue_destroy(ownQueue)
    }

    deinit {
        close(stopFD)
    }

    /// Registers a queue whose thread `wakeFD` wakes when a read leaves events on it.
    func register(_ key: ObjectIdentifier, queue: OpaquePointer?, wakeFD: Int32) {
        queues.withLock { $0[key] = (queue, wakeFD) }
    }

    /// Unregisters a queue. Once it returns the reader no longer touches it.
    func unregister(_ key: ObjectIdentifier) {
        _ = queues.withLock { $0.removeValue(forKey: key) }
    }

    /// Runs `body`, a dispatch of one of the queues, counted for the end of the stream.
    func dispatching<Result>(_ body: () -> Result) -> Result {
        dispatchers.add(1, ordering: .sequentiallyConsistent)
        defer { dispatchers.subtract(1, ordering: .sequentiallyConsistent) }
        return body()
    }

    /// Wakes each queue that holds events not yet dispatched. From any thread.
    func wakeQueuesHoldingEvents() {
        queues.withLock { queues in
            for (queue, wakeFD) in queues.values where holdsEvents(queue) { wake(wakeFD) }
        }
    }

    /// Whether `queue` (nil: the default queue) holds events: wl_display_prepare_read
    /// fails exactly then; when it succeeds the intent is withdrawn at once.
    func holdsEvents(_ queue: OpaquePointer?) -> Bool {
        let prepared = queue.map { wl_display_prepare_read_queue(display, $0) } ?? wl_display_prepare_read(display)
        guard prepared == 0 else { return true }
        wl_display_cancel_read(display)
        return false
    }

    private func wake(_ fd: Int32) {
        var one: UInt64 = 1
        _ = write(fd, &one, 8)
    }

    private func wakeEveryQueue() {
        queues.withLock { queues in
            for entry in queues.values { wake(entry.wakeFD) }
        }
    }

    // MARK: - The thread

    private func run() {
        let socket = wl_display_get_fd(display)
        while true {
            guard wl_display_prepare_read_queue(display, ownQueue) == 0 else {
                // Never holds events; dispatching it runs libwayland's own queue.
                _ = wl_display_dispatch_queue_pending(display, ownQueue)
                continue
            }
            // Requests other threads queued but could not send (a full socket) go now.
            _ = wl_display_flush(display)
            let readable = poll(socket)
            guard readable.socket || readable.stop else {
                wl_display_cancel_read(display)
                continue
            }
            if readable.stop {
                wl_display_cancel_read(display)
                return
            }
            if readable.endAhead, holdsOnlyEndOfStream(socket) {
                wl_display_cancel_read(display)
                letQueuesDispatch()
                guard wl_display_prepare_read_queue(display, ownQueue) == 0 else { continue }
            }
            let read = wl_display_read_events(display)
            // wl_display.error is dispatched before the next read can bring the end of the
            // stream, which would otherwise record "connection closed" in its place.
            let dispatched = wl_display_dispatch_queue_pending(display, ownQueue)
            if read < 0 || dispatched < 0 {
                // Every thread hears of it at its next dispatch, which fails.
                wakeEveryQueue()
                return
            }
            wakeQueuesHoldingEvents()
        }
    }

    /// POLLRDHUP, which Glibc defines only with _GNU_SOURCE (0x2000 on every Linux
    /// architecture): the compositor closed its end.
    private static let pollPeerHangUp: Int16 = 0x2000

    /// Polls the socket and the stop fd without limit; EINTR counts as nothing readable.
    private func poll(_ socket: Int32) -> (socket: Bool, stop: Bool, endAhead: Bool) {
        var fds = (pollfd(fd: socket, events: Int16(POLLIN) | SocketReader.pollPeerHangUp, revents: 0),
                   pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0))
        let ready = withUnsafeMutablePointer(to: &fds) { pointer in
            pointer.withMemoryRebound(to: pollfd.self, capacity: 2) { Glibc.poll($0, 2, -1) }
        }
        guard ready > 0 else { return (false, false, false) }
        let revents = fds.0.revents
        return (revents != 0, fds.1.revents != 0, revents & SocketReader.pollPeerHangUp | Int16(POLLHUP | POLLERR) != 0)
    }

    /// Whether the socket holds the end of the stream and no data before it, or an error
    /// (ECONNRESET: the compositor closed it with requests of ours unread).
    private func holdsOnlyEndOfStream(_ socket: Int32) -> Bool {
        var byte: UInt8 = 0
        let peeked = recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return peeked == 0 || (peeked < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
    }

    /// Before the end of the stream is read: wakes the queues that hold events and waits,
    /// for at most ``endGrace``, until none holds any and no thread is dispatching (a
    /// handler running when the end is read would have the rest of its batch dropped).
    private func letQueuesDispatch() {
        let deadline = MonotonicClock.now() + UInt64(SocketReader.endGrace.inNanoseconds)
        while MonotonicClock.now() < deadline {
            let holding = queues.withLock { queues in
                queues.values.filter { holdsEvents($0.queue) }.map(\.wakeFD)
            }
            guard !holding.isEmpty || dispatchers.load(ordering: .sequentiallyConsistent) > 0 else { return }
            for fd in holding { wake(fd) }
            usleep(1_000)
        }
    }
}
