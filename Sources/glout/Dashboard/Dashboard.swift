import CGLES
import Foundation
import WaylandOutputs

/// The control view's dashboard, drawn on the primary every frame: glout's title, the
/// layout and output count in the title band, the key bindings, and on each output's tile
/// its name, mode, scale, transform, role, measured frame rate and a graph of its last
/// two seconds of frame intervals. Text comes from FreeType glyph atlases; drawing a
/// frame allocates nothing once the atlases exist.
final class Dashboard {
    private let telemetry: Telemetry
    private let painter: TextPainter
    private var number = NumberText()
    /// Output ids in tile order, and the frame-time scratch for the graphs.
    private var order: [UInt32] = []
    private var times = [UInt64](repeating: 0, count: Telemetry.capacity)
    /// Where each output's live parts go (framebuffer pixels): shaded again every frame.
    private(set) var liveRegions: [(output: UInt32, rect: Rect)] = []
    /// GLOUT_DASHBOARD_RUNS: where the text runs of the first frame go, for tests.
    private var runsFile: String?

    static let light: (Float, Float, Float, Float) = (0.93, 0.94, 0.97, 1)
    static let dim: (Float, Float, Float, Float) = (0.62, 0.67, 0.77, 1)
    static let warning: (Float, Float, Float, Float) = (0.95, 0.35, 0.30, 1)
    /// The graphs' bars, and the line that marks one refresh period.
    static let bar: (Float, Float, Float, Float) = (0.35, 0.75, 1.0, 1)
    static let mark: (Float, Float, Float, Float) = (0.45, 0.50, 0.60, 1)
    /// The histogram's counts, reused every frame.
    private var bins = [Int](repeating: 0, count: 10)

    init(telemetry: Telemetry) {
        self.telemetry = telemetry
        runsFile = ProcessInfo.processInfo.environment["GLOUT_DASHBOARD_RUNS"]
        painter = TextPainter(records: runsFile != nil)
    }

    /// Pixel sizes of the title, body and small text at `scale` pixels per point.
    static func fontSizes(scale: Double) -> [Int] { GlyphAtlas.pixelSizes(points: [20, 13, 11], scale: scale) }

    /// Changes whenever the still part of the dashboard must be drawn again.
    var generation: UInt64 { telemetry.generation }

    /// The outputs in tile order (logical position), and the primary's tile.
    func arrange(primary: String?) -> (count: Int, primaryIndex: Int) {
        let outputs = telemetry.read { entries in OutputOrder.sorted(entries.values.map(\.output)) }
        order.removeAll(keepingCapacity: true)
        for output in outputs { order.append(output.id) }
        return (outputs.count, outputs.firstIndex { $0.name == primary } ?? -1)
    }

    /// The atlas for text at `scale` pixels per point: title, body and small text. Kept
    /// for the scale it was asked for last: asking again allocates nothing.
    private func fonts(scale: Double) -> (atlas: GlyphAtlas, title: GlyphAtlas.Font, body: GlyphAtlas.Font,
                                          small: GlyphAtlas.Font)? {
        if let atlasFor, atlasFor.scale == scale { return (atlasFor.atlas, atlasFor.atlas.fonts[0], atlasFor.atlas.fonts[1],
                                                           atlasFor.atlas.fonts[2]) }
        guard let atlas = painter.atlas(sizes: Dashboard.fontSizes(scale: scale)) else { return nil }
        atlasFor = (scale, atlas)
        return (atlas, atlas.fonts[0], atlas.fonts[1], atlas.fonts[2])
    }
    private var atlasFor: (scale: Double, atlas: GlyphAtlas)?

