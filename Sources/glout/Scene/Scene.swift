import Glibc
import WaylandOutputs

/// An RGB colour, 0 to 1 per channel.
struct RGB: Sendable, Hashable {
    var r: Float, g: Float, b: Float
}

/// Where the pointer or a finger is on an output, in that output's logical points.
struct Marker: Sendable, Equatable {
    enum Kind: Sendable, Equatable { case pointer, touch }
    var kind: Kind
    var x: Double
    var y: Double
}

/// Where the span layout's scene time comes from.
enum SceneClock: String, Sendable, CaseIterable {
    /// CLOCK_MONOTONIC from glout's start: one machine.
    case monotonic
    /// CLOCK_REALTIME, seconds since 1970: machines whose clocks a time service keeps in
    /// step show the same scene time at the same instant.
    case realtime
}

/// What every output's renderer reads at each frame: the layout, which output is
/// primary, the colours, the clock and the input markers. Shared between the main
/// thread, which changes it, and the render threads, which take a snapshot per frame.
final class Scene: Sendable {
    struct State: Sendable, Equatable {
        var layout: LayoutMode
        /// Name of the output that shows the control view.
        var primary: String?
        /// Pixel size of the primary's picture: what mirror letterboxes onto every output.
        var primaryPixelSize = Size(width: 16, height: 9)
        var primaryPixelsPerPoint: Double = 1
        /// The control view's accent, and the content view's (space picks a new one).
        var accent = RGB(r: 0.95, g: 0.55, b: 0.15)
        var contentAccent = RGB(r: 0.95, g: 0.55, b: 0.15)
        /// Scene time for every frame when set.
        var frozen: Double?
        /// CLOCK_MONOTONIC nanoseconds at which scene time 0 was.
        var start: UInt64
        /// Pointer and touch markers per output id.
        var markers: [UInt32: [Marker]] = [:]
        /// The span layout's canvas, this machine's name in it, whether the primary keeps
        /// the control view, and the clock of its scene time.
        var span = SpanCanvas([])
        var machine = ""
        var showsControl = true
        var clock = SceneClock.monotonic
        /// Whether a show plays (--show): on CLOCK_REALTIME, frozen at a realtime instant.
        var playsShow = false
        /// Whether a picture that stands still stops drawing (run; bench keeps drawing to
        /// measure), and whether the dashboard shows its live rates and graphs (--no-live).
        var rests = true
        var live = true
        /// Whether the content view carries its identification label (--no-label), and
        /// until when (CLOCK_MONOTONIC ns) every output shows its name in large type.
        var label = true
        var identifyUntil: UInt64?
        /// Layouts and primaries cues change at an instant: each output draws them from its
        /// first frame targeted at or after it (``resolved(at:)``), before the session's
        /// thread makes them the state's own.
        var scheduled: [ScheduledChange] = []

        /// A cue's layout or primary, due at `due` (CLOCK_MONOTONIC ns).
        struct ScheduledChange: Sendable, Equatable {
            var cue: Int
            var due: UInt64
            var layout: LayoutMode?
            var primary: String?
        }

        /// The state as a frame targeted at `target` draws it: with the changes due by then.
        func resolved(at target: MonotonicInstant) -> State {
            guard scheduled.contains(where: { $0.due <= target.nanoseconds }) else { return self }
            var state = self
            for change in scheduled where change.due <= target.nanoseconds {
                if let layout = change.layout { state.layout = layout }
                if let primary = change.primary { state.primary = primary }
            }
            return state
        }

        /// Whether the outputs show their names in large type at `timestamp`.
        func identifies(at timestamp: MonotonicInstant) -> Bool {
            identifyUntil.map { timestamp.nanoseconds < $0 } ?? false
        }

        /// Whether a picture of `view` stands still: an image (--content), or time is
        /// frozen and it is not the control view with its live dashboard.
        func standsStill(_ view: SceneView, dashboard: Bool, image: Bool = false) -> Bool {
            rests && (image || frozen != nil && !(view == .control && dashboard && live))
        }

