import CGLES
import WaylandOutputs

/// A --content image in an output's picture: its texture in the output's context (one
/// per playlist item, made once), or the shared one the control API's loader made, which image.frag reads, and where --scale-mode puts it
/// (u_image).
final class ImageLayer {
    private var textures: [Int: GLuint] = [:]

    /// Deletes the textures, in the context they were made in.
    func delete() {
        for var texture in textures.values { glDeleteTextures(1, &texture) }
        textures = [:]
    }

    /// Makes the texture of `image`, the playlist's item `piece`, once, and binds it to
    /// unit 0 for image.frag.
    func bind(_ image: ContentImage, piece: Int) {
        glActiveTexture(GLenum(GL_TEXTURE0))
        if let shared = image.texture {
            glBindTexture(GLenum(GL_TEXTURE_2D), shared.name)
            return
        }
        var texture = textures[piece] ?? 0
        if texture == 0 {
            let levels = image.levels
            texture = ImageLayer.newTexture(width: image.width, height: image.height, levels: levels.count)
            for (number, level) in levels.enumerated() {
                ImageLayer.write(level, number: number, rows: 0..<level.height)
            }
            textures[piece] = texture
        }
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
    }

    /// A new texture with room for a `width` x `height` RGBA still and `levels` levels
    /// (the picture and its mip levels: all of them, or only the picture), sampled through
    /// them where it is drawn smaller and linearly elsewhere, clamped to its edges, left
    /// bound to unit 0; in the current context.
    static func newTexture(width: Int, height: Int, levels: Int) -> GLuint {
        precondition((1...MipChain.count(width: width, height: height)).contains(levels), "ImageLayer: \(levels) levels")
        glActiveTexture(GLenum(GL_TEXTURE0))
        let texture = Sampling.mipmapped.newTexture()
        glTexStorage2D(GLenum(GL_TEXTURE_2D), GLsizei(levels), GLenum(GL_RGBA8), GLsizei(width), GLsizei(height))
        return texture
    }

    /// Writes `rows` of `level`, mip level `number`, into the texture bound to unit 0.
    static func write(_ level: Bitmap, number: Int, rows: Range<Int>) {
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        let rowBytes = level.width * 4
        level.pixels.withUnsafeBytes { bytes in
            glTexSubImage2D(GLenum(GL_TEXTURE_2D), GLint(number), 0, GLint(rows.lowerBound), GLsizei(level.width),
                            GLsizei(rows.count), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE),
                            bytes.baseAddress! + rows.lowerBound * rowBytes)
        }
    }

    /// Writes where `image` goes into u_image.
    static func write(_ image: ContentImage, layout: SceneLayout, spanView: SpanView?, mode: ScaleMode, to block: FrameBlock) {
        let place = placement(width: image.width, height: image.height, layout: layout, spanView: spanView, mode: mode)
        block.set(.image, place.x, place.y, place.width, place.height)
    }

    /// Where --content of `width` x `height` (an image or a video) goes, in picture pixels
    /// from the canvas's top left, as --scale-mode places it: in the picture, or on the
    /// span where the whole canvas, at this part's density, is what it fills and this part
    /// one piece of it.
    static func placement(width: Int, height: Int, layout: SceneLayout, spanView: SpanView?, mode: ScaleMode)
        -> (x: Double, y: Double, width: Double, height: Double) {
        guard let spanView else {
            return ContentImage.placement(width: width, height: height, in: layout.canvas.size, mode: mode)
        }
        return spanView.placement(width: width, height: height, mode: mode)
    }
}
