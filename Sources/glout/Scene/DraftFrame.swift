import WaylandOutputs

/// The draft first frame of the control and content views, written by the CPU into the
/// window's wl_shm buffer (``OutputRenderer/drawDraft(_:into:in:)``): the same picture
/// as control.frag and content.frag draw, computed as they compute it, without text, so
/// that the first frame waits for no program's code to be compiled (llvmpipe compiles it
/// at a program's first draw: about 100 ms with an empty shader cache, BENCHMARKS.md,
/// "Frame cost and fair shares"). Pure.
///
/// What a shader computes from a pixel's column alone or its row alone is computed once
/// per column and once per row, the dial, the tiles, the rings and the strip only in their
/// boxes, all in scalar arithmetic. At the largest computed size (640x360) that takes
/// 21 ms (control) and 27 to 30 ms (content) in a debug build, about 250 ms under
/// ThreadSanitizer; a first version that followed the shaders pixel by pixel in SIMD
/// vectors took 73 to 107 ms in a debug build and over a second under ThreadSanitizer,
/// where tests that count frames then failed.
struct DraftFrame {
    var view: SceneView
    /// The buffer, and the picture's rectangle in it (black around it).
    var size: Size
    var canvas: Rect
    var accent: RGB
    /// The values the shaders take from the Frame block, in canvas pixels.
    var time: Double
    var pixelsPerPoint: Double
    var bandHeight: Double
    var hand: (x: Double, y: Double)
    var dial: Circle
    var tiles: Box
    var grid: (columns: Double, rows: Double, count: Double, primary: Double)
    var rings: Circle
    var strip: Box
    var barX: Double

    /// A colour of 0 to 1 a channel.
    struct Colour: Equatable {
        var r: Float, g: Float, b: Float
        init(_ r: Float, _ g: Float, _ b: Float) { (self.r, self.g, self.b) = (r, g, b) }
        func scaled(_ k: Float) -> Colour { Colour(r * k, g * k, b * k) }
    }

    /// At most this many pixels are computed a side, each then filling a square block of
    /// the buffer: a larger draft (a 4K output's is 1920x1080) costs no more than 640x360,
    /// and the compositor scales the draft up anyway.
    static let computedSide = (width: 640, height: 360)

    /// Writes the picture into `pixels` (rows top first, 0xAARRGGBB).
    func draw(into pixels: UnsafeMutableBufferPointer<UInt32>) {
        let width = Int(size.width), height = Int(size.height)
        guard width > 0, height > 0, pixels.count >= width * height, let out = pixels.baseAddress else { return }
        pixels.update(repeating: 0xFF00_0000)
        let left = max(0, min(width, Int(canvas.x))), right = max(left, min(width, Int(canvas.x + canvas.width)))
        let top = max(0, min(height, Int(canvas.y))), bottom = max(top, min(height, Int(canvas.y + canvas.height)))
        let step = max(1, (right - left + Self.computedSide.width - 1) / Self.computedSide.width,
                       (bottom - top + Self.computedSide.height - 1) / Self.computedSide.height)
        let blocks = Blocks(left: left, right: right, top: top, bottom: bottom, step: step,
                            origin: (Int(canvas.x), Int(canvas.y)), width: width, out: out)
        if view == .control { drawControl(blocks) } else { drawContent(blocks) }
    }

    /// The blocks of buffer pixels the picture is computed for, one colour each, a block's
    /// colour the picture's at its centre. The loops over them use plain pointers and no
    /// generic function, so that a debug build runs them at about 100 ns a computed pixel.
    struct Blocks {
        var left: Int, right: Int, top: Int, bottom: Int, step: Int
        var origin: (x: Int, y: Int)
        var width: Int
        var out: UnsafeMutablePointer<UInt32>

        var columns: Int { (right - left + step - 1) / step }
        var rows: Int { (bottom - top + step - 1) / step }
        /// The block centres, in canvas pixels.
        var xs: [Float] { (0..<columns).map { centre(left + $0 * step, right) - Float(origin.x) } }
        var ys: [Float] { (0..<rows).map { centre(top + $0 * step, bottom) - Float(origin.y) } }
        private func centre(_ start: Int, _ limit: Int) -> Float { Float(start) + Float(min(step, limit - start)) / 2 }

        /// The indices of the blocks whose centres `inside` holds.
        static func indices(of centres: [Float], where inside: (Float) -> Bool) -> (start: Int, end: Int) {
            guard let first = centres.firstIndex(where: inside), let last = centres.lastIndex(where: inside) else { return (0, 0) }
            return (first, last + 1)
        }

