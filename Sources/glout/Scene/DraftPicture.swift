import WaylandOutputs

/// The draft first frame of the control and content views, written by the CPU into the
/// window's wl_shm buffer (``OutputRenderer/drawDraft(_:into:in:)``): the same picture
/// as control.frag and content.frag draw, computed as they compute it, without text, so
/// that the first frame waits for no program's code to be compiled (llvmpipe compiles it
/// at a program's first draw: about 100 ms with an empty shader cache, BENCHMARKS.md,
/// "Frame cost and fair shares"). Pure.
struct DraftPicture {
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

    /// At most this many pixels are computed a side, each then filling a square block of
    /// the buffer: a larger draft (a 4K output's is 1920x1080) costs no more than 640x360
    /// (about 10 ms here), and the compositor scales the draft up anyway.
    static let computedSide = (width: 640, height: 360)

    /// Writes the picture into `pixels` (rows top first, 0xAARRGGBB).
    func draw(into pixels: UnsafeMutableBufferPointer<UInt32>) {
        let width = Int(size.width), height = Int(size.height)
        guard width > 0, height > 0, pixels.count >= width * height else { return }
        for i in 0..<(width * height) { pixels[i] = 0xFF00_0000 }
        let left = max(0, min(width, Int(canvas.x))), right = max(left, min(width, Int(canvas.x + canvas.width)))
        let top = max(0, min(height, Int(canvas.y))), bottom = max(top, min(height, Int(canvas.y + canvas.height)))
        let step = max(1, (right - left + Self.computedSide.width - 1) / Self.computedSide.width,
                       (bottom - top + Self.computedSide.height - 1) / Self.computedSide.height)
        // Each block's colour is the picture's at the block's centre.
        let columns = stride(from: left, to: right, by: step).map { Float($0 - Int(canvas.x)) + Float(min(step, right - $0)) / 2 }
        let perColumn = columns.map { view == .control ? controlColumn($0) : contentColumn($0) }
        for blockTop in stride(from: top, to: bottom, by: step) {
            let rows = min(step, bottom - blockTop)
            let py = Float(blockTop - Int(canvas.y)) + Float(rows) / 2
            for (i, px) in columns.enumerated() {
                let point = SIMD2<Float>(px, py)
                let colour = DraftPicture.packed(view == .control ? control(point, column: perColumn[i])
                                                    : content(point, column: perColumn[i]))
                let blockLeft = left + i * step
                for y in blockTop..<(blockTop + rows) {
                    for x in blockLeft..<min(blockLeft + step, right) { pixels[y * width + x] = colour }
                }
            }
        }
    }

    /// What content.frag computes from the column alone: the first wave of the fields.
    func contentColumn(_ x: Float) -> Float {
        let w = Float(canvas.width), h = Float(canvas.height)
        return Self.wave((x / w - 0.5) * (w / h) * 0.5 + 0.2)
    }

    /// content.frag at picture pixel `px` (from the top left), rings included; `column`
    /// is ``contentColumn(_:)`` of its column.
    func content(_ px: SIMD2<Float>, column: Float? = nil) -> SIMD3<Float> {
        let w = Float(canvas.width), h = Float(canvas.height)
        let uv = SIMD2<Float>(px.x / w, 1 - px.y / h)
        let p = (uv - 0.5) * SIMD2<Float>(w / h, 1)
        let a = (column ?? contentColumn(px.x)) + Self.wave(p.y * 0.6 - 0.3)
        let b = Self.wave((p.x + p.y) * 0.4 + 0.1)
        var colour = Self.mix(SIMD3(0.85, 0.30, 0.45), SIMD3(0.20, 0.55, 0.90), a * 0.25 + 0.5)
        colour = Self.mix(colour, SIMD3(0.95, 0.80, 0.25), b * 0.3 + 0.3)
        colour = Self.mix(colour, accentVector, 0.2)
        let fromRings = px - SIMD2(Float(rings.x), Float(rings.y))
        let ringsRadius = max(Float(rings.radius), 1)
        if abs(fromRings.x) < ringsRadius, abs(fromRings.y) < ringsRadius, case let r = Self.length(fromRings) / ringsRadius, r < 1 {
            let t = Float(time.truncatingRemainder(dividingBy: 3600))
            let ring = Self.smoothstep(0.35, 0.5, Self.wave(r * 1.44 - t * 0.48))
            colour = Self.mix(colour, SIMD3(1, 1, 1), ring * 0.45 * Self.smoothstep(0.97, 0.13, r))
        }
        let s = px - SIMD2(Float(strip.x), Float(strip.y))
        if s.x >= 0, s.y >= 0, s.x < Float(strip.width), s.y < Float(strip.height) {
            let scale = Float(pixelsPerPoint)
            if s.x >= Float(barX) && s.x < Float(barX) + 12 * scale { colour = SIMD3(1, 1, 1) }
            if s.y < scale { colour = SIMD3(0, 0, 0) }
        }
        return colour
    }

