import Glibc

/// A joinable POSIX thread. Foundation's Thread cannot be joined, and an output's
/// teardown must know that its render loop has finished before its proxies go.
package final class JoinableThread {
    private final class Start {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    private var thread = pthread_t()
    private var joined = false

    /// Starts `body` on a new thread named `name` (truncated to 15 bytes, the kernel's limit).
    package init(name: String, body: @escaping @Sendable () -> Void) throws {
        let threadName = String(name.utf8.prefix(15)) ?? "glout"
        let start = Unmanaged.passRetained(Start {
            nameCurrentThread(threadName)
            body()
        }).toOpaque()
        let result = pthread_create(&thread, nil, { argument in
            let start = Unmanaged<Start>.fromOpaque(argument!).takeRetainedValue()
            start.body()
            return nil
        }, start)
        guard result == 0 else {
            Unmanaged<Start>.fromOpaque(start).release()
            throw JoinableThreadError(code: result)
        }
    }

    /// Waits for the thread to finish (pthread_join). Calling it again does nothing.
    package func join() {
        guard !joined else { return }
        joined = true
        pthread_join(thread, nil)
    }

    deinit { join() }
}

/// Names the calling thread for top, perf and gdb (pthread_setname_np is not imported:
/// the kernel's comm file does the same).
private func nameCurrentThread(_ name: String) {
    let fd = open("/proc/thread-self/comm", O_WRONLY)
    guard fd >= 0 else { return }
    var name = name
    name.withUTF8 { bytes in _ = write(fd, bytes.baseAddress, bytes.count) }
    close(fd)
}

/// pthread_create failed.
package struct JoinableThreadError: Error, CustomStringConvertible {
    let code: Int32
    package var description: String { "could not start a thread: \(String(cString: strerror(code)))" }
}