    /// Draws the parts that change only with the outputs: title, keys, names, modes,
    /// roles. Also works out the live regions.
    func drawStill(layout: SceneLayout, state: Scene.State, target: RenderTarget) {
        painter.batch.clearQuads()
        liveRegions.removeAll(keepingCapacity: true)
        guard let fonts = fonts(scale: layout.pointSize) else { return }
        let (atlas, title, body, small) = (fonts.atlas, fonts.title, fonts.body, fonts.small)
        let ox = Int(layout.canvas.x), oy = Int(layout.canvas.y)
        let safe = layout.safe
        let left = Int(safe.x) + Int(12 * layout.pointSize)
        // Title band: "glout", then the layout and the number of outputs.
        let bandBaseline = oy + Int(layout.bandHeight * 0.5) + title.ascender / 2 - 2
        var pen = painter.batch.text("glout".utf8, x: left, baseline: bandBaseline, font: title, atlas: atlas, Dashboard.light, record: "glout")
        pen += Int(16 * layout.pointSize)
        pen = painter.batch.text(state.layout.rawValue.utf8, x: pen, baseline: bandBaseline,
                         font: body, atlas: atlas, Dashboard.light, record: state.layout.rawValue)
        number.set(Double(order.count), decimals: 0, suffix: order.count == 1 ? " output" : " outputs")
        pen = painter.batch.text("  ·  ".utf8, x: pen, baseline: bandBaseline, font: body, atlas: atlas, Dashboard.dim)
        painter.batch.text(number.text, x: pen, baseline: bandBaseline, font: body, atlas: atlas, Dashboard.light)
        // The key bindings along the bottom of the safe area, as many as fit.
        let keysBaseline = Int(safe.y + safe.height) - Int(8 * layout.pointSize)
        let keysEnd = Int(safe.x + safe.width) - Int(12 * layout.pointSize)
        pen = left
        for action in KeyAction.allCases {
            let (key, what) = action.help
            let width = TextBatch.width(of: (key + " " + what).utf8, font: small)
            guard pen + width <= keysEnd else {
                painter.batch.text("…".utf8, x: pen, baseline: keysBaseline, font: small, atlas: atlas, Dashboard.dim)
                break
            }
            pen = painter.batch.text(key.utf8, x: pen, baseline: keysBaseline, font: small, atlas: atlas, Dashboard.light,
                                     record: key)
            pen = painter.batch.text((" " + what).utf8, x: pen, baseline: keysBaseline, font: small, atlas: atlas, Dashboard.dim,
                                     record: what)
            pen += Int(14 * layout.pointSize)
        }
        // Each output's tile: name, mode and scale, role, each cut to the tile's width.
        telemetry.read { entries in
            for (index, id) in order.enumerated() {
                guard let output = entries[id]?.output else { continue }
                let tile = layout.tile(index)
                let padding = Int(8 * layout.pointSize)
                let tx = ox + Int(tile.x) + padding
                let room = Int(tile.width) - 2 * padding
                if painter.batch.runs != nil {
                    // For the tests: where the tile is.
                    painter.batch.runs!.append(.init(text: "tile " + output.name, x: ox + Int(tile.x), y: oy + Int(tile.y),
                                                     width: Int(tile.width), height: Int(tile.height), ink: 0))
                }
                let primary = output.name == state.primary
                let role = Identification.role(of: output, in: state)
                let lines = [(TextBatch.fitting(output.name, width: room, font: body), body, Dashboard.light),
                             (TextBatch.fitting([Identification.describe(output.currentMode),
                                                 Identification.describe(scale: Double(output.scale)),
                                                 output.transform.description].joined(separator: "  "), width: room, font: small),
                              small, Dashboard.dim),
                             (TextBatch.fitting(role, width: room, font: small), small, primary ? Dashboard.light : Dashboard.dim)]
                var baseline = oy + Int(tile.y) + padding + body.ascender
                for (text, font, colour) in lines {
                    painter.batch.text(text.utf8, x: tx, baseline: baseline, font: font, atlas: atlas, colour, record: text)
                    baseline += small.lineHeight + Int(2 * layout.pointSize)
                }
                // The live part, the rest of the tile: the rate, the interval graph and
                // their histogram.
                let liveTop = baseline - small.lineHeight + Int(4 * layout.pointSize)
                let liveBottom = oy + Int(tile.y + tile.height) - Int(6 * layout.pointSize)
                if liveBottom > liveTop {
                    liveRegions.append((id, Rect(x: Int32(tx - 2), y: Int32(liveTop), width: Int32(room + 4),
                                                 height: Int32(liveBottom - liveTop))))
                }
            }
        }
        flush(target: target)
    }

