import CGLES
import Foundation
import WaylandOutputs

/// The glyphs of a few font sizes in one R8 texture (FreeType coverage), plus a white
/// texel for solid shapes, so all of the dashboard's text and graphs draw in one call.
/// Nothing in it changes once it is made, so threads may share it (``AtlasCache``).
final class GlyphAtlas: @unchecked Sendable {
    /// Font sizes in points at `scale` pixels per point, as whole pixels (6 at least).
    static func pixelSizes(points: [Double], scale: Double) -> [Int] {
        // 6 to 1024 pixels: readable, and an atlas a driver can hold whatever the scale.
        points.map { size in
            let pixels = (size * scale).rounded()
            return pixels.isFinite ? Int(max(6, min(1024, pixels))) : 6
        }
    }

    struct Glyph {
        /// Where the glyph's bitmap is in the atlas, in texels.
        var atlasX: Int, atlasY: Int
        var width: Int, height: Int
        var left: Int, top: Int, advance: Int
    }

    /// One size of the font in the atlas.
    final class Font {
        let pixelSize: Int
        /// Baseline to the top of the tallest glyphs, and baseline to baseline.
        let ascender: Int
        let lineHeight: Int
        fileprivate(set) var glyphs: [UInt32: Glyph] = [:]

        fileprivate init(pixelSize: Int, ascender: Int, lineHeight: Int) {
            self.pixelSize = pixelSize
            self.ascender = ascender
            self.lineHeight = lineHeight
        }

        /// The glyph for a character; characters outside the atlas show as '?'.
        @inline(__always)
        func glyph(_ scalar: UInt32) -> Glyph { glyphs[scalar] ?? glyphs[63]! }
    }

    static let characters: [Unicode.Scalar] = (32...126).compactMap(Unicode.Scalar.init) + ["·", "—", "×", "μ", "±", "…"]

    let fonts: [Font]
    let width = 1024
    private(set) var height = 0
    private(set) var texels: [UInt8] = []
    /// A fully covered texel: the centre of a 3x3 block of 255 in the corner.
    let solid = (x: 1, y: 1)

    /// Renders DejaVu Sans at each of `pixelSizes` (fonts-dejavu-core) into one atlas.
    convenience init(pixelSizes: [Int]) throws {
        try self.init(fonts: pixelSizes.map { ($0, GlyphAtlas.characters) })
    }

    /// Renders DejaVu Sans at each size with its own characters ('?' always included):
    /// large type needs only the characters it shows.
    init(fonts sizes: [(pixelSize: Int, characters: [Unicode.Scalar])]) throws {
        var fonts: [Font] = []
        var placements: [(Font, UInt32, FontFace.Glyph, Int, Int)] = []
        // Shelf packing: glyphs left to right in rows as tall as the tallest glyph.
        var x = 4, y = 0, rowHeight = 3
        for (size, characters) in sizes {
            let face = try FontFace(pixelSize: size)
            let font = Font(pixelSize: size, ascender: face.ascender, lineHeight: face.lineHeight)
            fonts.append(font)
            var set = Set<UInt32>()
            for scalar in characters + ["?"] where set.insert(scalar.value).inserted {
                let glyph = face.glyph(scalar)
                if x + glyph.width + 1 > width {
                    x = 0
                    y += rowHeight + 1
                    rowHeight = 0
                }
                placements.append((font, scalar.value, glyph, x, y))
                x += glyph.width + 1
                rowHeight = max(rowHeight, glyph.height)
            }
        }
        self.fonts = fonts
        height = y + rowHeight + 1
        texels = [UInt8](repeating: 0, count: width * height)
        for dy in 0..<3 { for dx in 0..<3 { texels[dy * width + dx] = 255 } }
        for (font, scalar, glyph, gx, gy) in placements {
            for row in 0..<glyph.height {
                for column in 0..<glyph.width {
                    texels[(gy + row) * width + gx + column] = glyph.coverage[row * glyph.width + column]
                }
            }
            font.glyphs[scalar] = Glyph(atlasX: gx, atlasY: gy, width: glyph.width, height: glyph.height,
                                        left: glyph.left, top: glyph.top, advance: glyph.advance)
        }
    }

    /// Uploads the atlas into a new texture of the current context.
    func makeTexture() -> GLuint {
        let texture = Sampling.nearest.newTexture()
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_R8, GLsizei(width), GLsizei(height), 0, GLenum(GL_RED),
                     GLenum(GL_UNSIGNED_BYTE), texels)
        return texture
    }
}

/// The atlases of glout's usual text sizes, made once per process and shared by every
/// output's renderer. Stage starts making those the outputs will need while glout
/// connects and compiles its shaders, so a first frame does not wait for FreeType.
final class AtlasCache: Sendable {
    static let shared = AtlasCache()

    /// One atlas: nil until made; made, or nil when no font could be read.
    private final class Entry: Sendable {
        let atlas = Locked<GlyphAtlas??>(nil)
    }
    private let entries = Locked<[[Int]: Entry]>([:])

    /// The atlas of the usual characters at `sizes`, made by the first caller while any
    /// other waits for it.
    func atlas(sizes: [Int]) -> GlyphAtlas? {
        let entry = entries.withLock { entries in
            if let entry = entries[sizes] { return entry }
            let entry = Entry()
            entries[sizes] = entry
            return entry
        }
        return entry.atlas.withLock { made in
            if let made { return made }
            let atlas = try? GlyphAtlas(pixelSizes: sizes)
            made = .some(atlas)
            return atlas
        }
    }

    /// Starts making the atlas of each of `sizes` on a thread of its own.
    func prepare(_ sizes: [[Int]]) {
        for sizes in sizes {
            let thread = Thread { _ = AtlasCache.shared.atlas(sizes: sizes) }
            thread.name = "atlas"
            thread.start()
        }
    }
}
