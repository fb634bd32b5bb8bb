/// `bench --plot`: per output, the frame intervals over time and their histogram, for
/// each run (independent, and coupled with --compare) in its own colour.
struct PacingPlot {
    let runs: [BenchRun]

    static let colors = [Bitmap.Color(31, 119, 180), Bitmap.Color(230, 110, 20)]
    static let width = 1400
    static let rowHeight = 320
    static let header = 64

    func write(to path: String) throws {
        let title = try FontFace(pixelSize: 20)
        let label = try FontFace(pixelSize: 14)
        let small = try FontFace(pixelSize: 12)
        let names = runs.first?.outputs.map(\.name) ?? []
        var canvas = Bitmap(width: PacingPlot.width, height: PacingPlot.header + names.count * PacingPlot.rowHeight + 30,
                            background: .white)
        let modes = runs.map(\.mode.rawValue).joined(separator: " vs ")
        canvas.text("glout bench: frame intervals, \(modes) pacing, \(format(runs.first?.seconds ?? 0, 1)) s per run",
                    x: 20, y: 30, font: title, .black)
        var legendX = 20
        for (index, run) in runs.enumerated() {
            let color = PacingPlot.colors[index % PacingPlot.colors.count]
            canvas.fill(x: legendX, y: 44, width: 14, height: 10, color)
            let text = "\(run.mode.rawValue) pacing"
            canvas.text(text, x: legendX + 20, y: 54, font: label, .black)
            legendX += 40 + label.width(of: text)
        }
        canvas.text("dashed: one refresh period (grey), 1.5 periods = a missed refresh (red)",
                    x: legendX + 20, y: 54, font: small, Bitmap.Color(90, 90, 90))
        for (row, name) in names.enumerated() {
            draw(output: name, top: PacingPlot.header + row * PacingPlot.rowHeight, on: &canvas, label: label, small: small)
        }
        try canvas.writePNG(to: path)
    }

    /// Where one output's row draws: the timeline's box, the histogram's columns and the
    /// vertical scale they share.
    private struct Row {
        var left: Int, right: Int, top: Int, bottom: Int
        var histogramLeft: Int, histogramRight: Int
        /// The top of the vertical axis, in milliseconds.
        var yMax: Double

        func y(_ milliseconds: Double) -> Int {
            bottom - Int(Double(bottom - top) * min(milliseconds, yMax) / yMax)
        }
    }

    private func draw(output name: String, top: Int, on canvas: inout Bitmap, label: FontFace, small: FontFace) {
        let entries = runs.map { $0.outputs.first { $0.name == name } }
        guard let first = entries.compactMap({ $0 }).first else { return }
        let period = Double(first.period) / 1e6
        // The vertical range: up to 2.5 periods, or to the slowest p99.9 with room above.
        let tallest = entries.compactMap { $0?.pacing.intervals.p999 }.max() ?? period
        let ceiling = max(period * 2.5, min(tallest * 1.2, period * 8))
        let step = [1.0, 2, 5, 10, 20, 50, 100].first { ceiling / $0 <= 8 } ?? 200
        let row = Row(left: 80, right: 1000, top: top + 40, bottom: top + PacingPlot.rowHeight - 40,
                      histogramLeft: 1040, histogramRight: PacingPlot.width - 30, yMax: (ceiling / step).rounded(.up) * step)

        var heading = "\(name): refresh \(format(period, 2)) ms"
        for (index, entry) in entries.enumerated() {
            guard let entry else { continue }
            heading += " | \(runs[index].mode.rawValue): \(format(entry.pacing.framesPerSecond, 1)) fps, "
                + "p99 \(format(entry.pacing.intervals.p99, 1)) ms, max \(format(entry.pacing.intervals.max, 1)) ms, "
                + "missed \(entry.pacing.missed), jank \(format(entry.pacing.jankPercent, 1))%"
        }
        canvas.text(heading, x: row.left, y: top + 24, font: label, .black)
        drawAxes(row, period: period, step: step, on: &canvas, small: small)
        let seconds = max(1, runs.map(\.seconds).max() ?? 1)
        drawTimeAxis(row, seconds: seconds, on: &canvas, small: small)
        for (index, entry) in entries.enumerated().reversed() {
            guard let entry else { continue }
            let color = PacingPlot.colors[index % PacingPlot.colors.count]
            drawTimeline(entry.pacing.intervalSeries, row, seconds: seconds, color: color, on: &canvas)
            drawHistogram(entry.pacing.intervalSeries, row, color: color, on: &canvas)
        }
        canvas.text("frames per interval (histogram)", x: row.histogramLeft + 4, y: row.bottom + 18, font: small, .black)
    }