        /// Tables of a value per column or per row, interleaved: table `k`'s value for
        /// column or row `i` is at `i * tables.count + k`. The caller deallocates it.
        static func interleaved(_ tables: [[Float]], count: Int) -> UnsafeMutablePointer<Float> {
            let values = UnsafeMutablePointer<Float>.allocate(capacity: max(1, tables.count * count))
            for (k, table) in tables.enumerated() {
                for i in 0..<count { values[i * tables.count + k] = table[i] }
            }
            return values
        }

        /// Writes `value` into block (i, j).
        func put(_ value: UInt32, _ i: Int, _ j: Int) {
            let x0 = left + i * step, y0 = top + j * step
            if step == 1 { out[y0 * width + x0] = value; return }
            let x1 = x0 + step < right ? x0 + step : right, y1 = y0 + step < bottom ? y0 + step : bottom
            var y = y0
            while y < y1 {
                var x = x0
                while x < x1 { out[y * width + x] = value; x += 1 }
                y += 1
            }
        }
    }

    /// control.frag. Background, grid rows, title band and hairline depend on the row
    /// alone, so each row's colour where no grid column crosses it is computed once; what
    /// the grid columns and the tiles take from the column alone, once per column; the
    /// grid columns and the dial are computed where they are, a tile's inside being one
    /// colour.
    private func drawControl(_ blocks: Blocks) {
        let xs = blocks.xs, ys = blocks.ys
        let h = Float(canvas.height), line = max(1, h / 480)
        let band = Float(bandHeight), bandColour = accentColour.scaled(0.55)
        let (dialX, dialY, radius) = (Float(dial.x), Float(dial.y), Float(dial.radius))
        let reach = radius + line * 4, (handX, handY) = (Float(hand.x), Float(hand.y))
        let (ringReach, handReach, hubReach) = (line * 2 + 0.5, line * 3 + 0.5, line * 5 + 0.5)
        let dialColumns = Blocks.indices(of: xs) { abs($0 - dialX) < reach }
        let dialRows = Blocks.indices(of: ys) { abs($0 - dialY) < reach }
        let (tileX, tileY, tileW, tileH) = (Float(tiles.x), Float(tiles.y), Float(tiles.width), Float(tiles.height))
        let tileColumns = Blocks.indices(of: xs) { $0 >= tileX && ($0 - tileX) / tileW < 1 }
        let tileRows = Blocks.indices(of: ys) { $0 >= tileY && ($0 - tileY) / tileH < 1 }
        let (gridColumns, gridRows) = (Float(grid.columns), Float(grid.rows))
        let (tileCount, primary) = (max(Float(grid.count), 1), Float(grid.primary))
        let (lit, unlit) = (Self.packed(bandColour), Self.packed(Colour(0.16, 0.19, 0.26)))
        // Per column: x, the grid line's weight, the tile column and where in it. Per row:
        // y, the row's colour packed (as a float's bits) where no grid column crosses it,
        // the tile row and where in it.
        let atX = xs.map { ($0 - tileX) / tileW * gridColumns }, atY = ys.map { ($0 - tileY) / tileH * gridRows }
        let columns = Blocks.interleaved([xs, xs.map { controlColumn($0) }, atX.map { $0.rounded(.down) }, atX.map(Self.fract)],
                                         count: blocks.columns)
        let rowColours = ys.map { y in Float(bitPattern: Self.packed(control(x: 0, y: y, columnLine: 0, band: band, bandColour: bandColour))) }
        let rows = Blocks.interleaved([ys, rowColours, atY.map { $0.rounded(.down) }, atY.map(Self.fract)], count: blocks.rows)
        defer { columns.deallocate(); rows.deallocate() }
        let (columnCount, rowCount) = (blocks.columns, blocks.rows)
        var j = 0
        while j < rowCount {
            let row = rows + 4 * j
            let y = row[0], plain = row[1].bitPattern, tileRow = row[2], insideY = row[3]
            let inTileRow = j >= tileRows.start && j < tileRows.end && insideY > 0.04 && insideY < 0.96
            let inDialRow = j >= dialRows.start && j < dialRows.end
            var i = 0
            while i < columnCount {
                let column = columns + 4 * i
                var value = plain, tiled = false
                if inTileRow && i >= tileColumns.start && i < tileColumns.end {
                    let index = tileRow * gridColumns + column[2], insideX = column[3]
                    if insideX > 0.04 && insideX < 0.96 && index < tileCount {
                        value = index == primary ? lit : unlit
                        tiled = true
                    }
                }
                var inDial = inDialRow && i >= dialColumns.start && i < dialColumns.end
                if inDial {
                    // Only the ring, the hand and the hub change the dial's box.
                    let dx = column[0] - dialX, dy = y - dialY
                    let r = (dx * dx + dy * dy).squareRoot(), along = dx * handX + dy * handY, across = dx * handY - dy * handX
                    let offRing = r - radius
                    inDial = (offRing < 0 ? -offRing : offRing) < ringReach || r < hubReach
                        || (along > 0 && along < radius * 0.9 && (across < 0 ? -across : across) < handReach)
                }
                if !tiled && (column[1] != 0 || inDial) {
                    let x = column[0]
                    var colour = control(x: x, y: y, columnLine: column[1], band: band, bandColour: bandColour)
                    if inDial { colour = dialOver(colour, x: x, y: y, line: line) }
                    value = Self.packed(colour)
                }
                blocks.put(value, i, j)
                i += 1
            }
            j += 1
        }
    }

