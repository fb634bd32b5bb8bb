import WaylandOutputs

/// Insets per edge; what the unit is depends on the option (percent or points).
struct Insets: Equatable, Sendable {
    var top: Double, right: Double, bottom: Double, left: Double

    static let zero = Insets(top: 0, right: 0, bottom: 0, left: 0)

    init(top: Double, right: Double, bottom: Double, left: Double) {
        (self.top, self.right, self.bottom, self.left) = (top, right, bottom, left)
    }

    init(all value: Double) { self.init(top: value, right: value, bottom: value, left: value) }
}

/// A circle in canvas pixels (the dial, the rings).
struct Circle: Equatable, Sendable {
    var x: Double, y: Double, radius: Double
}

/// A rectangle in canvas pixels, fractions allowed (the tiles, the pacing strip).
struct Box: Equatable, Sendable {
    var x: Double, y: Double, width: Double, height: Double
}

/// How a TV or projector's overscan is compensated on an output.
enum Overscan: Equatable, Sendable {
    case none
    /// The whole picture shrunk by this percentage (half on each side), black around it.
    case scale(percent: Double)
    /// The background to the edges, the foreground inside insets given in percent of
    /// the output's width (left, right) and height (top, bottom).
    case inset(Insets)
}

/// Where the parts of a view go on one output, in framebuffer pixels. Pure: the views'
/// shaders draw what this decides, and the renderer reshades the regions it marks as
/// moving, so tests can pin every placement.
///
/// The layout follows the logical size of the safe area, as compact or regular in each
/// direction (like phone platforms' size classes), never the orientation: a portrait
/// output is compact in width and gets a stacked layout.
struct SceneLayout: Equatable, Sendable {
    enum SizeClass: Equatable, Sendable { case compact, regular }

    /// The picture (the view's background), top left origin.
    var canvas: Rect
    /// Where foreground content may go, inside the canvas.
    var safe: Rect
    var horizontal: SizeClass
    var vertical: SizeClass
    /// Control view: the title band's height from the canvas top, the dial (centre and
    /// radius), the output tiles; content view: the rings and the pacing strip. All in
    /// canvas pixels from the canvas's top left corner.
    var bandHeight: Double
    var dial: Circle
    var tiles: Box
    var rings: Circle
    var strip: Box
    /// Picture pixels per point of text and lines: the output's scale, or in mirror the
    /// primary's, scaled with the picture.
    var pointSize: Double = 1
    /// The tiles form a grid of this many columns and rows, one tile per output.
    var gridColumns = 2
    var gridRows = 2

    /// The inner rectangle of tile `index` (canvas pixels), inside its cell's gap.
    func tile(_ index: Int) -> Box {
        let cellWidth = tiles.width / Double(gridColumns), cellHeight = tiles.height / Double(gridRows)
        let column = Double(index % gridColumns), row = Double(index / gridColumns)
        let gapX = cellWidth * 0.04, gapY = cellHeight * 0.04
        return Box(x: tiles.x + column * cellWidth + gapX, y: tiles.y + row * cellHeight + gapY,
                   width: cellWidth - 2 * gapX, height: cellHeight - 2 * gapY)
    }

    /// A grid for `count` tiles whose tiles come closest to twice as wide as tall: room
    /// for a line of text and a wide graph, whatever the shape of the tile area.
    mutating func arrangeTiles(count: Int) {
        let count = max(1, count)
        var best = (columns: 1, error: Double.infinity)
        for columns in 1...count {
            let rows = (count + columns - 1) / columns
            // A column more that leaves a row empty is no better.
            if columns > 1 && (count + columns - 2) / (columns - 1) == rows { continue }
            let aspect = (tiles.width / Double(columns)) / max(1, tiles.height / Double(rows))
            let error = max(aspect / 2, 2 / max(aspect, 1e-9))
            if error < best.error - 1e-9 { best = (columns, error) }
        }
        gridColumns = best.columns
        gridRows = (count + best.columns - 1) / best.columns
    }

    /// Width and height in points from which an axis is regular.
    static let regularWidth = 768.0
    static let regularHeight = 560.0

