import CGLES
import WaylandOutputs

/// One line of a show's text, rasterized by FreeType into a coverage texture (R8) of the
/// renderer's context, which show-text.frag draws in the text's colour over its
/// background. Made again only when the text or its size changes (a clock: once a second
/// at most).
final class TextLine {
    private(set) var texture: GLuint = 0
    private(set) var width = 0
    private(set) var height = 0
    private var made: (text: String, pixelSize: Int, font: String)?
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

    /// Makes the texture of `text` in the font at `font` at `pixelSize` pixels, unless it
    /// holds it already; `faces` keeps the fonts loaded.
    func update(_ text: String, font: String, pixelSize: Int, faces: inout [String: FontFace]) {
        if let made, made.text == text, made.pixelSize == pixelSize, made.font == font { return }
        made = (text, pixelSize, font)
        let key = "\(pixelSize) \(font)"
        if faces[key] == nil { faces[key] = try? FontFace(pixelSize: pixelSize, path: font) }
        guard let face = faces[key] else {
            (width, height) = (0, 0)
            return
        }
        let (coverage, lineWidth, lineHeight) = TextLine.rasterize(text, face: face)
        (width, height) = (lineWidth, lineHeight)
        if texture == 0 {
            glGenTextures(1, &texture)
            glBindTexture(GLenum(GL_TEXTURE_2D), texture)
            for parameter in [GL_TEXTURE_MIN_FILTER, GL_TEXTURE_MAG_FILTER] {
                glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(parameter), smooth ? GL_LINEAR : GL_NEAREST)
            }
            for parameter in [GL_TEXTURE_WRAP_S, GL_TEXTURE_WRAP_T] {
                glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(parameter), GL_CLAMP_TO_EDGE)
            }
        }
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        coverage.withUnsafeBytes { bytes in
            glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_R8, GLsizei(max(1, lineWidth)), GLsizei(max(1, lineHeight)), 0,
                         GLenum(GL_RED), GLenum(GL_UNSIGNED_BYTE), bytes.baseAddress)
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