    /// control.frag's background, grid, band and hairline at canvas pixel (x, y), whose
    /// column's grid line weighs `columnLine`.
    private func control(x: Float, y: Float, columnLine: Float, band: Float, bandColour: Colour) -> Colour {
        let h = Float(canvas.height), line = max(1, h / 480), cell = h / 12
        let rowLine = Self.band(Self.magnitude(Self.fract((y - h * 0.5) / cell + 0.5) - 0.5) * cell, line * 0.5)
        var colour = Self.mix(Colour(0.11, 0.13, 0.19), Colour(0.07, 0.09, 0.13), y / h)
        colour = Self.mix(colour, Colour(0.20, 0.24, 0.32), (columnLine > rowLine ? columnLine : rowLine) * 0.6)
        if y < band { colour = Self.mix(colour, bandColour, 0.9) }
        return Self.mix(colour, Colour(0.93, 0.94, 0.97), Self.band(y - (band.rounded(.down) + 0.5), 0.5))
    }

    /// control.frag's dial (ring, hand, hub) over `colour` at canvas pixel (x, y).
    private func dialOver(_ colour: Colour, x: Float, y: Float, line: Float) -> Colour {
        let dx = x - Float(dial.x), dy = y - Float(dial.y), radius = Float(dial.radius)
        let (handX, handY) = (Float(hand.x), Float(hand.y))
        let r = (dx * dx + dy * dy).squareRoot()
        guard r < radius + line * 4 else { return colour }
        var colour = Self.mix(colour, Colour(0.85, 0.88, 0.95), Self.band(r - radius, line * 2))
        let along = dx * handX + dy * handY
        let across = Self.magnitude(dx * handY - dy * handX)
        if along > 0 && along < radius * 0.9 { colour = Self.mix(colour, accentColour, Self.band(across, line * 3)) }
        if r < line * 6 { colour = Self.mix(colour, Colour(0.9, 0.9, 0.9), Self.band(r, line * 5)) }
        return colour
    }

