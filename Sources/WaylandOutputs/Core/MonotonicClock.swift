import Glibc

/// Nanoseconds on CLOCK_MONOTONIC, the clock every timestamp in this library uses
/// unless it says otherwise (presentation feedback may name another clock).
public enum MonotonicClock {
    /// clock_gettime(CLOCK_MONOTONIC) in nanoseconds.
    public static func now() -> UInt64 { read(CLOCK_MONOTONIC) }

    /// clock_gettime on any POSIX clock id, in nanoseconds.
    public static func read(_ clock: clockid_t) -> UInt64 {
        var ts = timespec()
        clock_gettime(clock, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// Thread CPU time of the calling thread (CLOCK_THREAD_CPUTIME_ID), in nanoseconds.
    public static func threadCPU() -> UInt64 { read(CLOCK_THREAD_CPUTIME_ID) }
}