    /// Grid, axes, and the lines at one refresh period and at 1.5 (a missed refresh).
    private func drawAxes(_ row: Row, period: Double, step: Double, on canvas: inout Bitmap, small: FontFace) {
        let grid = Bitmap.Color(225, 225, 225)
        var tick = 0.0
        while tick <= row.yMax + 1e-9 {
            canvas.line(row.left, row.y(tick), row.histogramRight, row.y(tick), grid)
            canvas.text("\(format(tick, step < 1 ? 1 : 0)) ms", x: row.left - 8, y: row.y(tick) + 4, font: small, .black,
                        alignRight: true)
            tick += step
        }
        canvas.line(row.left, row.top, row.left, row.bottom, .black)
        canvas.line(row.left, row.bottom, row.right, row.bottom, .black)
        canvas.line(row.histogramLeft, row.top, row.histogramLeft, row.bottom, .black)
        canvas.line(row.left, row.y(period), row.histogramRight, row.y(period), Bitmap.Color(120, 120, 120), dash: 6)
        canvas.line(row.left, row.y(period * 1.5), row.histogramRight, row.y(period * 1.5), Bitmap.Color(210, 40, 40), dash: 6)
    }

    private func drawTimeAxis(_ row: Row, seconds: Double, on canvas: inout Bitmap, small: FontFace) {
        let xStep = [1.0, 2, 5, 10, 30, 60, 120].first { seconds / $0 <= 12 } ?? 300
        var second = 0.0
        while second <= seconds + 1e-9 {
            let x = row.left + Int(Double(row.right - row.left) * second / seconds)
            canvas.line(x, row.bottom, x, row.bottom + 4, .black)
            canvas.text("\(Int(second)) s", x: x - 8, y: row.bottom + 18, font: small, .black)
            second += xStep
        }
    }

    /// Each interval at the time it ended; those above the axis marked at its top.
    private func drawTimeline(_ intervals: [UInt64], _ row: Row, seconds: Double, color: Bitmap.Color,
                              on canvas: inout Bitmap) {
        var elapsed = 0.0
        var previous: (Int, Int)?
        for interval in intervals {
            let ms = Double(interval) / 1e6
            elapsed += ms / 1000
            let point = (row.left + Int(Double(row.right - row.left) * min(elapsed, seconds) / seconds), row.y(ms))
            if let previous { canvas.line(previous.0, previous.1, point.0, point.1, color, alpha: 110) }
            canvas.fill(x: point.0 - 1, y: point.1 - 1, width: 3, height: 3, color, alpha: 200)
            if ms > row.yMax { canvas.fill(x: point.0 - 2, y: row.top - 6, width: 5, height: 5, Bitmap.Color(210, 40, 40)) }
            previous = point
        }
    }

    /// Horizontal bars, one per bin of the vertical axis.
    private func drawHistogram(_ intervals: [UInt64], _ row: Row, color: Bitmap.Color, on canvas: inout Bitmap) {
        let bins = 80
        var counts = [Int](repeating: 0, count: bins)
        for interval in intervals {
            counts[min(bins - 1, Int(Double(interval) / 1e6 / row.yMax * Double(bins)))] += 1
        }
        let most = max(1, counts.max() ?? 1)
        let binHeight = max(1, (row.bottom - row.top) / bins)
        for (bin, count) in counts.enumerated() where count > 0 {
            let length = max(2, Int(Double(row.histogramRight - row.histogramLeft - 10) * Double(count) / Double(most)))
            let yTop = row.bottom - (bin + 1) * (row.bottom - row.top) / bins
            canvas.fill(x: row.histogramLeft + 1, y: yTop, width: length, height: binHeight, color, alpha: 170)
        }
    }
}
