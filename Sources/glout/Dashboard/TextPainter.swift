import CGLES
import WaylandOutputs

/// Draws text and solid rectangles for one renderer: the glyph atlas of the sizes it was
/// last asked for, a batch of quads, and the GL objects that draw the batch blended over
/// the bound framebuffer in one call. The dashboard, the identification label and the
/// identify overlay each own one. Needs the renderer's context current throughout.
final class TextPainter {
    /// The quads of the next flush; lay text out into it.
    var batch: TextBatch
    private var vertexArray: GLuint = 0, vertexBuffer: GLuint = 0, uniformBuffer: GLuint = 0
    /// The `Text` uniform block: framebuffer and atlas sizes.
    private var uniforms = [Float](repeating: 0, count: 4)
    private var current: (key: AtlasKey, atlas: GlyphAtlas, texture: GLuint)?

    private struct AtlasKey: Equatable {
        var sizes: [Int]
        var characters: [[Unicode.Scalar]]
    }

    /// - Parameters:
    ///   - capacity: the most quads one flush draws.
    ///   - records: whether text runs are recorded (``TextBatch/runs``), for tests.
    init(capacity: Int = TextBatch.capacity, records: Bool = false) {
        batch = TextBatch(capacity: capacity)
        if records { batch.runs = [] }
        glGenVertexArrays(1, &vertexArray)
        glGenBuffers(1, &vertexBuffer)
        glGenBuffers(1, &uniformBuffer)
        glBindVertexArray(vertexArray)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), vertexBuffer)
        glBufferData(GLenum(GL_ARRAY_BUFFER), batch.vertices.count * 4, nil, GLenum(GL_STREAM_DRAW))
        let stride = GLsizei(TextBatch.stride * 4)
        glVertexAttribPointer(0, 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), stride, nil)
        glVertexAttribPointer(1, 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), stride, UnsafeRawPointer(bitPattern: 8))
        glVertexAttribPointer(2, 4, GLenum(GL_FLOAT), GLboolean(GL_FALSE), stride, UnsafeRawPointer(bitPattern: 16))
        for attribute: GLuint in 0...2 { glEnableVertexAttribArray(attribute) }
        glBindBuffer(GLenum(GL_UNIFORM_BUFFER), uniformBuffer)
        glBufferData(GLenum(GL_UNIFORM_BUFFER), 16, nil, GLenum(GL_DYNAMIC_DRAW))
    }

    deinit {
        if var texture = current?.texture { glDeleteTextures(1, &texture) }
        glDeleteBuffers(1, &uniformBuffer)
        glDeleteBuffers(1, &vertexBuffer)
        glDeleteVertexArrays(1, &vertexArray)
    }

    /// The atlas with the font at each of `sizes` pixels, made (and the last one dropped)
    /// when the sizes change. `characters`, one set per size, defaults to
    /// ``GlyphAtlas/characters`` for every size. Nil when no font can be read.
    func atlas(sizes: [Int], characters: [[Unicode.Scalar]]? = nil) -> GlyphAtlas? {
        let key = AtlasKey(sizes: sizes, characters: characters ?? sizes.map { _ in GlyphAtlas.characters })
        if current?.key != key {
            if var texture = current?.texture { glDeleteTextures(1, &texture) }
            current = nil
            // The usual characters come from the process's cache; large type has its own.
            let made = characters == nil ? AtlasCache.shared.atlas(sizes: sizes)
                                         : try? GlyphAtlas(fonts: Array(zip(key.sizes, key.characters)))
            guard let made else { return nil }
            current = (key, made, made.makeTexture())
        }
        return current?.atlas
    }

    /// Draws the batch, blended over the bound framebuffer of `target`'s size, with the
    /// current atlas, and empties it (recorded runs stay in ``TextBatch/runs``).
    func flush(target: RenderTarget) {
        defer { batch.clearQuads() }
        guard batch.quads > 0, let (_, atlas, texture) = current else { return }
        uniforms[0] = Float(target.pixelSize.width); uniforms[1] = Float(target.pixelSize.height)
        uniforms[2] = Float(atlas.width); uniforms[3] = Float(atlas.height)
        glBindBuffer(GLenum(GL_UNIFORM_BUFFER), uniformBuffer)
        glBufferSubData(GLenum(GL_UNIFORM_BUFFER), 0, 16, uniforms)
        glBindBufferBase(GLenum(GL_UNIFORM_BUFFER), 1, uniformBuffer)
        glBindVertexArray(vertexArray)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), vertexBuffer)
        glBufferSubData(GLenum(GL_ARRAY_BUFFER), 0, batch.quads * 6 * TextBatch.stride * 4, batch.vertices)
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glViewport(0, 0, target.pixelSize.width, target.pixelSize.height)
        glEnable(GLenum(GL_BLEND))
        glBlendFunc(GLenum(GL_SRC_ALPHA), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        glDrawArrays(GLenum(GL_TRIANGLES), 0, GLsizei(batch.quads * 6))
        glDisable(GLenum(GL_BLEND))
    }
}
