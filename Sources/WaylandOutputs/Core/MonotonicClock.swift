import Glibc

/// A moment on CLOCK_MONOTONIC, the clock of every time this library hands out
/// (presentation feedback on another clock is converted to it).
public struct MonotonicInstant: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Nanoseconds on CLOCK_MONOTONIC (since boot, not counting suspend): the value the
    /// kernel and wp_presentation give, for arithmetic at that level.
    public var nanoseconds: UInt64

    public init(nanoseconds: UInt64) {
        self.nanoseconds = nanoseconds
    }

    /// clock_gettime(CLOCK_MONOTONIC).
    public static var now: MonotonicInstant { MonotonicInstant(nanoseconds: MonotonicClock.now()) }

    public static func < (a: MonotonicInstant, b: MonotonicInstant) -> Bool { a.nanoseconds < b.nanoseconds }

    /// The instant `duration` later (earlier for a negative one), saturating at the
    /// clock's ends.
    public static func + (instant: MonotonicInstant, duration: Duration) -> MonotonicInstant {
        let delta = duration.inNanoseconds
        if delta >= 0 {
            let (sum, overflow) = instant.nanoseconds.addingReportingOverflow(UInt64(delta))
            return MonotonicInstant(nanoseconds: overflow ? .max : sum)
        }
        let magnitude = delta.magnitude
        return MonotonicInstant(nanoseconds: instant.nanoseconds > magnitude ? instant.nanoseconds - magnitude : 0)
    }

    public static func - (instant: MonotonicInstant, duration: Duration) -> MonotonicInstant {
        instant + (.zero - duration)
    }

    /// The time from `b` to `a` (negative when `a` is earlier).
    public static func - (a: MonotonicInstant, b: MonotonicInstant) -> Duration {
        a.nanoseconds >= b.nanoseconds ? .nanoseconds(Int64(clamping: a.nanoseconds - b.nanoseconds))
                                       : .zero - .nanoseconds(Int64(clamping: b.nanoseconds - a.nanoseconds))
    }

    /// The time from now to this instant (negative when it has passed).
    public var fromNow: Duration { self - .now }

    /// Seconds since boot, with nanoseconds.
    public var description: String { "\(nanoseconds / 1_000_000_000).\(String(nanoseconds % 1_000_000_000 + 1_000_000_000).dropFirst()) s" }
}

extension Duration {
    /// This duration in seconds.
    public var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// This duration in whole nanoseconds (rounded toward zero, saturating).
    public var inNanoseconds: Int64 {
        let (whole, overflow) = components.seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return components.seconds < 0 ? .min : .max }
        return whole.addingReportingOverflow(components.attoseconds / 1_000_000_000).partialValue
    }
}

/// Nanoseconds on POSIX clocks, for the library's own arithmetic.
enum MonotonicClock {
    /// clock_gettime(CLOCK_MONOTONIC) in nanoseconds.
    static func now() -> UInt64 { read(CLOCK_MONOTONIC) }

    /// clock_gettime on any POSIX clock id, in nanoseconds.
    static func read(_ clock: clockid_t) -> UInt64 {
        var ts = timespec()
        clock_gettime(clock, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// Thread CPU time of the calling thread (CLOCK_THREAD_CPUTIME_ID), in nanoseconds.
    static func threadCPU() -> UInt64 { read(CLOCK_THREAD_CPUTIME_ID) }
}
