/// Input, tied to the output whose window it happened on. Positions are in that
/// window's logical points.
public enum InputEvent: Sendable, Equatable {
    /// A key pressed or released while the window on `outputID` had keyboard focus
    /// (nil: no window of this process had it). `keysym` is the XKB keysym, `text` its characters.
    case key(outputID: UInt32?, keysym: UInt32, text: String, pressed: Bool)
    /// The pointer moved over the window on `outputID`, or left every window (nil).
    case pointer(outputID: UInt32?, x: Double, y: Double)
    /// A pointer button (evdev code) went down or up over the window on `outputID`.
    case button(outputID: UInt32?, button: UInt32, pressed: Bool)
    /// The touches down after a wl_touch.frame or cancel, each with its output.
    case touches([TouchPoint])
}

/// One finger on a touch surface.
public struct TouchPoint: Sendable, Equatable {
    /// wl_touch's id: unique among the touches down at the same time.
    public var id: Int32
    /// The output whose surface the touch went down on; it stays there.
    public var outputID: UInt32
    /// Position in that surface's logical points.
    public var x: Double
    public var y: Double
}

/// Which output each window's wl_surface belongs to, so input on a surface can be tied
/// to its output. Written by render threads (as surfaces come and go), read by the main
/// thread as events arrive.
final class SurfaceDirectory: Sendable {
    private let outputs = ProxyMap<UInt32>()

    init() {}

    func register(_ surface: OpaquePointer, outputID: UInt32) { outputs[surface] = outputID }

    func unregister(_ surface: OpaquePointer) { outputs[surface] = nil }

    /// The output of a surface, nil for surfaces that are not a window's.
    func output(of surface: OpaquePointer?) -> UInt32? { surface.flatMap { outputs[$0] } }
}
