/// Which frames of a window ask for presentation feedback: every frame while the
/// compositor answers; once in ``probeInterval`` frames after ``quietAfter`` requests in a
/// row were dropped unanswered, and every frame again once one is answered.
///
/// A compositor that never answers keeps each request it was sent until the surface goes:
/// sway 1.7's headless output, asked on every frame, grew by about 330 bytes a frame (1.4
/// MB in 30 s at 144 Hz; nothing with weston-simple-egl, which does not ask), and
/// libwayland kept an entry for each request the client let go unanswered.
package struct FeedbackAsking: Sendable, Equatable {
    /// Requests dropped unanswered in a row before the window asks only now and then.
    package static let quietAfter = 32
    /// While quiet, one frame in this many asks, to learn that the compositor answers.
    package static let probeInterval = 128

    private var droppedInARow = 0
    private var sinceProbe = 0
    /// Requests made.
    package private(set) var requested: UInt64 = 0

    /// Whether the window asks only now and then.
    package var isQuiet: Bool { droppedInARow >= FeedbackAsking.quietAfter }

    package init() {}

    /// Whether this frame asks for feedback (and counts it).
    package mutating func asks() -> Bool {
        if isQuiet {
            sinceProbe += 1
            guard sinceProbe >= FeedbackAsking.probeInterval else { return false }
            sinceProbe = 0
        }
        requested += 1
        return true
    }

    /// A request was dropped unanswered, to keep the number outstanding in bounds.
    package mutating func dropped() {
        droppedInARow = min(droppedInARow + 1, FeedbackAsking.quietAfter)
    }

    /// The compositor answered a request (presented or discarded).
    package mutating func answered() {
        droppedInARow = 0
        sinceProbe = 0
    }
}
