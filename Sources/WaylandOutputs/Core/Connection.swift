import CWayland
import Glibc
import Synchronization

/// The connection to the Wayland compositor (a `wl_display`), its socket and its errors.
///
/// The connection is shared by every thread: one thread reads its socket
/// (``SocketReader``), each thread dispatches its own ``EventQueue``; this object's
/// `mainQueue` is the display's default queue, which the thread that created the
/// connection dispatches.
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
    /// The one thread that reads the socket.
    let reader: SocketReader

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
        do {
            reader = try SocketReader(display: display)
        } catch {
            wl_display_disconnect(display)
            close(wakeFD)
            throw WaylandError.connectionLost(errno: (error as? JoinableThreadError)?.code ?? EAGAIN,
                                              message: "\(error)")
        }
    }

    deinit {
        // No thread reads the display once it is gone.
        reader.stop()
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
        let result = reader.dispatching { wl_display_roundtrip(display) }
        reader.wakeQueuesHoldingEvents()
        if result < 0 {
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
    /// The main thread does not read the socket: ``SocketReader`` does, and wakes it when a
    /// read leaves events on the main queue. So a render thread busy for seconds delays no
    /// ping, hotplug or input event, only its own output, and a batch of events for one
    /// window wakes neither this thread nor the other windows' (BENCHMARKS.md, "The main
    /// thread answers").
    @discardableResult
    package func dispatch(timeout: Duration?, watching: [Int32] = []) throws -> [Int32] {
        runMainThreadWork()
        defer { runMainThreadWork() }
        return try mainQueue.dispatch(timeout: timeout, watching: watching)
    }

    /// Wakes each queue that holds events nobody has dispatched: called after a read by
    /// another than the connection's reader (Mesa, on its own queue inside eglSwapBuffers).
    func wakeQueuesHoldingEvents() {
        reader.wakeQueuesHoldingEvents()
    }
}

/// getenv as a Swift string.
package func environment(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
}
