/// Counters a window keeps while it runs: what it drew and how the compositor took it.
public struct WindowStatistics: Sendable, Equatable {
    /// Frames committed (eglSwapBuffers calls that succeeded).
    public var frames: UInt64 = 0
    /// When the first and the last commit returned.
    public var firstCommit: MonotonicInstant?
    public var lastCommit: MonotonicInstant?
    /// Frame callbacks received.
    public var callbacks: UInt64 = 0
    /// When the frame the window is drawing now started (nil between frames): a frame
    /// that never commits is a render thread that hangs (glout's systemd watchdog).
    package var frameStarted: MonotonicInstant?
    /// Times the link gave up waiting for a callback (the surface was not shown), and
    /// whether it is waiting now (for a callback, or for a buffer to draw into).
    public var suspensions: UInt64 = 0
    package var isSuspended = false
    /// Times a frame waited longer than 2 s for the
    /// compositor to release a buffer.
    public var bufferWaits: UInt64 = 0
    /// Whether the renderer's picture stands still and the window draws nothing, and
    /// how often it came to rest.
    package var isIdle = false
    public var idlePeriods: UInt64 = 0
    /// Surfaces this window has had (more than one after the surface was made again).
    package var surfaces: UInt64 = 0
    /// A render size was asked for but the compositor cannot scale buffers.
    package var renderSizeIgnored = false
    /// Presentation feedback: frames presented, discarded, requests made, requests
    /// dropped unanswered, requests outstanding now and at most.
    public var presented: UInt64 = 0
    public var discarded: UInt64 = 0
    /// Frames the compositor said were presented at a time no figure may be built from
    /// (left out of every figure).
    package var presentationRejected: UInt64 = 0
    package var feedbackRequested: UInt64 = 0
    package var feedbackDropped: UInt64 = 0
    package var feedbackOutstanding = 0
    package var feedbackMostOutstanding = 0
    /// Render-thread CPU time over all frames.
    public var cpuTime: Duration = .zero
    /// The refresh period the link uses (see ``DisplayLinkFrame/duration``).
    public var refreshPeriod: Duration = .zero
    /// Where the compositor put the window's surface: as of the last committed frame, and
    /// once more as the surface closes (what the compositor said after that frame).
    package var placement = Placement()
    /// Whether commits carry wp_fifo_v1 barriers and wp_commit_timer_v1 timestamps
    /// (where offered and presentation times are used), and how many
    /// carried a timestamp.
    package var usesFifo = false
    package var usesCommitTiming = false
    package var timestampedCommits: UInt64 = 0
    /// Whether the compositor was taken to hold a commit for its timestamp (0 or 1): no
    /// frame callback came for the link's stall timeout (250 ms, 8 frame intervals
    /// where longer, a second for a surface's first frame) after a commit whose timestamp was still ahead when it was
    /// committed (mutter 48.7 holds such commits for good). The surface was then made
    /// again, and the window sends no timestamp ahead of its commit from then on.
    package var heldTimestamps: UInt64 = 0

    /// Frames per second between the first and the last commit.
    public var framesPerSecond: Double {
        guard frames > 1, let first = firstCommit, let last = lastCommit, last > first else { return 0 }
        return Double(frames - 1) / (last - first).inSeconds
    }
}
