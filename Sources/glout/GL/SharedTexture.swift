import CGLES
import WaylandOutputs

/// A picture's texture made in the shared context, off every frame path (the control
/// API's loader makes it), which each output's context, being in the same share group,
/// binds as it is. It is deleted once nothing holds it, the next time a loader has the
/// shared context current: the last holder may be a render thread, whose own context
/// must stay current.
final class SharedTexture: Sendable {
    let name: GLuint
    private let graveyard: TextureGraveyard

    /// Uploads `levels` (a still's RGBA picture, then its mip levels) in the shared
    /// context, about a megabyte of rows at a time (the small levels together): where the
    /// driver makes windows take turns at GL (``Graphics/serializesGL``), each band is one
    /// short turn, and every frame due soon goes first.
    init(levels: [Bitmap], graphics: Graphics, graveyard: TextureGraveyard) throws {
        let name = try graphics.withSharedContext(deadline: SharedTexture.yielding) {
            graveyard.deleteBuried()
            return ImageLayer.newTexture(width: levels[0].width, height: levels[0].height, levels: levels.count)
        }
        self.name = name
        self.graveyard = graveyard
        for turn in SharedTexture.bands(of: levels.map { (width: $0.width, height: $0.height) }) {
            try graphics.withSharedContext(deadline: SharedTexture.yielding) {
                glActiveTexture(GLenum(GL_TEXTURE0))
                glBindTexture(GLenum(GL_TEXTURE_2D), name)
                for band in turn { ImageLayer.write(levels[band.level], number: band.level, rows: band.rows) }
            }
        }
    }

    /// The rows of each level of the sizes given, in turns of about ``bandBytes`` each: a
    /// level larger than that in bands of rows, the smaller levels after it together.
    static func bands(of levels: [(width: Int, height: Int)]) -> [[(level: Int, rows: Range<Int>)]] {
        var turns: [[(level: Int, rows: Range<Int>)]] = [[]]
        var bytes = 0
        for (number, level) in levels.enumerated() {
            let rowBytes = level.width * 4
            let rows = max(1, bandBytes / rowBytes)
            for top in stride(from: 0, to: level.height, by: rows) {
                let band = top..<min(level.height, top + rows)
                if bytes > 0 && bytes + band.count * rowBytes > bandBytes {
                    turns.append([])
                    bytes = 0
                }
                turns[turns.count - 1].append((number, band))
                bytes += band.count * rowBytes
            }
        }
        return turns
    }

    /// About a millisecond's copy on llvmpipe.
    static let bandBytes = 1 << 20

    /// The turn's deadline: after every frame due in the next 50 ms.
    static var yielding: MonotonicInstant { MonotonicInstant(nanoseconds: MonotonicInstant.now.nanoseconds + 50_000_000) }

    deinit { graveyard.bury(name) }
}

/// Shared textures no one holds any more, deleted in the shared context.
final class TextureGraveyard: Sendable {
    private let names = Locked<[GLuint]>([])

    func bury(_ name: GLuint) { names.withLock { $0.append(name) } }

    /// Deletes what was buried; in the shared context.
    func deleteBuried() {
        var buried = names.withLock { names in defer { names = [] }; return names }
        if !buried.isEmpty { glDeleteTextures(GLsizei(buried.count), &buried) }
    }
}
