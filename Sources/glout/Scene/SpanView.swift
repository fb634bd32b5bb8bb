import WaylandOutputs

/// One output's part of the span canvas, as its picture draws it (shaders/span.frag):
/// which canvas pixels the picture's pixels are, and where the moving things are. Pure.
///
/// Every picture pixel is shaded from its whole canvas pixel number and the density, never
/// from a position in the picture, so a part comes out exactly as the same rectangle of
/// the canvas drawn whole (`glout snapshot --canvas`), at any scale.
///
/// The pattern: a gradient over the whole canvas, a grid every 100 points, white lines at
/// 45° every 200 points (straight across two screens only when the bezels are right), a
/// bar sweeping the canvas at ``barSpeed``, and on each part a row of ``cellCount`` cells
/// lit one at a time, one per ``cellPeriod`` of the shared clock.
struct SpanView: Equatable, Sendable {
    /// The bar sweeps from the canvas's left edge to its right at this many points a second.
    static let barSpeed = 400.0
    static let barWidth = 24.0
    static let cellCount = 10
    /// How long each cell stays lit: one 60 Hz refresh.
    static let cellPeriod = 1.0 / 60

    /// The part's place in the canvas (points) and the canvas's size (points).
    var part: Rect
    var canvasSize: Size
    /// The picture's size in pixels and its pixels per point.
    var pictureSize: Size
    var density: (x: Double, y: Double)
    /// The row of cells in picture pixels (empty: none, as in the canvas's backdrop).
    var cells: Rect

    /// - Parameters:
    ///   - part: where the picture is in the canvas, in points.
    ///   - pictureSize: its pixels; the density is pixels per point, in 120ths as
    ///     fractional scales are, so that the canvas drawn at the same scale matches.
    ///   - density: pixels per point when the caller knows it (the canvas drawn whole).
    ///   - cells: whether the part shows its row of cells.
    init(part: Rect, canvasSize: Size, pictureSize: Size, density: Double? = nil, cells: Bool = true) {
        self.part = part
        self.canvasSize = canvasSize
        self.pictureSize = pictureSize
        self.density = density.map { (SpanView.quantize($0), SpanView.quantize($0)) }
            ?? (SpanView.quantize(Double(pictureSize.width) / Double(max(1, part.width))),
                SpanView.quantize(Double(pictureSize.height) / Double(max(1, part.height))))
        self.cells = cells ? SpanView.cellsRow(pictureSize: pictureSize, pointSize: self.density.y) : .zero
    }

    static func == (a: SpanView, b: SpanView) -> Bool {
        a.part == b.part && a.canvasSize == b.canvasSize && a.pictureSize == b.pictureSize && a.density == b.density
            && a.cells == b.cells
    }

    /// Pixels per point to the nearest 120th.
    static func quantize(_ density: Double) -> Double { max(1, (density * 120).rounded()) / 120 }

    /// The canvas pixel of the picture's top left pixel.
    var origin: (x: Int32, y: Int32) { SpanCanvas.pixelOrigin(of: part, density: density) }

    /// Where --content of `width` x `height` goes, as `mode` fits it to the whole canvas,
    /// in this picture's pixels from its top left: the canvas is as many pixels as this
    /// part's density makes it, and the part shows the piece that falls on it (the rest
    /// lies outside the picture).
    func placement(width: Int, height: Int, mode: ScaleMode) -> (x: Double, y: Double, width: Double, height: Double) {
        let canvas = Size(width: Int32(clamping: Int64((Double(canvasSize.width) * density.x).rounded())),
                          height: Int32(clamping: Int64((Double(canvasSize.height) * density.y).rounded())))
        let place = ContentImage.placement(width: width, height: height, in: canvas, mode: mode)
        let origin = origin
        return (place.x - Double(origin.x), place.y - Double(origin.y), place.width, place.height)
    }

    /// The bar's left edge, canvas points, at scene `time`: it comes in at the left edge,
    /// leaves at the right and comes in again.
    static func barX(time: Double, canvasWidth: Int32) -> Double {
        let run = Double(canvasWidth) + barWidth
        var x = (time * barSpeed).truncatingRemainder(dividingBy: run)
        if x < 0 { x += run }
        return x - barWidth
    }

    /// The cell lit at scene `time`.
    static func litCell(time: Double) -> Int {
        let period = (time / cellPeriod).rounded(.down)
        let cell = period.truncatingRemainder(dividingBy: Double(cellCount))
        return Int(cell < 0 ? cell + Double(cellCount) : cell)
    }

    /// The row of cells on a picture: centred, near the top, at most 48 points a cell and
    /// 60% of the width, a whole number of pixels per cell.
    static func cellsRow(pictureSize: Size, pointSize: Double) -> Rect {
        let count = Int32(cellCount)
        let width = min(Double(pictureSize.width) * 0.6, 48 * pointSize * Double(count))
        let cell = max(2, Int32(width) / count)
        let height = max(2, Int32((Double(cell) * 0.6).rounded()))
        let rowWidth = cell * count
        guard rowWidth <= pictureSize.width, height <= pictureSize.height else { return .zero }
        return Rect(x: (pictureSize.width - rowWidth) / 2, y: Int32((Double(pictureSize.height) * 0.08).rounded()),
                    width: rowWidth, height: height)
    }

    /// The picture pixels the bar covers at canvas position `barX` (points), one pixel
    /// wider each side; empty when it is off the picture.
    func barRegion(barX: Double) -> Rect {
        let left = (barX - Double(part.x)) * density.x - 1, right = (barX + SpanView.barWidth - Double(part.x)) * density.x + 1
        let from = max(0, Int32(clamping: Int64(left.rounded(.down)))), to = min(pictureSize.width, Int32(clamping: Int64(right.rounded(.up))))
        guard to > from else { return .zero }
        return Rect(x: from, y: 0, width: to - from, height: pictureSize.height)
    }

    /// Writes the span's values into the frame block (u_span0 to u_span2: canvas pixel of
    /// the top left, density, canvas size, bar, lit cell, cells row). u_canvas, the
    /// viewport, is the caller's.
    func write(to block: FrameBlock, time: Double) {
        let origin = origin
        block.set(.span0, Double(origin.x), Double(origin.y), density.x, density.y)
        block.set(.span1, Double(canvasSize.width), Double(canvasSize.height),
                  SpanView.barX(time: time, canvasWidth: canvasSize.width), Double(SpanView.litCell(time: time)))
        block.set(.span2, Double(cells.x), Double(cells.y), Double(cells.width), Double(cells.height))
    }
}
