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
            texture = ImageLayer.upload(width: image.width, height: image.height, pixels: image.pixels)
            textures[piece] = texture
        }
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
    }

    /// A new texture of RGBA `pixels` (nil: room for them), sampled linearly and clamped to
    /// its edges, left bound to unit 0; in the current context.
    static func upload(width: Int, height: Int, pixels: [UInt8]?) -> GLuint {
        glActiveTexture(GLenum(GL_TEXTURE0))
        let texture = Sampling.linear.newTexture()
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        func define(_ data: UnsafeRawPointer?) {
            glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(width), GLsizei(height), 0, GLenum(GL_RGBA),
                         GLenum(GL_UNSIGNED_BYTE), data)
        }
        if let pixels {
            pixels.withUnsafeBytes { define($0.baseAddress) }
        } else {
            define(nil)
        }
        return texture
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
