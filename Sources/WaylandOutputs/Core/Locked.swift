import Glibc

/// A value shared between threads, reached only under a lock (a pthread mutex).
///
/// The library's shared state uses this rather than `Synchronization.Mutex`: on Linux
/// that mutex waits on a futex inside the standard library, where ThreadSanitizer cannot
/// see it, so every access it guards is reported as a race (checked with a two-thread
/// counter: `Mutex` gave "Swift access race" reports for a correct count, this type
/// none). ThreadSanitizer intercepts pthread mutexes, so a race it reports around this
/// type is real. Locking allocates nothing.
// @unchecked: the value is reached only with the mutex held.
package final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    package init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the value while holding the lock.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
