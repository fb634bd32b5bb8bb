/// A position. Which unit (logical points or pixels) the property holding it says.
public struct Point: Sendable, Hashable, CustomStringConvertible {
    public var x: Int32
    public var y: Int32

    public static let zero = Point(x: 0, y: 0)

    public init(x: Int32, y: Int32) {
        self.x = x
        self.y = y
    }

    /// "X,Y".
    public var description: String { "\(x),\(y)" }
}

/// A width and a height. Which unit (logical points, pixels, millimetres) the property
/// holding it says.
public struct Size: Sendable, Hashable, CustomStringConvertible {
    public var width: Int32
    public var height: Int32

    public static let zero = Size(width: 0, height: 0)

    public init(width: Int32, height: Int32) {
        self.width = width
        self.height = height
    }

    /// Whether either side is 0 or less.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// Width and height swapped (a rotation by 90 or 270 degrees).
    public var transposed: Size { Size(width: height, height: width) }

    /// Both sides times `factor`.
    public static func * (size: Size, factor: Int32) -> Size {
        Size(width: size.width * factor, height: size.height * factor)
    }

    /// "WxH".
    public var description: String { "\(width)x\(height)" }
}

/// A rectangle, origin at the top left. Which unit (logical points or pixels) the
/// property holding it says.
public struct Rect: Sendable, Hashable, CustomStringConvertible {
    public var x: Int32
    public var y: Int32
    public var width: Int32
    public var height: Int32

    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    public init(x: Int32, y: Int32, width: Int32, height: Int32) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public init(origin: Point, size: Size) {
        self.init(x: origin.x, y: origin.y, width: size.width, height: size.height)
    }

    /// A rectangle at the origin.
    public init(size: Size) {
        self.init(x: 0, y: 0, width: size.width, height: size.height)
    }

    public var origin: Point { Point(x: x, y: y) }
    public var size: Size { Size(width: width, height: height) }
    public var maxX: Int32 { x + width }
    public var maxY: Int32 { y + height }

    /// The same rectangle with the origin at the bottom left of a `containerHeight`-tall
    /// surface, as glViewport and glScissor want it.
    public func flippedY(containerHeight: Int32) -> Rect {
        Rect(x: x, y: containerHeight - y - height, width: width, height: height)
    }

    /// "WxH+X+Y", as X11 geometry strings write it.
    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}
