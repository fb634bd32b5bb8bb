import Synchronization
import WaylandOutputs

/// What every output's renderer reads at each frame: the layout, which output is
/// primary, the accent colour and the clock. Shared between the main thread, which
/// changes it, and the render threads, which take a snapshot per frame.
final class Scene: Sendable {
    struct State: Sendable, Equatable {
        var layout: LayoutMode
        /// Name of the output that shows the control view.
        var primary: String?
        /// Pixel size of the primary's picture: what mirror letterboxes onto every output.
        var primaryPixelWidth: Int32 = 16
        var primaryPixelHeight: Int32 = 9
        var primaryPixelsPerPoint: Double = 1
        var accent: (Float, Float, Float) = (0.95, 0.55, 0.15)
        /// Scene time for every frame when set.
        var frozen: Double?
        /// MonotonicClock time at which scene time 0 was.
        var start: UInt64

        static func == (a: State, b: State) -> Bool {
            a.layout == b.layout && a.primary == b.primary && a.primaryPixelWidth == b.primaryPixelWidth
                && a.primaryPixelHeight == b.primaryPixelHeight && a.primaryPixelsPerPoint == b.primaryPixelsPerPoint && a.accent == b.accent && a.frozen == b.frozen
                && a.start == b.start
        }

        /// Scene time in seconds for a frame stamped `timestamp`.
        func time(at timestamp: UInt64) -> Double {
            frozen ?? Double(timestamp &- start) / 1e9
        }
    }

    private let state: Mutex<State>

    init(_ state: State) { self.state = Mutex(state) }

    var snapshot: State { state.withLock { $0 } }

    func update(_ change: (inout State) -> Void) { state.withLock { change(&$0) } }

    /// Makes `output` the primary (or none).
    func setPrimary(_ output: Output?) {
        update { state in
            state.primary = output?.name
            if let output, output.pixelWidth > 0, output.pixelHeight > 0 {
                state.primaryPixelWidth = output.pixelWidth
                state.primaryPixelHeight = output.pixelHeight
                state.primaryPixelsPerPoint = Double(max(1, output.scale))
            }
        }
    }
}
