import CPNG
import WaylandOutputs

/// An RGBA pixel image in memory, drawn on the CPU (plots) or read back from GL
/// (snapshots, frame dumps, screenshots), written out as PNG: a file through libpng, a
/// screenshot in memory by ``PNGEncoder``.
struct Bitmap {
    struct Color: Equatable {
        var r, g, b: UInt8
        init(_ r: UInt8, _ g: UInt8, _ b: UInt8) { (self.r, self.g, self.b) = (r, g, b) }
        static let white = Color(255, 255, 255)
        static let black = Color(0, 0, 0)
    }

    let width: Int
    let height: Int
    private(set) var pixels: [UInt8]

    /// A picture from RGBA rows, top row first.
    init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 4)
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    init(width: Int, height: Int, background: Color) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 255, count: width * height * 4)
        fill(x: 0, y: 0, width: width, height: height, background)
    }

    /// Mixes `color` into one pixel with `alpha` (0-255); points outside are ignored.
    mutating func blend(_ x: Int, _ y: Int, _ color: Color, alpha: Int = 255) {
        guard x >= 0, y >= 0, x < width, y < height, alpha > 0 else { return }
        let i = (y * width + x) * 4
        let a = min(alpha, 255), keep = 255 - a
        pixels[i] = UInt8((Int(color.r) * a + Int(pixels[i]) * keep) / 255)
        pixels[i + 1] = UInt8((Int(color.g) * a + Int(pixels[i + 1]) * keep) / 255)
        pixels[i + 2] = UInt8((Int(color.b) * a + Int(pixels[i + 2]) * keep) / 255)
        pixels[i + 3] = 255
    }

    mutating func fill(x: Int, y: Int, width w: Int, height h: Int, _ color: Color, alpha: Int = 255) {
        for row in max(0, y)..<min(height, y + h) {
            for column in max(0, x)..<min(width, x + w) { blend(column, row, color, alpha: alpha) }
        }
    }

    /// Turns the picture upside down (GL reads rows bottom first) and makes it opaque.
    mutating func flipVertically() {
        let row = width * 4
        for y in 0..<height / 2 {
            for x in 0..<row { pixels.swapAt(y * row + x, (height - 1 - y) * row + x) }
        }
        for i in stride(from: 3, to: pixels.count, by: 4) { pixels[i] = 255 }
    }

    /// Darkens every pixel outside `rects` to about a third.
    mutating func dim(outside rects: [Rect]) {
        for y in 0..<height {
            for x in 0..<width where !rects.contains(where: { Int($0.x) <= x && x < Int($0.maxX) && Int($0.y) <= y && y < Int($0.maxY) }) {
                let i = (y * width + x) * 4
                for c in i..<i + 3 { pixels[c] = UInt8((Int(pixels[c]) * 35 + 50) / 100) }
            }
        }
    }

    /// A line `thickness` pixels wide (Bresenham, square pen).
    mutating func line(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, _ color: Color, thickness: Int = 1, alpha: Int = 255,
                       dash: Int = 0) {
        var x = x0, y = y0
        let dx = abs(x1 - x0), dy = -abs(y1 - y0)
        let sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1
        var error = dx + dy, step = 0
        let half = (thickness - 1) / 2
        while true {
            if dash == 0 || (step / dash) % 2 == 0 {
                fill(x: x - half, y: y - half, width: thickness, height: thickness, color, alpha: alpha)
            }
            if x == x1 && y == y1 { break }
            let e2 = 2 * error
            if e2 >= dy { error += dy; x += sx }
            if e2 <= dx { error += dx; y += sy }
            step += 1
        }
    }

    /// Draws `text` with its baseline at `y`, starting at `x` (or ending there, `alignRight`).
    mutating func text(_ text: String, x: Int, y: Int, font: FontFace, _ color: Color, alignRight: Bool = false) {
        var pen = alignRight ? x - font.width(of: text) : x
        for scalar in text.unicodeScalars {
            let glyph = font.glyph(scalar)
            for row in 0..<glyph.height {
                for column in 0..<glyph.width {
                    let coverage = Int(glyph.coverage[row * glyph.width + column])
                    if coverage > 0 { blend(pen + glyph.left + column, y - glyph.top + row, color, alpha: coverage) }
                }
            }
            pen += glyph.advance
        }
    }

    /// The picture as an 8-bit RGBA PNG in memory, made fast (``PNGEncoder``); `bottomUp`:
    /// its rows are bottom first, as glReadPixels gives them.
    func pngData(bottomUp: Bool = false) throws -> [UInt8] {
        try PNGEncoder.encode(pixels, width: width, height: height, bottomUp: bottomUp)
    }

    /// Writes the picture as an 8-bit RGBA PNG (png_image_write_to_file).
    func writePNG(to path: String) throws {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(width)
        image.height = UInt32(height)
        image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
        let ok = pixels.withUnsafeBytes { bytes in
            png_image_write_to_file(&image, path, 0, bytes.baseAddress, 0, nil)
        }
        guard ok != 0 else {
            let message = withUnsafeBytes(of: image.message) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            png_image_free(&image)
            throw GloutError("cannot write \(path): \(message)")
        }
    }
}
