import CGLES
import WaylandOutputs

/// One line of a show's text, rasterized by FreeType and mixed into its colour over its
/// background, in a BGRA texture of the renderer's context that show-copy draws as it is.
/// Made again only when the text, its size or its colours change (a clock: once a second
/// at most).
final class TextLine {
    private(set) var texture: GLuint = 0
    private(set) var width = 0
    private(set) var height = 0
    private var made: (text: String, pixelSize: Int, font: String, colour: RGB, background: RGB)?
    /// Sampled linearly (a line at fractions of a pixel), else the nearest texel.
    private let smooth: Bool

    init(smooth: Bool) {
        self.smooth = smooth
    }

    deinit {
        if texture != 0 { glDeleteTextures(1, &texture) }
    }

    /// The widest line glout makes (the texture size GLES 3 drivers such as llvmpipe allow): a longer line is cut.
    static let widest = 16_384

    /// Makes the texture of `text` in the font at `font` at `pixelSize` pixels, in `colour`
    /// over `background`, unless it holds it already; `faces` keeps the fonts loaded.
    func update(_ text: String, font: String, pixelSize: Int, colour: RGB, background: RGB, faces: inout [String: FontFace]) {
        if let made, made.text == text, made.pixelSize == pixelSize, made.font == font, made.colour == colour,
           made.background == background { return }
        made = (text, pixelSize, font, colour, background)
        let key = "\(pixelSize) \(font)"
        if faces[key] == nil { faces[key] = try? FontFace(pixelSize: pixelSize, path: font) }
        guard let face = faces[key] else {
            (width, height) = (0, 0)
            return
        }
        let (coverage, lineWidth, lineHeight) = TextLine.rasterize(text, face: face)
        (width, height) = (lineWidth, lineHeight)
        glActiveTexture(GLenum(GL_TEXTURE0))
        if texture == 0 {
            texture = (smooth ? Sampling.linear : .nearest).newTexture()
        } else {
            glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        }
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 4)
        let pixels = TextLine.coloured(coverage, colour: colour, background: background)
        pixels.withUnsafeBytes { bytes in
            glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GLint(RenderTarget.bgraFormat), GLsizei(max(1, lineWidth)),
                         GLsizei(max(1, lineHeight)), 0, RenderTarget.bgraFormat, GLenum(GL_UNSIGNED_BYTE), bytes.baseAddress)
        }
    }

    /// Coverage (0 to 255 a pixel) as `colour` over `background`, in bytes B, G, R, A.
    static func coloured(_ coverage: [UInt8], colour: RGB, background: RGB) -> [UInt8] {
        func byte(_ value: Float) -> Float { (max(0, min(1, value.isFinite ? value : 0)) * 255).rounded() }
        // Each channel's value at every coverage, looked up rather than mixed per pixel.
        let channels = [(background.b, colour.b), (background.g, colour.g), (background.r, colour.r)]
        let table = (0...255).map { level -> (UInt8, UInt8, UInt8) in
            let c = channels.map { from, to in UInt8(byte(from + (to - from) * Float(level) / 255)) }
            return (c[0], c[1], c[2])
        }
        return [UInt8](unsafeUninitializedCapacity: coverage.count * 4) { buffer, count in
            for (i, level) in coverage.enumerated() {
                let (b, g, r) = table[Int(level)]
                (buffer[4 * i], buffer[4 * i + 1], buffer[4 * i + 2], buffer[4 * i + 3]) = (b, g, r, 255)
            }
            count = coverage.count * 4
        }
    }

    /// `text`'s glyphs side by side on one baseline: coverage 0 to 255, rows top first;
    /// at least one pixel each way.
    static func rasterize(_ text: String, face: FontFace) -> (coverage: [UInt8], width: Int, height: Int) {
        let height = max(1, face.lineHeight)
        let width = max(1, min(widest, face.width(of: text)))
        var coverage = [UInt8](repeating: 0, count: width * height)
        var pen = 0
        for scalar in text.unicodeScalars {
            let glyph = face.glyph(scalar)
            defer { pen += glyph.advance }
            guard pen < width else { break }
            for row in 0..<glyph.height {
                let y = face.ascender - glyph.top + row
                guard y >= 0, y < height else { continue }
                for column in 0..<glyph.width {
                    let x = pen + glyph.left + column
                    guard x >= 0, x < width else { continue }
                    let value = glyph.coverage[row * glyph.width + column]
                    coverage[y * width + x] = max(coverage[y * width + x], value)
                }
            }
        }
        return (coverage, width, height)
    }
}
