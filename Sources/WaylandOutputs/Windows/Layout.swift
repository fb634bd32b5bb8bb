/// A rectangle in pixels, origin at the top left.
public struct PixelRect: Sendable, Equatable, CustomStringConvertible {
    public var x: Int32
    public var y: Int32
    public var width: Int32
    public var height: Int32

    public init(x: Int32, y: Int32, width: Int32, height: Int32) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The same rectangle with the origin at the bottom left of a `containerHeight`-tall
    /// surface, as glViewport wants it.
    public func flippedY(containerHeight: Int32) -> PixelRect {
        PixelRect(x: x, y: containerHeight - y - height, width: width, height: height)
    }

    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}

/// Pure placement math for pictures on outputs.
public enum Layout {
    /// The largest rectangle with the aspect ratio of `contentWidth` x `contentHeight`
    /// that fits in `width` x `height`, centred (letterbox or pillarbox). Whole pixels;
    /// when the bars cannot be split evenly the extra pixel goes to the right or bottom.
    public static func aspectFit(contentWidth: Int32, contentHeight: Int32,
                                 intoWidth width: Int32, height: Int32) -> PixelRect {
        guard contentWidth > 0, contentHeight > 0, width > 0, height > 0 else {
            return PixelRect(x: 0, y: 0, width: max(0, width), height: max(0, height))
        }
        // Compare cross products in 64 bits to decide which side limits, exactly.
        let wide = Int64(contentWidth) * Int64(height) >= Int64(contentHeight) * Int64(width)
        var fitWidth = width, fitHeight = height
        if wide {
            fitHeight = Int32((Int64(width) * Int64(contentHeight) * 2 + Int64(contentWidth)) / (Int64(contentWidth) * 2))
        } else {
            fitWidth = Int32((Int64(height) * Int64(contentWidth) * 2 + Int64(contentHeight)) / (Int64(contentHeight) * 2))
        }
        fitWidth = min(max(fitWidth, 1), width)
        fitHeight = min(max(fitHeight, 1), height)
        return PixelRect(x: (width - fitWidth) / 2, y: (height - fitHeight) / 2, width: fitWidth, height: fitHeight)
    }
}