    /// Draws the live parts: each output's rate and its interval graph.
    func drawLive(layout: SceneLayout, state: Scene.State, target: RenderTarget, now: UInt64) {
        guard let fonts = fonts(scale: layout.pointSize) else { return }
        let (atlas, body) = (fonts.atlas, fonts.body)
        painter.batch.clearQuads()
        for (id, region) in liveRegions {
            guard let (n, period) = recentFrames(of: id, now: now) else { continue }
            let baseline = Int(region.y) + body.ascender
            let x = Int(region.x) + 2
            if state.frozen != nil {
                painter.batch.text("frozen".utf8, x: x, baseline: baseline, font: body, atlas: atlas, Dashboard.light)
                continue
            }
            // Frames in the last second, and the intervals of the last two.
            var recent = 0
            while recent < n && times[recent] + 1_000_000_000 >= now { recent += 1 }
            let rate = recent > 1 ? Double(recent - 1) * 1e9 / Double(times[0] - times[recent - 1]) : 0
            number.set(rate, decimals: 1, suffix: " fps")
            var pen = painter.batch.text(number.text, x: x, baseline: baseline, font: body, atlas: atlas, Dashboard.light)
            if state.layout == .span, let worst = worstLanding(of: id) {
                // How far from its target the worst frame of the last second landed.
                number.set(Double(worst) / 1e6, decimals: 1, suffix: " ms")
                let after = painter.batch.text("  sync ±".utf8, x: pen, baseline: baseline, font: body, atlas: atlas, Dashboard.dim)
                pen = painter.batch.text(number.text, x: after, baseline: baseline, font: body, atlas: atlas,
                                         Double(worst) > 0.5 * period ? Dashboard.warning : Dashboard.light)
            }
            // The graph, a bar per interval at the time it ended, and beside it (where
            // the tile is wide enough) their histogram; both 0 to 2.5 periods, the
            // period itself marked.
            let graphTop = Double(baseline + Int(6 * layout.pointSize))
            let graphHeight = Double(region.y + region.height) - graphTop
            guard graphHeight > 4, n > 1 else { continue }
            let width = Double(region.width) - 4
            let split = width >= 160 * layout.pointSize
            let graphWidth = split ? (width * 0.7).rounded(.down) : width
            let gx = Double(region.x) + 2
            let line = Float(max(1, layout.pointSize * 0.5))
            let oneRefresh = graphTop + graphHeight * (1 - 1 / 2.5)
            painter.batch.rectangle(Float(gx), Float(oneRefresh), Float(graphWidth), line, atlas: atlas, Dashboard.mark)
            // What the marked line stands for, at the top right, clear of the bars.
            number.set(period / 1e6, decimals: 1, suffix: " ms refresh")
            let label = TextBatch.width(of: number.text, font: fonts.small)
            if Double(pen + label) + 8 * layout.pointSize < gx + width {
                painter.batch.text(number.text, x: Int(gx + width) - label, baseline: baseline, font: fonts.small, atlas: atlas,
                                   Dashboard.dim)
            }
            drawGraph(count: n, now: now, period: period, x: gx, top: graphTop, width: graphWidth, height: graphHeight,
                      bar: max(1, layout.pointSize), atlas: atlas)
            if split {
                let gap = (8 * layout.pointSize).rounded()
                drawHistogram(count: n, period: period, x: gx + graphWidth + gap, top: graphTop,
                              width: width - graphWidth - gap, height: graphHeight, line: line, atlas: atlas)
            }
        }
        flush(target: target)
        if let runsFile {
            // Tests read the runs the layout made for the first frame, still and live.
            self.runsFile = nil
            if let data = try? JSONEncoder().encode(painter.batch.runs ?? []) { try? data.write(to: URL(fileURLWithPath: runsFile)) }
            painter.batch.runs = nil
        }
    }

