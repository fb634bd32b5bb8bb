/// Quads for the dashboard (text and graph bars), laid out in framebuffer pixels (top
/// left origin) into one preallocated vertex array: nothing is allocated per frame.
struct TextBatch {
    /// Floats per vertex: position (2), atlas texel (2), colour (4).
    static let stride = 8
    static let capacity = 8192

    private(set) var vertices: [Float]
    private(set) var quads = 0
    private let capacity: Int

    /// A run of text as laid out, for tests that check it against the pixels.
    struct Run: Equatable, Codable {
        var text: String
        var x: Int, y: Int, width: Int, height: Int
        /// Atlas texels of the run's glyphs with coverage of at least half.
        var ink: Int
    }
    /// When set, every text run is recorded here (GLOUT_DASHBOARD_RUNS, GLOUT_LABEL_RUNS).
    var runs: [Run]?

    init(capacity: Int = TextBatch.capacity) {
        self.capacity = capacity
        vertices = [Float](repeating: 0, count: capacity * 6 * TextBatch.stride)
    }

    /// Empties the batch, keeping the recorded runs.
    mutating func clearQuads() { quads = 0 }

    /// A quad from (x0, y0) to (x1, y1) showing atlas texels (u0, v0) to (u1, v1).
    mutating func quad(_ x0: Float, _ y0: Float, _ x1: Float, _ y1: Float,
                       _ u0: Float, _ v0: Float, _ u1: Float, _ v1: Float, _ color: (Float, Float, Float, Float)) {
        guard quads < capacity else { return }
        let base = quads * 6
        // Two triangles; no array of corners, so no allocation.
        put(base, x0, y0, u0, v0, color)
        put(base + 1, x1, y0, u1, v0, color)
        put(base + 2, x0, y1, u0, v1, color)
        put(base + 3, x1, y0, u1, v0, color)
        put(base + 4, x1, y1, u1, v1, color)
        put(base + 5, x0, y1, u0, v1, color)
        quads += 1
    }

    @inline(__always)
    private mutating func put(_ vertex: Int, _ x: Float, _ y: Float, _ u: Float, _ v: Float,
                              _ color: (Float, Float, Float, Float)) {
        let i = vertex * TextBatch.stride
        vertices[i] = x; vertices[i + 1] = y; vertices[i + 2] = u; vertices[i + 3] = v
        vertices[i + 4] = color.0; vertices[i + 5] = color.1; vertices[i + 6] = color.2; vertices[i + 7] = color.3
    }

    /// A solid rectangle (the atlas's white texel).
    mutating func rectangle(_ x: Float, _ y: Float, _ width: Float, _ height: Float, atlas: GlyphAtlas,
                            _ color: (Float, Float, Float, Float)) {
        let s = (Float(atlas.solid.x) + 0.5, Float(atlas.solid.y) + 0.5)
        quad(x, y, x + width, y + height, s.0, s.1, s.0, s.1, color)
    }

    /// Lays `text` out from `x` with its baseline at `baseline`, whole pixels, and
    /// returns the pen position after it. Characters outside the atlas show as '?'.
    @discardableResult
    mutating func text(_ text: some Collection<UInt8>, x: Int, baseline: Int, font: GlyphAtlas.Font, atlas: GlyphAtlas,
                       _ color: (Float, Float, Float, Float), record: String? = nil) -> Int {
        var pen = x
        var ink = 0
        var top = Int.max, bottom = Int.min
        // The standard library's decoder, straight from the bytes: no String per run.
        var iterator = text.makeIterator()
        var decoder = UTF8()
        decoding: while true {
            let scalar: UInt32
            switch decoder.decode(&iterator) {
            case .scalarValue(let value): scalar = value.value
            case .emptyInput: break decoding
            case .error: scalar = 0xFFFD
            }
            let glyph = font.glyph(scalar)
            if glyph.width > 0 && glyph.height > 0 {
                let gx = pen + glyph.left, gy = baseline - glyph.top
                quad(Float(gx), Float(gy), Float(gx + glyph.width), Float(gy + glyph.height),
                     Float(glyph.atlasX), Float(glyph.atlasY),
                     Float(glyph.atlasX + glyph.width), Float(glyph.atlasY + glyph.height), color)
                // Only the tests' runs file wants the ink counted.
                if record != nil && runs != nil {
                    top = min(top, gy)
                    bottom = max(bottom, gy + glyph.height)
                    for row in 0..<glyph.height {
                        for column in 0..<glyph.width
                        where atlas.texels[(glyph.atlasY + row) * atlas.width + glyph.atlasX + column] >= 128 {
                            ink += 1
                        }
                    }
                }
            }
            pen += glyph.advance
        }
        if let record, runs != nil, top <= bottom {
            runs!.append(Run(text: record, x: x, y: top, width: pen - x, height: bottom - top, ink: ink))
        }
        return pen
    }
}

extension TextBatch {
    /// How far `text` moves the pen in `font`, in pixels.
    static func width(of text: some Collection<UInt8>, font: GlyphAtlas.Font) -> Int {
        var width = 0
        var iterator = text.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let value): width += font.glyph(value.value).advance
            case .emptyInput: return width
            case .error: width += font.glyph(0xFFFD).advance
            }
        }
    }

    /// `text` as it fits in `width` pixels of `font`: whole, or cut at a character and
    /// ended with "…".
    static func fitting(_ text: String, width: Int, font: GlyphAtlas.Font) -> String {
        guard TextBatch.width(of: text.utf8, font: font) > width else { return text }
        let ellipsis = font.glyph(0x2026).advance
        var kept = 0, end = text.startIndex
        for index in text.unicodeScalars.indices {
            let advance = font.glyph(text.unicodeScalars[index].value).advance
            if kept + advance + ellipsis > width { break }
            kept += advance
            end = text.unicodeScalars.index(after: index)
        }
        return String(text.unicodeScalars[..<end]) + "…"
    }
}

/// Decimal formatting into a fixed buffer: per-frame numbers without String.
struct NumberText {
    private(set) var bytes = [UInt8](repeating: 0, count: 32)
    private(set) var count = 0
    private var digits = [UInt8](repeating: 0, count: 20)

    /// `value` with `decimals` digits after the point, followed by `suffix` (ASCII).
    mutating func set(_ value: Double, decimals: Int, suffix: StaticString = "") {
        count = 0
        if value.isFinite && abs(value) < 1e15 {
            var scaled = (abs(value) * pow10(decimals)).rounded()
            if value < 0 && scaled > 0 { append(UInt8(ascii: "-")) }
            var n = 0
            repeat {
                digits[n] = UInt8(scaled.truncatingRemainder(dividingBy: 10)) + UInt8(ascii: "0")
                scaled = (scaled / 10).rounded(.down)
                n += 1
            } while (scaled > 0 || n <= decimals) && n < digits.count
            for i in stride(from: n - 1, through: 0, by: -1) {
                append(digits[i])
                if i == decimals && decimals > 0 { append(UInt8(ascii: ".")) }
            }
        } else {
            append(UInt8(ascii: "-"))
        }
        suffix.withUTF8Buffer { for byte in $0 { append(byte) } }
    }

    private mutating func append(_ byte: UInt8) {
        guard count < bytes.count else { return }
        bytes[count] = byte
        count += 1
    }

    private func pow10(_ n: Int) -> Double {
        var value = 1.0
        for _ in 0..<n { value *= 10 }
        return value
    }

    var text: ArraySlice<UInt8> { bytes[0..<count] }
}