        /// Scene time in seconds for a frame stamped `timestamp`.
        func time(at timestamp: MonotonicInstant) -> Double {
            // Wrapping: a frozen time longer than the clock has run still comes out exact.
            frozen ?? Double(timestamp.nanoseconds &- start) / 1e9
        }

        /// The span's scene time for a frame meant to reach the screen at `target`: on
        /// the span's clock, so that outputs (and machines) at different rates agree on
        /// where everything is at each instant.
        func spanTime(at target: MonotonicInstant) -> Double {
            if let frozen { return frozen }
            switch clock {
            case .monotonic: return time(at: target)
            case .realtime: return RealtimeClock.seconds(at: target)
            }
        }
    }

    private let state: Locked<State>

    init(_ state: State) { self.state = Locked(state) }

    var snapshot: State { state.withLock { $0 } }

    func update(_ change: (inout State) -> Void) { state.withLock { change(&$0) } }

    /// Makes `output` the primary (or none).
    func setPrimary(_ output: Output?) {
        update { state in
            state.primary = output?.name
            if let output, output.pixelSize.width > 0, output.pixelSize.height > 0 {
                state.primaryPixelSize = output.pixelSize
                state.primaryPixelsPerPoint = Double(max(1, output.scale))
            }
        }
    }

    /// How long --identify and the i key show the outputs' names.
    static let identifySeconds = 5.0

    /// Shows every output's name in large type for ``identifySeconds``, or hides them
    /// when they show.
    func toggleIdentify(now: MonotonicInstant) {
        update { state in
            state.identifyUntil = state.identifies(at: now) ? nil : now.nanoseconds + UInt64(Scene.identifySeconds * 1e9)
        }
    }

    /// Stops scene time where it is, or lets it run on: from where it stopped, or on the
    /// span's realtime clock from the shared time, which never stopped.
    func toggleFrozen(now: MonotonicInstant) {
        update { state in
            let shared = state.clock == .realtime && (state.layout == .span || state.playsShow)
            if let frozen = state.frozen {
                if !shared { state.start = now.nanoseconds &- UInt64(max(0, frozen) * 1e9) }
                state.frozen = nil
            } else {
                state.frozen = shared ? state.spanTime(at: now) : state.time(at: now)
            }
        }
    }
}

/// CLOCK_REALTIME for an instant on CLOCK_MONOTONIC.
enum RealtimeClock {
    /// Seconds since 1970 at monotonic instant `instant`: both clocks read back to back,
    /// the difference added.
    static func seconds(at instant: MonotonicInstant) -> Double {
        let monotonic = MonotonicInstant.now
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let offset = Int64(bitPattern: instant.nanoseconds &- monotonic.nanoseconds)
        return Double(now.tv_sec) + (Double(now.tv_nsec) + Double(offset)) / 1e9
    }

    /// The CLOCK_MONOTONIC instant of `seconds` since 1970 (the clocks' offset read now);
    /// nil for a time before the monotonic clock began or past its range.
    static func instant(at seconds: Double) -> MonotonicInstant? {
        let monotonic = MonotonicInstant.now
        let nanoseconds = (seconds - RealtimeClock.seconds(at: monotonic)) * 1e9 + Double(monotonic.nanoseconds)
        guard nanoseconds.isFinite, nanoseconds >= 0, nanoseconds < 9e18 else { return nil }
        return MonotonicInstant(nanoseconds: UInt64(nanoseconds))
    }
}

/// --stall: work added to every frame of one output, before its GL calls (which may run
/// one window at a time), so that they stay the output's own.
struct FrameStall: Sendable {
    private let microseconds: UInt32

    init(milliseconds: Double = 0) {
        microseconds = UInt32(milliseconds * 1000)
    }

    func wait() {
        if microseconds > 0 { usleep(microseconds) }
    }
}
