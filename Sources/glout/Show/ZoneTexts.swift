import WaylandOutputs

/// The lines of text one output draws in a show's zones (labels, clocks, tickers), each
/// laid out at a refresh: made and kept by item, in the fonts they are in, and a ticker's
/// line paced refresh by refresh (``TickerPace``). Used on the output's render thread,
/// whose context made the lines' textures.
final class ZoneTexts {
    /// An item of a zone.
    struct Key: Hashable {
        var zone: String
        var item: ZoneTimeline.ItemRef
    }

    /// The lines by item, of the show they belong to; the fonts they are in, by size.
    private var lines: [Key: TextLine] = [:]
    private var linesOf: ObjectIdentifier?
    /// The time each ticker is drawn at, refresh by refresh.
    private var paces: [Key: TickerPace] = [:]
    private var faces: [String: FontFace] = [:]
    /// Where the tickers were at each refresh, for --landings-json.
    private let telemetry: Telemetry?

    init(telemetry: Telemetry?) {
        self.telemetry = telemetry
    }

    /// The lines are `show`'s from now on. Returns whether it is another show than the
    /// last: the last one's lines are let go of.
    func begin(_ show: LoadedShow) -> Bool {
        guard linesOf != ObjectIdentifier(show) else { return false }
        lines = [:]
        paces = [:]
        linesOf = ObjectIdentifier(show)
        return true
    }

    /// Makes the line of `text` as it reads at `time` and places it in the zone (picture
    /// pixels from its top left): a label or clock aligned on whole pixels, a ticker where
    /// its speed has brought it `local` seconds into the item, paced refresh by refresh
    /// (``TickerPace``), to the fraction of a pixel.
    func layOut(_ text: TextItem, font: String, key: Key, local: Double, time: Double, rect: Rect,
                frame: DisplayLinkFrame, target: RenderTarget)
        -> (line: TextLine, place: (x: Double, y: Double, width: Double, height: Double)) {
        let pixelsPerPoint = target.pixelsPerPoint
        // A ticker's line moves by fractions of a pixel, sampled smoothly; the others stand
        // on whole pixels, where the nearest texel is exact (and on llvmpipe far cheaper).
        let smooth: Bool
        if case .ticker = text.kind { smooth = true } else { smooth = false }
        let line = lines[key] ?? TextLine(smooth: smooth)
        lines[key] = line
        let pixelSize = Int(max(4, min(1024, (text.size * pixelsPerPoint).rounded())))
        line.update(text.text(at: time), font: font, pixelSize: pixelSize, colour: text.colour, background: text.background,
                    faces: &faces)
        let (width, height) = (Double(line.width), Double(line.height))
        let zone = (width: Double(rect.width), height: Double(rect.height))
        let y = ((zone.height - height) / 2).rounded()
        let margin = (Double(pixelSize) / 4).rounded()
        let x: Double
        switch (text.kind, text.alignment) {
        case (.ticker(_, let speed), _):
            let pixelsPerSecond = speed * pixelsPerPoint
            let elapsed = paces[key, default: TickerPace()].time(at: local, period: frame.duration.inSeconds,
                                                                  pixelsPerSecond: pixelsPerSecond)
            telemetry?.recordTickerTravel(target.output.id, index: frame.index, pixels: max(0, elapsed) * pixelsPerSecond)
            x = TextItem.tickerX(elapsed: elapsed, pixelsPerSecond: pixelsPerSecond, lineWidth: width, zoneWidth: zone.width)
        case (_, .left): x = margin
        case (_, .center): x = ((zone.width - width) / 2).rounded()
        case (_, .right): x = zone.width - width - margin
        }
        return (line, (x, y, width, height))
    }
}