    /// - Parameters:
    ///   - area: the part of the framebuffer the picture may use (the whole buffer, or
    ///     the picture rect of a fitted render size), top left origin.
    ///   - aspect: for mirror, the primary's picture size: the canvas is letterboxed to it.
    ///   - pixelsPerPoint: buffer pixels per logical point (for safe areas and size classes).
    ///   - classSize: the logical size that decides the size classes; nil: the safe area's.
    ///     Mirror passes the primary's, so every output lays out the same picture.
    ///   - overscan: the output's overscan compensation.
    ///   - safeArea: extra insets in points.
    static func make(area: Rect, aspect: Size? = nil, pixelsPerPoint: Double = 1,
                     classSize: (width: Double, height: Double)? = nil, overscan: Overscan = .none,
                     safeArea: Insets = .zero) -> SceneLayout {
        var canvas = area
        if let aspect {
            let fit = Letterbox.aspectFit(aspect, into: area.size)
            canvas = Rect(x: area.x + fit.x, y: area.y + fit.y, width: fit.width, height: fit.height)
        }
        var foreground = Insets.zero
        switch overscan {
        case .none:
            break
        case .scale(let percent):
            let shrink = Insets(top: Double(canvas.height) * percent / 200, right: Double(canvas.width) * percent / 200,
                                bottom: Double(canvas.height) * percent / 200, left: Double(canvas.width) * percent / 200)
            canvas = canvas.inset(by: shrink)
        case .inset(let percent):
            foreground = Insets(top: Double(canvas.height) * percent.top / 100, right: Double(canvas.width) * percent.right / 100,
                                bottom: Double(canvas.height) * percent.bottom / 100, left: Double(canvas.width) * percent.left / 100)
        }
        let ppp = max(pixelsPerPoint, 0.01)
        foreground.top += safeArea.top * ppp
        foreground.right += safeArea.right * ppp
        foreground.bottom += safeArea.bottom * ppp
        foreground.left += safeArea.left * ppp
        let safe = canvas.inset(by: foreground)

        let points = classSize ?? (Double(safe.width) / ppp, Double(safe.height) / ppp)
        let horizontal: SizeClass = points.width >= regularWidth ? .regular : .compact
        let vertical: SizeClass = points.height >= regularHeight ? .regular : .compact

        // Everything below is in canvas pixels, measured from the canvas's top left.
        let s = (x: Double(safe.x - canvas.x), y: Double(safe.y - canvas.y),
                 w: Double(safe.width), h: Double(safe.height))
        let band = s.y + 0.08 * s.h
        let below = (y: band, h: s.y + s.h - band)
        let dial: Circle, tiles: Box
        switch (horizontal, vertical) {
        case (.regular, _):
            // Side by side: the dial on the left, the tiles on the right.
            dial = Circle(x: s.x + 0.25 * s.w, y: below.y + 0.48 * below.h, radius: min(0.3 * below.h, 0.22 * s.w))
            tiles = Box(x: s.x + 0.55 * s.w, y: below.y + 0.13 * below.h, width: 0.4 * s.w, height: 0.7 * below.h)
        case (.compact, .regular):
            // Stacked: the dial above, the tiles below.
            dial = Circle(x: s.x + 0.5 * s.w, y: below.y + 0.3 * below.h, radius: min(0.38 * s.w, 0.24 * below.h))
            tiles = Box(x: s.x + 0.1 * s.w, y: below.y + 0.6 * below.h, width: 0.8 * s.w, height: 0.34 * below.h)
        case (.compact, .compact):
            // Small: a smaller dial above, the tiles below with room for their graphs,
            // clear of the keys along the bottom.
            dial = Circle(x: s.x + 0.5 * s.w, y: below.y + 0.25 * below.h, radius: min(0.3 * s.w, 0.2 * below.h))
            tiles = Box(x: s.x + 0.1 * s.w, y: below.y + 0.5 * below.h, width: 0.8 * s.w, height: 0.42 * below.h)
        }
        let rings = Circle(x: s.x + 0.5 * s.w, y: s.y + 0.5 * s.h, radius: 0.3 * min(s.w, s.h))
        let strip = Box(x: s.x, y: s.y + 0.9 * s.h, width: s.w, height: 0.1 * s.h)
        // Text and lines scale with the picture: in mirror, as on the primary.
        let pointSize = classSize.map { Double(safe.height) / max(1, $0.height) } ?? ppp
        return SceneLayout(canvas: canvas, safe: safe, horizontal: horizontal, vertical: vertical, bandHeight: band,
                           dial: dial, tiles: tiles, rings: rings, strip: strip, pointSize: pointSize)
    }