    /// The interval graph of the `count` frame times in `times`: one bar per pixel column
    /// at most (the longest interval in it), as at 166 Hz two seconds are 330 intervals,
    /// more than the graph is wide.
    private func drawGraph(count n: Int, now: UInt64, period: Double, x gx: Double, top: Double, width: Double,
                           height: Double, bar: Double, atlas: GlyphAtlas) {
        var column = -1, longest = 0.0
        func drawBar() {
            guard column >= 0 else { return }
            let barHeight = min(1, longest / period / 2.5) * height
            painter.batch.rectangle(Float(gx + Double(column) * bar), Float(top + height - barHeight), Float(bar),
                                    Float(barHeight), atlas: atlas, longest > 1.5 * period ? Dashboard.warning : Dashboard.bar)
        }
        for i in 0..<(n - 1) {
            let interval = Double(times[i] - times[i + 1])
            let age = Double(now - times[i]) / 2e9
            let at = Int(((width - bar) * (1 - age) / bar).rounded(.down))
            if at != column {
                drawBar()
                column = at
                longest = 0
            }
            longest = max(longest, interval)
        }
        drawBar()
    }

    /// How the intervals spread: ten bins of a quarter period from 0 to 2.5 periods (the
    /// last also takes anything longer), each bar as high as its share of the tallest,
    /// with the period marked.
    private func drawHistogram(count n: Int, period: Double, x: Double, top: Double, width: Double, height: Double,
                               line: Float, atlas: GlyphAtlas) {
        guard width > 20 else { return }
        for bin in bins.indices { bins[bin] = 0 }
        for i in 0..<(n - 1) {
            let bin = min(bins.count - 1, Int(Double(times[i] - times[i + 1]) / period * 4))
            bins[bin] += 1
        }
        let tallest = Double(bins.max() ?? 1)
        let binWidth = width / Double(bins.count)
        for (bin, count) in bins.enumerated() where count > 0 {
            let barHeight = max(1, Double(count) / tallest * height)
            painter.batch.rectangle(Float(x + Double(bin) * binWidth + 1), Float(top + height - barHeight),
                                    Float(max(1, binWidth - 2)), Float(barHeight), atlas: atlas,
                                    bin >= 6 ? Dashboard.warning : Dashboard.bar)
        }
        // One period: between bins 3 and 4.
        painter.batch.rectangle(Float(x + 4 * binWidth) - line / 2, Float(top), line, Float(height), atlas: atlas, Dashboard.mark)
    }

    /// Copies the times of `id`'s frames of the last two seconds, newest first, into
    /// `times`, and returns how many there are and the output's refresh period (ns). The
    /// telemetry lock, which every render thread takes once a frame, is held for this
    /// copy only.
    private func recentFrames(of id: UInt32, now: UInt64) -> (count: Int, period: Double)? {
        telemetry.read { entries in
            guard let entry = entries[id] else { return nil }
            var n = 0
            for i in 0..<entry.count {
                let t = entry.times[(entry.next - 1 - i + Telemetry.capacity) % Telemetry.capacity]
                // Another output's callback can come after this frame's: skip what is newer.
                if t > now { continue }
                guard t + 2_000_000_000 >= now else { break }
                times[n] = t
                n += 1
            }
            return (n, Double((entry.output.currentMode?.refreshPeriod ?? OutputMode.assumedRefreshPeriod).inNanoseconds))
        }
    }

    /// The largest distance (ns) between a frame's target and its landing over about the
    /// last second of `id`'s frames, nil before any landed.
    private func worstLanding(of id: UInt32) -> Int64? {
        telemetry.read { entries in
            guard let entry = entries[id], entry.landingCount > 0 else { return nil }
            let period = (entry.output.currentMode?.refreshPeriod ?? OutputMode.assumedRefreshPeriod).inNanoseconds
            let recent = min(entry.landingCount, max(1, Int(1_000_000_000 / max(1, period))))
            var worst: Int64 = 0
            for i in 0..<recent {
                worst = max(worst, abs(entry.landings[(entry.nextLanding - 1 - i + Telemetry.capacity) % Telemetry.capacity]))
            }
            return worst
        }
    }

    private func flush(target: RenderTarget) { painter.flush(target: target) }
}
