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
    /// context, a band of rows at a time: where the driver makes windows take turns at GL
    /// (``Graphics/serializesGL``), each band is one short turn, and every frame due soon
    /// goes first.
    init(levels: [MipChain.Level], graphics: Graphics, graveyard: TextureGraveyard) throws {
        let name = try graphics.withSharedContext(deadline: SharedTexture.yielding) {
            graveyard.deleteBuried()
            return ImageLayer.newTexture(width: levels[0].width, height: levels[0].height)
        }
        self.name = name
        self.graveyard = graveyard
        for (number, level) in levels.enumerated() {
            let rows = max(1, SharedTexture.bandBytes / (level.width * 4))
            for top in stride(from: 0, to: level.height, by: rows) {
                try graphics.withSharedContext(deadline: SharedTexture.yielding) {
                    glActiveTexture(GLenum(GL_TEXTURE0))
                    glBindTexture(GLenum(GL_TEXTURE_2D), name)
                    ImageLayer.write(level, number: number, rows: top..<min(level.height, top + rows))
                }
            }
        }
    }

    /// About a millisecond's copy on llvmpipe.
    private static let bandBytes = 1 << 20

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
