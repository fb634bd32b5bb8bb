import CWayland
import Glibc
import Synchronization

/// The connection to the Wayland compositor (a `wl_display`), its socket and its errors.
///
/// The connection is shared by every thread: each thread dispatches its own
/// ``EventQueue``; this object's `mainQueue` is the display's default queue, which the
/// thread that created the connection dispatches.
// @unchecked: the wl_display is a raw pointer, and libwayland locks it for every thread;
// the work handed to the main thread is under a Locked, the rest is immutable.
package final class Connection: @unchecked Sendable {
    /// The `wl_display` proxy.
    let display: OpaquePointer
    /// The socket this connection reached, for messages.
    package let socket: String
    let log: Log
    /// Wakes the thread dispatching the main queue (an eventfd).
    private let wakeFD: Int32
    /// The thread that made the connection: it dispatches the main queue.
    private let mainThread = pthread_self()
    /// Work other threads handed to the main thread (see ``onMainThread(_:)``).
    private let mainThreadWork = Locked<[() -> Void]>([])

    /// Connects with wl_display_connect: to `name`, else $WAYLAND_DISPLAY, else wayland-0.
    package init(name: String? = nil, log: Log = .standardError(prefix: "")) throws {
        LibwaylandLog.install(log)
        self.log = log
        let socket = Connection.socketPath(for: name)
        guard let display = wl_display_connect(name) else {
            throw WaylandError.noCompositor(socket: socket)
        }
        self.display = display
        self.socket = socket
        self.wakeFD = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
    }

    deinit {
        wl_display_disconnect(display)
        close(wakeFD)
    }

    /// The path libwayland tries for a display name, as it resolves it.
    package static func socketPath(for name: String?) -> String {
        if name == nil, let fd = environment("WAYLAND_SOCKET") { return "WAYLAND_SOCKET=\(fd)" }
        let display = name ?? environment("WAYLAND_DISPLAY") ?? "wayland-0"
        if display.hasPrefix("/") { return display }
        guard let runtime = environment("XDG_RUNTIME_DIR") else { return "$XDG_RUNTIME_DIR/\(display) (XDG_RUNTIME_DIR is not set)" }
        return runtime + "/" + display
    }

    /// The file descriptor of the display socket.
    package var fileDescriptor: Int32 { wl_display_get_fd(display) }

    /// The error that broke the connection, if it is broken (wl_display_get_error).
    package func failure() -> WaylandError? {
        let code = wl_display_get_error(display)
        guard code != 0 else { return nil }
        if code == EPROTO {
            var interface: UnsafePointer<wl_interface>?
            var id: UInt32 = 0
            let protocolCode = wl_display_get_protocol_error(display, &interface, &id)
            let name = interface.map { String(cString: $0.pointee.name) } ?? "unknown interface"
            return .protocolError(interface: name, objectID: id, code: protocolCode,
                                  message: LibwaylandLog.lastMessage)
        }
        return .connectionLost(errno: code, message: nil)
    }

    /// Throws the connection's error if it is broken.
    package func check() throws {
        if let failure = failure() { throw failure }
    }

    /// Sends a wl_display.sync and dispatches the main queue until the compositor has
    /// answered it: every request sent before has been handled, every event it caused
    /// has been dispatched (wl_display_roundtrip).
    package func roundtrip() throws {
        if dispatching({ wl_display_roundtrip(display) }) < 0 {
            let code = errno
            throw failure() ?? .connectionLost(errno: code, message: nil)
        }
    }

    /// Sends buffered requests without waiting (wl_display_flush).
    package func flush() {
        _ = wl_display_flush(display)
    }

    /// Makes a running or the next `dispatch` on the main queue return early.
    /// Safe from any thread.
    package func wakeMainQueue() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }

    /// Whether the caller is the thread that made the connection and dispatches its main queue.
    var isMainThread: Bool { pthread_equal(pthread_self(), mainThread) != 0 }

    /// Stops the program when called elsewhere than on the thread that made the
    /// connection: the main queue, the registry and the list of outputs are that thread's.
    func requireMainThread(_ function: StaticString = #function) {
        precondition(isMainThread, "\(function) must be called on the thread that made the Wayland connection")
    }

    /// Runs `work` on the main thread: now when called there, else at the next dispatch.
    func onMainThread(_ work: @escaping () -> Void) {
        if isMainThread { return work() }
        mainThreadWork.withLock { $0.append(work) }
        wakeMainQueue()
    }

    /// Runs what other threads handed to the main thread.
    private func runMainThreadWork() {
        let work = mainThreadWork.withLock { work in defer { work.removeAll() }; return work }
        for item in work { item() }
    }

    /// The display's default queue, dispatched by the thread that owns the connection.
    private(set) lazy var mainQueue = EventQueue(connection: self, queue: nil, wakeFD: wakeFD)

    /// Dispatches the main queue once: events already read, or waits up to `timeout`
    /// (nil: forever) for events or one of `watching` to become readable.
    /// Returns the descriptors from `watching` that are readable.
    ///
    /// This thread watches the socket itself, so a render thread busy for seconds delays
    /// no ping, hotplug or input event, only its own output; but it takes part in a read
    /// only once it sees unread data there (`EventQueue.dispatchBesideReaders`).
    /// A thread that waits prepared to read holds back every other reader until it reads
    /// too (libwayland reads once all prepared threads got there), and a render thread
    /// must not wait for this one to be scheduled. Events a render thread reads for this
    /// queue reach it through `forwardMainQueueEvents()`. The price is a wake-up of this
    /// thread for each batch of events, its own or not (BENCHMARKS.md, "The main thread
    /// answers").
    @discardableResult
    package func dispatch(timeout: Duration?, watching: [Int32] = []) throws -> [Int32] {
        runMainThreadWork()
        defer { runMainThreadWork() }
        return try mainQueue.dispatchBesideReaders(timeout: timeout, watching: watching)
    }

    /// Render threads that read the socket for their own queues (every ``OutputWindow``'s).
    private let readers = Atomic<Int>(0)
    var hasRenderThreadReaders: Bool { readers.load(ordering: .acquiring) > 0 }
    func readerStarted() { readers.add(1, ordering: .releasing) }
    func readerStopped() { readers.subtract(1, ordering: .releasing) }

    /// Threads dispatching one of this connection's queues now (``EventQueue/dispatchPending()``
    /// and the roundtrips, on any thread).
    private let dispatchers = Atomic<Int>(0)

    /// Runs `body`, a dispatch of one of this connection's queues, counted in
    /// ``waitForDispatchers(upTo:)``.
    func dispatching<Result>(_ body: () -> Result) -> Result {
        dispatchers.add(1, ordering: .sequentiallyConsistent)
        defer { dispatchers.subtract(1, ordering: .sequentiallyConsistent) }
        return body()
    }

    /// Waits, for at most `limit`, until no thread dispatches. libwayland hands an event to
    /// its handler with its lock released, and wl_display.error's handler records the
    /// protocol error only at its end: a thread that read the end of the stream meanwhile
    /// would record "connection closed" first, and the protocol error would be lost
    /// (EventQueue reads the end of the stream only after this). Not counted, so not waited
    /// for: what Mesa dispatches on its own queue inside eglSwapBuffers (the EGL path), and
    /// the end of the stream that libwayland's roundtrip reads itself.
    func waitForDispatchers(upTo limit: Duration) {
        let deadline = MonotonicClock.now() + UInt64(limit.inNanoseconds)
        while dispatchers.load(ordering: .sequentiallyConsistent) > 0, MonotonicClock.now() < deadline {
            usleep(500)
        }
    }

    /// Called after another thread read the socket (an event queue of its own, Mesa's):
    /// wakes the main thread if events for the main queue are waiting.
    func forwardMainQueueEvents() {
        if mainQueueHoldsEvents { wakeMainQueue() }
    }

    /// Whether events wait on the main queue, undispatched. From any thread:
    /// wl_display_prepare_read fails exactly when the default queue is not empty; when it
    /// succeeds the intent is withdrawn at once.
    var mainQueueHoldsEvents: Bool {
        guard wl_display_prepare_read(display) == 0 else { return true }
        wl_display_cancel_read(display)
        return false
    }
}

/// getenv as a Swift string.
package func environment(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
}