    /// What control.frag computes from the column alone: the vertical grid lines.
    func controlColumn(_ x: Float) -> Float {
        let h = Float(canvas.height), line = max(1, h / 480), cell = h / 12
        let offset = (x - Float(canvas.width) * 0.5) / cell + 0.5
        return Self.band(abs(Self.fract(offset) - 0.5) * cell, line * 0.5)
    }

    /// control.frag at picture pixel `px` (from the top left); `column` is
    /// ``controlColumn(_:)`` of its column.
    func control(_ px: SIMD2<Float>, column: Float? = nil) -> SIMD3<Float> {
        let h = Float(canvas.height)
        let line = max(1, h / 480)
        var colour = Self.mix(SIMD3(0.11, 0.13, 0.19), SIMD3(0.07, 0.09, 0.13), px.y / h)
        let cell = h / 12
        let offsetY = (px.y - h * 0.5) / cell + 0.5
        let gridLine = max(column ?? controlColumn(px.x), Self.band(abs(Self.fract(offsetY) - 0.5) * cell, line * 0.5))
        colour = Self.mix(colour, SIMD3(0.20, 0.24, 0.32), gridLine * 0.6)
        let band = Float(bandHeight)
        if px.y < band { colour = Self.mix(colour, accentVector * 0.55, 0.9) }
        colour = Self.mix(colour, SIMD3(0.93, 0.94, 0.97), Self.band(px.y - (band.rounded(.down) + 0.5), 0.5))
        let d = px - SIMD2(Float(dial.x), Float(dial.y))
        let radius = Float(dial.radius)
        if abs(d.x) < radius + line * 4, abs(d.y) < radius + line * 4, case let r = Self.length(d), r < radius + line * 4 {
            colour = Self.mix(colour, SIMD3(0.85, 0.88, 0.95), Self.band(r - radius, line * 2))
            let along = d.x * Float(hand.x) + d.y * Float(hand.y)
            let across = abs(d.x * Float(hand.y) - d.y * Float(hand.x))
            if along > 0 && along < radius * 0.9 { colour = Self.mix(colour, accentVector, Self.band(across, line * 3)) }
            if r < line * 6 { colour = Self.mix(colour, SIMD3(0.9, 0.9, 0.9), Self.band(r, line * 5)) }
        }
        let tile = (px - SIMD2(Float(tiles.x), Float(tiles.y))) / SIMD2(Float(tiles.width), Float(tiles.height))
        if tile.x >= 0, tile.y >= 0, tile.x < 1, tile.y < 1 {
            let at = tile * SIMD2(Float(grid.columns), Float(grid.rows))
            let inside = SIMD2(Self.fract(at.x), Self.fract(at.y))
            let index = at.y.rounded(.down) * Float(grid.columns) + at.x.rounded(.down)
            if inside.x > 0.04, inside.y > 0.04, inside.x < 0.96, inside.y < 0.96, index < max(Float(grid.count), 1) {
                colour = index == Float(grid.primary) ? accentVector * 0.55 : SIMD3(0.16, 0.19, 0.26)
            }
        }
        return colour
    }

    private var accentVector: SIMD3<Float> { SIMD3(Float(accent.r), Float(accent.g), Float(accent.b)) }

    /// A colour of 0 to 1 a channel as an opaque 0xAARRGGBB pixel, rounded as GL stores it.
    static func packed(_ colour: SIMD3<Float>) -> UInt32 {
        func channel(_ value: Float) -> UInt32 { UInt32((min(max(value, 0), 1) * 255).rounded()) }
        return 0xFF00_0000 | channel(colour.x) << 16 | channel(colour.y) << 8 | channel(colour.z)
    }

    // The GLSL built-ins and canvas.glsl's helpers the two shaders use.
    static func fract(_ x: Float) -> Float { x - x.rounded(.down) }
    static func mix(_ a: SIMD3<Float>, _ b: SIMD3<Float>, _ t: Float) -> SIMD3<Float> { a + (b - a) * t }
    static func length(_ v: SIMD2<Float>) -> Float { (v.x * v.x + v.y * v.y).squareRoot() }
    static func smoothstep(_ edge0: Float, _ edge1: Float, _ x: Float) -> Float {
        let t = min(max((x - edge0) / (edge1 - edge0), 0), 1)
        return t * t * (3 - 2 * t)
    }
    static func band(_ d: Float, _ w: Float) -> Float { min(max(w + 0.5 - abs(d), 0), 1) }
    static func wave(_ x: Float) -> Float {
        let t = abs(fract(x) - 0.5) * 2
        return t * t * (6 - 4 * t) - 1
    }
}