    /// content.frag. The fields are worked out channel by channel in the loop (the first
    /// wave's colour by column plus by row, then the diagonal wave); the rings and the
    /// pacing strip where they are.
    private func drawContent(_ blocks: Blocks) {
        let xs = blocks.xs, ys = blocks.ys
        let w = Float(canvas.width), h = Float(canvas.height)
        // p = (uv - 0.5) * (w / h, 1), uv.y counted from the bottom.
        let px = xs.map { ($0 / w - 0.5) * (w / h) }
        let py = ys.map { (1 - $0 / h) - 0.5 }
        let (ringX, ringY, ringsRadius) = (Float(rings.x), Float(rings.y), max(Float(rings.radius), 1))
        let ringColumns = Blocks.indices(of: xs) { abs($0 - ringX) < ringsRadius }
        let ringRows = Blocks.indices(of: ys) { abs($0 - ringY) < ringsRadius }
        let t = Float(time.truncatingRemainder(dividingBy: 3600))
        let (stripX, stripY) = (Float(strip.x), Float(strip.y))
        let stripColumns = Blocks.indices(of: xs) { $0 >= stripX && $0 - stripX < Float(strip.width) }
        let stripRows = Blocks.indices(of: ys) { $0 >= stripY && $0 - stripY < Float(strip.height) }
        let scale = Float(pixelsPerPoint), bar = Float(barX)
        let (pink, blue, yellow) = (Colour(0.85, 0.30, 0.45), Colour(0.20, 0.55, 0.90), Colour(0.95, 0.80, 0.25))
        let accent = accentColour
        // mix(pink, blue, a * 0.25 + 0.5) with a = wave(column) + wave(row): the column's
        // part and the row's part of each channel.
        let middle = Self.mix(pink, blue, 0.5), slope = Colour(blue.r - pink.r, blue.g - pink.g, blue.b - pink.b).scaled(0.25)
        let columnWaves = px.map { Self.wave($0 * 0.5 + 0.2) }, rowWaves = py.map { Self.wave($0 * 0.6 - 0.3) }
        let columns = Blocks.interleaved([xs, px, columnWaves.map { middle.r + slope.r * $0 }, columnWaves.map { middle.g + slope.g * $0 },
                                          columnWaves.map { middle.b + slope.b * $0 }], count: blocks.columns)
        let rows = Blocks.interleaved([ys, py, rowWaves.map { slope.r * $0 }, rowWaves.map { slope.g * $0 }, rowWaves.map { slope.b * $0 }],
                                      count: blocks.rows)
        defer { columns.deallocate(); rows.deallocate() }
        let (columnCount, rowCount) = (blocks.columns, blocks.rows)
        var j = 0
        while j < rowCount {
            let row = rows + 5 * j
            let y = row[0], rowP = row[1], rowR = row[2], rowG = row[3], rowB = row[4]
            let inRingRow = j >= ringRows.start && j < ringRows.end
            let inStripRow = j >= stripRows.start && j < stripRows.end
            var i = 0
            while i < columnCount {
                let column = columns + 5 * i
                // b = wave((p.x + p.y) * 0.4 + 0.1), then mix(colour, yellow, b * 0.3 + 0.3)
                // and mix(colour, accent, 0.2), written out.
                let d = (column[1] + rowP) * 0.4 + 0.1
                let u = d - d.rounded(.down) - 0.5
                let v = (u < 0 ? -u : u) * 2
                let s = (v * v * (6 - 4 * v) - 1) * 0.3 + 0.3
                let r1 = column[2] + rowR, g1 = column[3] + rowG, b1 = column[4] + rowB
                let r2 = r1 + (yellow.r - r1) * s, g2 = g1 + (yellow.g - g1) * s, b2 = b1 + (yellow.b - b1) * s
                var red = r2 + (accent.r - r2) * 0.2, green = g2 + (accent.g - g2) * 0.2, blue = b2 + (accent.b - b2) * 0.2
                if inRingRow && i >= ringColumns.start && i < ringColumns.end {
                    let dx = column[0] - ringX, dy = y - ringY
                    let r = (dx * dx + dy * dy).squareRoot() / ringsRadius
                    if r < 1 {
                        let ring = Self.smoothstep(0.35, 0.5, Self.wave(r * 1.44 - t * 0.48))
                        let k = ring * 0.45 * Self.smoothstep(0.97, 0.13, r)
                        red += (1 - red) * k
                        green += (1 - green) * k
                        blue += (1 - blue) * k
                    }
                }
                if inStripRow && i >= stripColumns.start && i < stripColumns.end {
                    let sx = column[0] - stripX, sy = y - stripY
                    if sx >= bar && sx < bar + 12 * scale { (red, green, blue) = (1, 1, 1) }
                    if sy < scale { (red, green, blue) = (0, 0, 0) }
                }
                red = red < 0 ? 0 : (red > 1 ? 1 : red)
                green = green < 0 ? 0 : (green > 1 ? 1 : green)
                blue = blue < 0 ? 0 : (blue > 1 ? 1 : blue)
                blocks.put(0xFF00_0000 | UInt32(red * 255 + 0.5) << 16 | UInt32(green * 255 + 0.5) << 8 | UInt32(blue * 255 + 0.5), i, j)
                i += 1
            }
            j += 1
        }
    }

    /// What control.frag computes from the column alone: the vertical grid lines.
    func controlColumn(_ x: Float) -> Float {
        let h = Float(canvas.height), line = max(1, h / 480), cell = h / 12
        let offset = (x - Float(canvas.width) * 0.5) / cell + 0.5
        return Self.band(abs(Self.fract(offset) - 0.5) * cell, line * 0.5)
    }

    private var accentColour: Colour { Colour(Float(accent.r), Float(accent.g), Float(accent.b)) }

    /// A colour as an opaque 0xAARRGGBB pixel, rounded as GL stores it.
    static func packed(_ colour: Colour) -> UInt32 {
        0xFF00_0000 | channel(colour.r) << 16 | channel(colour.g) << 8 | channel(colour.b)
    }
    private static func channel(_ value: Float) -> UInt32 { UInt32(clamped(value) * 255 + 0.5) }

    // Written without the generic min, max and abs, which a debug build calls unspecialized.
    static func clamped(_ x: Float) -> Float { x < 0 ? 0 : (x > 1 ? 1 : x) }
    static func magnitude(_ x: Float) -> Float { x < 0 ? -x : x }

    // The GLSL built-ins and canvas.glsl's helpers the two shaders use.
    static func fract(_ x: Float) -> Float { x - x.rounded(.down) }
    static func mix(_ a: Colour, _ b: Colour, _ t: Float) -> Colour {
        Colour(a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t)
    }
    static func smoothstep(_ edge0: Float, _ edge1: Float, _ x: Float) -> Float {
        let t = clamped((x - edge0) / (edge1 - edge0))
        return t * t * (3 - 2 * t)
    }
    static func band(_ d: Float, _ w: Float) -> Float { clamped(w + 0.5 - magnitude(d)) }
    static func wave(_ x: Float) -> Float {
        let t = magnitude(fract(x) - 0.5) * 2
        return t * t * (6 - 4 * t) - 1
    }
}