    /// The parts of a view that change from frame to frame, in framebuffer pixels (top
    /// left origin): the rings (content). The views' other moving parts move their regions
    /// with them: the dial's hand (``dialHand(pointing:)``) and the content view's pacing
    /// bar (``pacingBar(x:pixelsPerPoint:)``). The shaders keep everything outside them
    /// still.
    func dynamicRegions(of view: SceneView) -> [Rect] {
        switch view {
        case .control, .span:
            // The span's moving parts are SpanView's.
            return []
        case .content:
            return [pixels(rings.x - rings.radius, rings.y - rings.radius, 2 * rings.radius, 2 * rings.radius)]
        }
    }

    /// The content view's pacing bar, 12 points wide, moves 8 points a frame along the
    /// strip and wraps at its end: its left edge at frame `frame`, in picture pixels from
    /// the strip's left (content.frag gets it as u_motion.w).
    func pacingBarX(frame: Double, pixelsPerPoint: Double) -> Double {
        let width = 12 * pixelsPerPoint
        let run = strip.width + width
        guard run > 0 else { return -width }
        return (frame * 8 * pixelsPerPoint).truncatingRemainder(dividingBy: run) - width
    }

    /// The pixels the pacing bar covers with its left edge at `x` (``pacingBarX(frame:pixelsPerPoint:)``).
    func pacingBar(x: Double, pixelsPerPoint: Double) -> Rect {
        pixels(strip.x + x, strip.y, 12 * pixelsPerPoint, strip.height)
    }

    /// The pixels the dial's hand covers when it points along `direction` (a unit vector,
    /// y down), its centre dot and anti-aliased edges included (control.frag: the hand is
    /// 3 lines to each side, the dot 5, a line is 1/480 of the height). Shading the hand's
    /// old and new regions again moves it, at a fraction of the dial's area.
    func dialHand(pointing direction: (x: Double, y: Double)) -> Rect {
        let line = max(1, Double(canvas.height) / 480)
        let margin = 6 * line + 1
        let tipX = dial.x + 0.9 * dial.radius * direction.x, tipY = dial.y + 0.9 * dial.radius * direction.y
        return pixels(min(dial.x, tipX) - margin, min(dial.y, tipY) - margin,
                      abs(tipX - dial.x) + 2 * margin, abs(tipY - dial.y) + 2 * margin)
    }

    /// A rectangle of picture pixels (canvas origin) as whole framebuffer pixels, grown by
    /// one on each side and kept inside the canvas.
    func pixels(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> Rect {
        let left = max(0, Int32(x.rounded(.down)) - 1), top = max(0, Int32(y.rounded(.down)) - 1)
        let right = min(canvas.width, Int32((x + width).rounded(.up)) + 1)
        let bottom = min(canvas.height, Int32((y + height).rounded(.up)) + 1)
        return Rect(x: canvas.x + left, y: canvas.y + top, width: max(0, right - left), height: max(0, bottom - top))
    }
}

extension Rect {
    /// The smallest rectangle holding both.
    func union(_ other: Rect) -> Rect {
        let left = Swift.min(x, other.x), top = Swift.min(y, other.y)
        let right = Swift.max(x + width, other.x + other.width), bottom = Swift.max(y + height, other.y + other.height)
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// The rectangle shrunk by `insets` pixels on each side (rounded to whole pixels,
    /// never below zero size).
    func inset(by insets: Insets) -> Rect {
        let left = Int32(insets.left.rounded()), right = Int32(insets.right.rounded())
        let top = Int32(insets.top.rounded()), bottom = Int32(insets.bottom.rounded())
        return Rect(x: x + left, y: y + top, width: max(0, width - left - right), height: max(0, height - top - bottom))
    }
}
