import CWayland

/// An output (a monitor) as the compositor describes it through wl_output and
/// xdg-output. A value: each `done` publishes a new, complete one.
public struct Output: Sendable, Equatable, Identifiable {
    /// The wl_registry global name: stable while the output exists, never reused for another.
    public var id: UInt32
    /// The connector name (wl_output.name in v4, else xdg_output.name), e.g. "HDMI-A-1".
    public var name: String
    /// A human-readable description (wl_output.description, else xdg_output.description).
    public var description: String
    /// Manufacturer and model from wl_output.geometry.
    public var make: String
    public var model: String
    /// Physical size in millimetres (0x0 when unknown, e.g. projectors and virtual outputs).
    public var physicalSize: Size
    public var subpixel: Subpixel
    /// How the compositor rotates and flips content for this output.
    public var transform: OutputTransform
    /// The integer scale from logical points to pixels (wl_output.scale).
    public var scale: Int32
    /// Every mode the output offers, lowest to highest (pixels, then refresh).
    public var modes: [OutputMode]
    /// Position and size in the compositor's logical space, in points (xdg-output;
    /// without it, the size derives from the current mode, the transform and the scale).
    public var logicalFrame: Rect

    public init(id: UInt32, name: String, description: String = "", make: String = "",
                model: String = "", physicalSize: Size = .zero, subpixel: Subpixel = .unknown,
                transform: OutputTransform = .normal, scale: Int32 = 1, modes: [OutputMode] = [],
                logicalFrame: Rect = .zero) {
        self.id = id
        self.name = name
        self.description = description
        self.make = make
        self.model = model
        self.physicalSize = physicalSize
        self.subpixel = subpixel
        self.transform = transform
        self.scale = scale
        self.modes = modes
        self.logicalFrame = logicalFrame
    }

    /// The name fit for a log line or a terminal (``Log/printable(_:)``): a compositor
    /// can send control characters in it.
    public var printableName: String { Log.printable(name) }

    /// The mode the output shows now.
    public var currentMode: OutputMode? { modes.first { $0.isCurrent } }
    /// The mode the output prefers.
    public var preferredMode: OutputMode? { modes.first { $0.isPreferred } }

    /// The size, in pixels, of a buffer that covers the output at its scale:
    /// logical size times scale.
    public var pixelSize: Size { logicalFrame.size * scale }
}

/// wl_output.subpixel.
public enum Subpixel: Int32, Sendable {
    case unknown = 0, none, horizontalRGB, horizontalBGR, verticalRGB, verticalBGR
}

/// wl_output.transform: how the compositor rotates (counter-clockwise) and flips
/// content for an output.
public enum OutputTransform: Int32, Sendable, CaseIterable, CustomStringConvertible {
    case normal = 0, rotated90, rotated180, rotated270, flipped, flipped90, flipped180, flipped270

    /// The names sway's configuration and wlr-randr use.
    public var description: String {
        switch self {
        case .normal: "normal"
        case .rotated90: "90"
        case .rotated180: "180"
        case .rotated270: "270"
        case .flipped: "flipped"
        case .flipped90: "flipped-90"
        case .flipped180: "flipped-180"
        case .flipped270: "flipped-270"
        }
    }

    /// Whether width and height trade places (90 and 270 degrees).
    public var swapsAxes: Bool { rawValue & 1 == 1 }
}
