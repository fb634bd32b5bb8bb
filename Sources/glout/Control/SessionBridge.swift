import Dispatch
import WaylandOutputs

/// Carries work from the control API's threads to the session's thread and its reply
/// back. A caller waits at most `patience` for the session to get to its work (then for
/// the work, once started); once the bridge closes (glout stopping), every waiting caller
/// is answered 503 at once and no more work runs.
final class SessionBridge: Sendable {
    private final class Call: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        /// Set once, under the bridge's lock.
        var reply: ControlReply?
    }

    private struct State {
        var closed = false
        var next = 0
        var waiting: [Int: Call] = [:]
    }

    private let post: @Sendable (@escaping @Sendable () -> Void) -> Void
    private let state = Locked(State())
    private let patience: Double

    /// `post` runs its work on the session's thread (``OutputSession/onSessionThread(_:)``).
    init(patience: Double = 5, post: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
        self.post = post
        self.patience = patience
    }

    /// Runs `work` on the session's thread and returns its reply, or 503 when the session
    /// does not get to it in time or glout is stopping. A 503 of this bridge's means the
    /// work never ran: work that started is waited for, its reply the caller's.
    func call(_ work: @escaping @Sendable () -> ControlReply) -> ControlReply {
        let call = Call()
        let key: Int? = state.withLock { state in
            guard !state.closed else { return nil }
            state.next += 1
            state.waiting[state.next] = call
            return state.next
        }
        guard let key else { return .error(ControlError(503, "glout is stopping")) }
        post { [state] in
            // Taken under the lock, so that the caller's giving up and the work's start
            // exclude each other; work after either does not run.
            guard state.withLock({ !$0.closed && $0.waiting.removeValue(forKey: key) != nil }) else { return }
            let reply = work()
            state.withLock { _ in call.reply = reply }
            call.done.signal()
        }
        if call.done.wait(timeout: .now() + patience) == .timedOut {
            let gaveUp = state.withLock { $0.waiting.removeValue(forKey: key) != nil }
            if gaveUp {
                return .error(ControlError(503, "glout did not get to the request within \(Int(patience)) s"))
            }
            // It started (or the bridge closed and answered): its reply comes.
            call.done.wait()
        }
        return state.withLock { _ in call.reply } ?? .error(ControlError(503, "glout is stopping"))
    }

    /// Runs `work` on the session's thread, unless the bridge has closed by then.
    func send(_ work: @escaping @Sendable () -> Void) {
        guard state.withLock({ !$0.closed }) else { return }
        post { [state] in
            if state.withLock({ !$0.closed }) { work() }
        }
    }

    /// Answers every waiting caller 503 and refuses new work. On the session's thread.
    func close() {
        state.withLock { state in
            state.closed = true
            for call in state.waiting.values {
                call.reply = .error(ControlError(503, "glout is stopping"))
                call.done.signal()
            }
            state.waiting = [:]
        }
    }
}

/// A weak reference to an object of the session's thread, carried through another thread
/// (a timer's handler) without keeping the object alive there: such a handler may be
/// released after glout has let the object go, and must not end it off its thread.
final class WeakSessionReference<Object: AnyObject>: @unchecked Sendable {
    weak var value: Object?
    init(_ value: Object) { self.value = value }
}

/// A value only the session's thread uses, carried through the server's threads to get
/// there (``SessionBridge`` runs the work that touches it on that thread).
struct SessionThreadOnly<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
