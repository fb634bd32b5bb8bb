/// What glout tells systemd, decided from its windows (pure, for unit tests):
/// - ready (READY=1) once every window's first frame reached the screen (a frame callback
///   or a presentation came for it) or its output is not shown, or at the latest after
///   ``readyDeadline``, saying which outputs have shown nothing;
/// - alive (WATCHDOG=1, each tick after ready) while no window that the compositor shows
///   has been inside one frame for half the watchdog's timeout or more: a render thread
///   that hangs in a frame, as a main thread that hangs (no tick runs then), lets systemd
///   restart glout.
struct ServiceHealth {
    struct Window: Equatable {
        var name: String
        /// The first frame reached the screen (a callback or a presentation came).
        var shown: Bool
        /// The compositor does not show the window's surface now (no callbacks).
        var suspended: Bool
        /// Seconds the frame it draws now has taken so far, nil between frames.
        var inFrame: Double?
    }

    enum Verdict: Equatable {
        /// Not yet ready: nothing to send.
        case starting
        /// Send READY=1 now; `waiting` names the outputs that have shown nothing yet.
        case ready(waiting: [String])
        /// Ready before: send WATCHDOG=1.
        case alive
        /// A window hangs in a frame: send nothing.
        case stuck(name: String, seconds: Double)
    }

    /// Seconds after the start at which glout calls itself ready whatever its outputs show.
    static let readyDeadline = 10.0

    private(set) var isReady = false
    /// Half the watchdog's timeout, in seconds: the longest a frame may take.
    let frameLimit: Double?

    init(watchdogTimeout: Double?) {
        frameLimit = watchdogTimeout.map { $0 / 2 }
    }

    /// The verdict `elapsed` seconds after the start, with `windows` as they are now.
    mutating func judge(_ windows: [Window], elapsed: Double) -> Verdict {
        // Ready is judged on what reached the screen, whatever a frame does now (systemd
        // watches from READY=1 on); a first frame that hangs holds it until the deadline.
        if !isReady {
            let waiting = windows.filter { !$0.shown && !$0.suspended }.map(\.name)
            guard waiting.isEmpty || elapsed >= Self.readyDeadline else { return .starting }
            isReady = true
            return .ready(waiting: waiting)
        }
        // A suspended window waits for the compositor (a callback, a buffer back), which is
        // no hang of glout's.
        if let frameLimit, let stuck = windows.first(where: { !$0.suspended && ($0.inFrame ?? 0) >= frameLimit }) {
            return .stuck(name: stuck.name, seconds: stuck.inFrame ?? 0)
        }
        return .alive
    }
}
