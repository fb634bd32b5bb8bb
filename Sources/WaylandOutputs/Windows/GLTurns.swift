import Glibc

/// Who makes GL calls next where windows take turns (``Graphics/serializesGL``): of the
/// threads waiting, the one whose frame is due first (earliest deadline first; equal
/// deadlines in the order they came). A thread that just had its turn does not barge in
/// again ahead of one waiting with an earlier deadline: a 144 Hz output waiting between
/// the two GL sections of a 60 Hz output's frame gets the turn before that frame's second.
/// The order alone, without locks, so it can be tested on its own.
struct GLTurns {
    private struct Waiter {
        var deadline: UInt64
        var ticket: UInt64
    }

    private(set) var isHeld = false
    private var waiting: [Waiter] = []
    private var nextTicket: UInt64 = 0

    init() {
        // Room for more windows than one machine drives: no turn allocates.
        waiting.reserveCapacity(64)
    }

    /// A thread wants a turn for work due at `deadline`: its ticket.
    mutating func arrive(deadline: UInt64) -> UInt64 {
        let ticket = nextTicket
        nextTicket &+= 1
        waiting.append(Waiter(deadline: deadline, ticket: ticket))
        return ticket
    }

    /// Whether the thread holding `ticket` may take its turn now: nobody has one and no
    /// waiting thread's work is due before its own.
    func mayEnter(_ ticket: UInt64) -> Bool {
        guard !isHeld, let mine = waiting.first(where: { $0.ticket == ticket }) else { return false }
        return !waiting.contains { $0.deadline < mine.deadline || ($0.deadline == mine.deadline && $0.ticket < mine.ticket) }
    }

    /// The thread holding `ticket` takes its turn (after ``mayEnter(_:)`` said it may).
    mutating func enter(_ ticket: UInt64) {
        waiting.removeAll { $0.ticket == ticket }
        isHeld = true
    }

    /// The turn is over. Returns the ticket of the waiting thread whose turn is next (to be
    /// woken), nil when nobody waits.
    mutating func leave() -> UInt64? {
        isHeld = false
        var next: Waiter?
        for waiter in waiting where next.map({ waiter.deadline < $0.deadline || (waiter.deadline == $0.deadline && waiter.ticket < $0.ticket) }) ?? true {
            next = waiter
        }
        return next?.ticket
    }
}

/// The lock of ``Graphics/serialized(deadline:_:)``: a mutex over ``GLTurns``, and a
/// condition per waiting thread so that a turn ending wakes only the thread whose turn is
/// next (eight windows waking each other at every turn cost more than the order won).
// @unchecked: its state (GLTurns, the waiters) is read and written only with its pthread
// mutex held.
final class DeadlineLock: @unchecked Sendable {
    /// Conditions: one per waiting thread, and threads beyond them share the last (one
    /// thread per window: more than one machine drives).
    private let conditions: Int
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    /// The ticket waiting on each condition, UInt64.max where none does.
    private var waiters: [UInt64]
    private var turns = GLTurns()
    private(set) var sections: UInt64 = 0

    init(conditions: Int = 64) {
        self.conditions = max(1, conditions)
        waiters = [UInt64](repeating: .max, count: self.conditions)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: self.conditions)
        condition.initialize(repeating: pthread_cond_t(), count: self.conditions)
        for i in 0..<self.conditions { pthread_cond_init(condition + i, nil) }
    }

    deinit {
        for i in 0..<conditions { pthread_cond_destroy(condition + i) }
        condition.deinitialize(count: conditions)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` alone among this lock's users, once its turn comes (``GLTurns``).
    func withTurn<T>(deadline: UInt64, _ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        let ticket = turns.arrive(deadline: deadline)
        if !turns.mayEnter(ticket) {
            // A condition of its own (the first free one; with none free, the last, shared).
            let slot = waiters.firstIndex(of: .max) ?? conditions - 1
            if waiters[slot] == .max { waiters[slot] = ticket }
            while !turns.mayEnter(ticket) { pthread_cond_wait(condition + slot, mutex) }
            if waiters[slot] == ticket { waiters[slot] = .max }
        }
        turns.enter(ticket)
        sections &+= 1
        pthread_mutex_unlock(mutex)
        defer {
            pthread_mutex_lock(mutex)
            if let next = turns.leave() {
                // The next one's own condition, or where it shares the last, all on that one.
                if let slot = waiters.firstIndex(of: next) { pthread_cond_signal(condition + slot) }
                pthread_cond_broadcast(condition + conditions - 1)
            }
            pthread_mutex_unlock(mutex)
        }
        return try body()
    }
}
