import CFreeType
import Foundation

/// One font at one pixel size (FreeType), with its rendered glyphs cached.
final class FontFace {
    /// A glyph's coverage bitmap (0-255) and metrics, in pixels.
    struct Glyph {
        var width: Int
        var height: Int
        /// Offset from the pen position to the bitmap's left edge, and from the baseline
        /// up to its top edge.
        var left: Int
        var top: Int
        var advance: Int
        var coverage: [UInt8]
    }

    static let searchPaths = [
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/TTF/DejaVuSans.ttf",
        "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    ]

    let pixelSize: Int
    /// Distance from the baseline to the top of the tallest glyphs, and between lines.
    let ascender: Int
    let lineHeight: Int
    private var library: FT_Library?
    private var face: FT_Face?
    /// The font's path as FreeType keeps it (in the face's stream) until FT_Done_Face.
    private let pathname: UnsafeMutablePointer<CChar>
    private var cache: [UInt32: Glyph] = [:]

    /// Loads DejaVu Sans (fonts-dejavu-core), or `path`, at `pixelSize` pixels per em.
    init(pixelSize: Int, path: String? = nil) throws {
        guard let path = path ?? FontFace.searchPaths.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            throw GloutError("no DejaVu Sans font found (install fonts-dejavu-core)")
        }
        self.pixelSize = pixelSize
        pathname = strdup(path)
        guard FT_Init_FreeType(&library) == 0 else {
            free(pathname)
            throw GloutError("FreeType failed to start")
        }
        guard FT_New_Face(library, pathname, 0, &face) == 0, let face else {
            FT_Done_FreeType(library)
            free(pathname)
            throw GloutError("FreeType cannot read the font \(path)")
        }
        FT_Set_Pixel_Sizes(face, 0, FT_UInt(pixelSize))
        let metrics = face.pointee.size.pointee.metrics
        ascender = Int(metrics.ascender >> 6)
        lineHeight = Int(metrics.height >> 6)
    }

    deinit {
        FT_Done_Face(face)
        FT_Done_FreeType(library)
        free(pathname)
    }

    /// The glyph for a character (rendered once, then cached).
    func glyph(_ scalar: Unicode.Scalar) -> Glyph {
        if let glyph = cache[scalar.value] { return glyph }
        var glyph = Glyph(width: 0, height: 0, left: 0, top: 0, advance: pixelSize / 2, coverage: [])
        if let face, FT_Load_Char(face, FT_ULong(scalar.value), FT_Int32(FT_LOAD_RENDER)) == 0,
           let slot = face.pointee.glyph {
            let bitmap = slot.pointee.bitmap
            let width = Int(bitmap.width), height = Int(bitmap.rows), pitch = Int(bitmap.pitch)
            var coverage = [UInt8](repeating: 0, count: width * height)
            if let buffer = bitmap.buffer {
                for row in 0..<height {
                    for column in 0..<width { coverage[row * width + column] = buffer[row * pitch + column] }
                }
            }
            glyph = Glyph(width: width, height: height, left: Int(slot.pointee.bitmap_left),
                          top: Int(slot.pointee.bitmap_top), advance: Int(slot.pointee.advance.x >> 6),
                          coverage: coverage)
        }
        cache[scalar.value] = glyph
        return glyph
    }

    /// The width of `text` in pixels.
    func width(of text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + glyph($1).advance }
    }
}
