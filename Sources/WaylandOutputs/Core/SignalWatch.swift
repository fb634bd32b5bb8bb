import CWayland
import Glibc

/// SIGINT and SIGTERM delivered as a readable file descriptor (signalfd), so the main
/// loop sees them between events instead of in a handler. Create it before any thread:
/// threads inherit the blocked mask, so only this descriptor receives the signals.
package final class SignalWatch {
    package let fileDescriptor: Int32
    /// The calling thread's mask before, put back when the watch goes.
    private var previous = sigset_t()

    package init(_ signals: [Int32] = [SIGINT, SIGTERM]) throws {
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in signals { sigaddset(&mask, signal) }
        guard pthread_sigmask(SIG_BLOCK, &mask, &previous) == 0 else { throw SignalWatchError(reason: "pthread_sigmask failed") }
        fileDescriptor = signalfd(-1, &mask, Int32(SFD_CLOEXEC | SFD_NONBLOCK))
        guard fileDescriptor >= 0 else { throw SignalWatchError(reason: "signalfd failed: \(String(cString: strerror(errno)))") }
    }

    deinit {
        close(fileDescriptor)
        pthread_sigmask(SIG_SETMASK, &previous, nil)
    }

    /// The signals received since the last call.
    package func take() -> [Int32] {
        var received: [Int32] = []
        var info = signalfd_siginfo()
        while read(fileDescriptor, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
            received.append(Int32(info.ssi_signo))
        }
        return received
    }
}

/// The signal mask or the signalfd could not be set up.
package struct SignalWatchError: Error, CustomStringConvertible {
    package let reason: String
    package var description: String { reason }
}
