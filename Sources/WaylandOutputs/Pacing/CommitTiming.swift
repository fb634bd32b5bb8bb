import CWayland
import Glibc

/// wp_fifo_v1 and wp_commit_timer_v1 for one surface, where the compositor offers them
/// (mutter 48): where asked (``DisplayLinkSettings/usesCommitTiming``), a commit carries
/// a timestamp just after the refresh before the one it targets, so the compositor shows
/// it at that refresh and not before; and a fifo barrier, so each frame stays on screen
/// for at least one refresh and a frame committed early waits its turn instead of
/// replacing one not yet shown. Frame callbacks
/// still wake the display link.
///
/// Made, used and destroyed on the window's thread, before its wl_surface goes.
final class CommitTiming {
    private var fifo: OpaquePointer?
    private var timer: OpaquePointer?
    /// The presentation clock (wp_presentation.clock_id) the timestamps are on, where this
    /// machine reads it.
    private let clock: clockid_t?
    /// How long before the target refresh the timestamp is, where the refresh period is
    /// not known: half a millisecond, as Mesa's Vulkan WSI does, so that jitter in the
    /// compositor's own clock cannot push the frame to the refresh after.
    static let minimumLead: UInt64 = 500_000

    /// How long before a target refresh of `period` the timestamp is: a period less 1 ms,
    /// just after the refresh before the target. The compositor shows a commit at the first
    /// refresh at or after its timestamp, which is then the target, however far (up to a
    /// period less 1 ms) the learnt grid and the compositor's own plan of its refreshes
    /// differ: on llvmpipe, mutter's presented times come a few milliseconds after the
    /// refresh its clock planned. mutter 48.7 also compares the timestamp with the moment
    /// it starts a frame, before the refresh: Mesa's half a millisecond held every run's
    /// commits for good here, half a period 5 runs of 5, this 2 of 5 one day and 5 of 5
    /// another (a commit timestamped ahead of the moment it is sent is what it holds;
    /// OutputWindow then remakes the surface and sends none ahead).
    static func lead(period: UInt64) -> UInt64 {
        (2_000_000...1_000_000_000).contains(period) ? period - 1_000_000 : minimumLead
    }

    /// A timestamp was sent and no commit has followed yet.
    private var timestampPending = false
    /// That timestamp, on CLOCK_MONOTONIC.
    private var pendingTime: UInt64 = 0
    /// Whether the last commit carried a timestamp that was still ahead when it was
    /// committed (a timestamp sent for a frame not committed rides on the next commit).
    private(set) var lastCommitAhead = false

    /// The surface was committed: what was prepared went with it.
    func committed() {
        lastCommitAhead = timestampPending && pendingTime > MonotonicClock.now()
        timestampPending = false
    }

    /// Commits with a timestamp, and with fifo barriers, so far.
    private(set) var timestamps: UInt64 = 0
    private(set) var barriers: UInt64 = 0

    /// The objects for `surface`, on `queue`, from the managers the compositor offers (nil:
    /// not offered); `clockID` is wp_presentation's clock.
    init(queue: EventQueue, surface: OpaquePointer, fifoManager: OpaquePointer?, timingManager: OpaquePointer?,
         clockID: UInt32) {
        if let fifoManager {
            let manager = queue.wrapper(of: fifoManager)
            fifo = wp_fifo_manager_v1_get_fifo(manager, surface)
            queue.releaseWrapper(manager)
        }
        if let timingManager {
            let manager = queue.wrapper(of: timingManager)
            timer = wp_commit_timing_manager_v1_get_timer(manager, surface)
            queue.releaseWrapper(manager)
        }
        clock = PresentationFeedback.readableClock(clockID)
    }

    /// Whether the compositor offers fifo, and commit timing.
    var hasFifo: Bool { fifo != nil }
    var hasTimer: Bool { timer != nil }

    /// For the next commit: the timestamp of `target` (CLOCK_MONOTONIC; nil: none), a
    /// refresh of `period` nanoseconds, and, with `barrier`, wait for the last frame's
    /// barrier and set this one's. Without `ahead`, no timestamp later than now is sent
    /// (the compositor held one: see ``OutputWindow``).
    func prepare(target: MonotonicInstant?, period: UInt64, barrier: Bool, ahead: Bool = true) {
        let lead = CommitTiming.lead(period: period)
        // A timestamp sent for a frame that was then not committed still holds for the next
        // commit: a second one before it would be a protocol error (timestamp_exists).
        if !timestampPending, let timer, let target, let clock, target.nanoseconds > lead {
            // On the presentation clock: both clocks read back to back.
            let now = MonotonicClock.now()
            let offset = Int64(bitPattern: MonotonicClock.read(clock)) &- Int64(bitPattern: now)
            let when = target.nanoseconds - lead
            let (time, overflow) = Int64(bitPattern: when).addingReportingOverflow(offset)
            if !overflow, time > 0, ahead || when <= now {
                let seconds = UInt64(time) / 1_000_000_000
                wp_commit_timer_v1_set_timestamp(timer, UInt32(truncatingIfNeeded: seconds >> 32),
                                                 UInt32(truncatingIfNeeded: seconds), UInt32(UInt64(time) % 1_000_000_000))
                timestamps += 1
                timestampPending = true
                pendingTime = when
            }
        }
        if let fifo, barrier {
            wp_fifo_v1_wait_barrier(fifo)
            wp_fifo_v1_set_barrier(fifo)
            barriers += 1
        }
    }

    /// Destroys both objects (wp_fifo_v1.destroy, wp_commit_timer_v1.destroy); call before
    /// the surface goes. Calling it again does nothing.
    func destroy() {
        if let fifo { wp_fifo_v1_destroy(fifo) }
        if let timer { wp_commit_timer_v1_destroy(timer) }
        fifo = nil
        timer = nil
    }

    deinit { destroy() }
}
