import CGLES
import WaylandOutputs

/// A --content video's frame drawn into an output's picture: this context's framebuffer
/// around a BGRA frame's texture, to copy from; the frame in RGB at the video's size,
/// converted there from its planes and scaled into the picture from there; and which
/// frame each holds. The frame's textures are the video's, shared by every output that
/// shows it (``VideoTextures``).
final class VideoLayer {
    private var readFramebuffer: GLuint = 0
    private var converted = ColourTexture()
    private var convertedFrame: Int?
    /// The video frame the picture's layer holds (a frame drawn straight into the output
    /// is not in it).
    var inLayer: Int?

    /// Deletes the objects, in the context they were made in.
    func delete() {
        if readFramebuffer != 0 { glDeleteFramebuffers(1, &readFramebuffer) }
        converted.delete()
    }

    /// Another playlist item: its frames are converted anew.
    func forgetFrames() {
        convertedFrame = nil
        inLayer = nil
    }

    /// Puts `picture`, frame `shown` of `video`, into `framebuffer` (the layer, or the
    /// output's) at `place` (``ImageLayer/placement(width:height:layout:spanView:mode:)``),
    /// within the canvas, and names that region as changed in `cache`: at the video's own
    /// size copied (BGRA) or converted (planes, with `program`) straight there; at another,
    /// scaled by a filtered blit from the frame (BGRA), or from the converted layer, which
    /// the planes are converted into at their own size (once per frame).
    func place(_ picture: VideoFrame, frame shown: Int, of video: VideoSource, reader: ObjectIdentifier,
               at place: (x: Double, y: Double, width: Double, height: Double), layout: SceneLayout,
               target: RenderTarget, into framebuffer: GLuint, program: GLuint, block: FrameBlock, cache: PictureCache) {
        let canvas = layout.canvas
        let (x0, y0) = (Int32((Double(canvas.x) + place.x).rounded()), Int32((Double(canvas.y) + place.y).rounded()))
        let (x1, y1) = (Int32((Double(canvas.x) + place.x + place.width).rounded()),
                        Int32((Double(canvas.y) + place.y + place.height).rounded()))
        let visible = Rect(x: max(x0, canvas.x), y: max(y0, canvas.y), width: min(x1, canvas.maxX) - max(x0, canvas.x),
                           height: min(y1, canvas.maxY) - max(y0, canvas.y))
        guard visible.width > 0, visible.height > 0 else { return }
        let height = target.pixelSize.height
        // Top left (x0, y0) in picture pixels is (x0, height - y0) in the framebuffer.
        let destination = (x: x0, y: height - y1, width: x1 - x0, height: y1 - y0)
        let clip = visible.flippedY(containerHeight: height)
        let unscaled = destination.width == Int32(picture.width) && destination.height == Int32(picture.height)
        // The shared textures only where this frame reads them: a scaled frame converted
        // into the converted layer before reads that.
        var frame: VideoTextures.Binding?
        if picture.form == .bgra || unscaled || convertedFrame != shown {
            frame = video.textures.bind(picture, reader: reader)
        }
        if let frame, picture.form == .bgra {
            copy(frame, of: picture, to: destination, clip: clip, unscaled: unscaled, into: framebuffer)
        } else if let frame, unscaled {
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
            glEnable(GLenum(GL_SCISSOR_TEST))
            glScissor(clip.x, clip.y, clip.width, clip.height)
            convert(frame, into: destination, program: program, block: block)
            glDisable(GLenum(GL_SCISSOR_TEST))
        } else {
            let (width, tall) = (Int32(picture.width), Int32(picture.height))
            if let frame {
                converted.allocate(width: width, height: tall, bgra: target.storesBGRA)
                glBindFramebuffer(GLenum(GL_FRAMEBUFFER), converted.framebuffer)
                convert(frame, into: (0, 0, width, tall), program: program, block: block)
                convertedFrame = shown
            }
            glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), converted.framebuffer)
            glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), framebuffer)
            glEnable(GLenum(GL_SCISSOR_TEST))
            glScissor(clip.x, clip.y, clip.width, clip.height)
            glBlitFramebuffer(0, 0, width, tall, destination.x, destination.y, x1, height - y0,
                              GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(GL_LINEAR))
            glDisable(GLenum(GL_SCISSOR_TEST))
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        }
        if let frame { video.textures.finishedReading(frame, reader: reader) }
        cache.record(visible)
    }

    /// A copy of the visible part of a BGRA frame: at its own size a plain one (no
    /// scissor, no scaling, the same format, which llvmpipe does as a memory copy), else
    /// filtered.
    private func copy(_ frame: VideoTextures.Binding, of picture: VideoFrame,
                      to destination: (x: Int32, y: Int32, width: Int32, height: Int32), clip: Rect, unscaled: Bool,
                      into framebuffer: GLuint) {
        bindForReading(frame)
        glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), framebuffer)
        if unscaled {
            let (sx, sy) = (clip.x - destination.x, clip.y - destination.y)
            glBlitFramebuffer(sx, sy, sx + clip.width, sy + clip.height, clip.x, clip.y, clip.maxX, clip.maxY,
                              GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(GL_NEAREST))
        } else {
            glEnable(GLenum(GL_SCISSOR_TEST))
            glScissor(clip.x, clip.y, clip.width, clip.height)
            glBlitFramebuffer(0, 0, Int32(picture.width), Int32(picture.height), destination.x, destination.y,
                              destination.x + destination.width, destination.y + destination.height,
                              GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(GL_LINEAR))
            glDisable(GLenum(GL_SCISSOR_TEST))
        }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
    }

    /// Draws the frame's planes as RGB (video.frag, `program`) into `rect` (framebuffer
    /// pixels, bottom left origin) of the bound framebuffer.
    private func convert(_ planes: VideoTextures.Binding, into rect: (x: Int32, y: Int32, width: Int32, height: Int32),
                         program: GLuint, block: FrameBlock) {
        glViewport(rect.x, rect.y, rect.width, rect.height)
        glUseProgram(program)
        block.bind()
        for (i, texture) in planes.textures.enumerated() {
            glActiveTexture(GLenum(GL_TEXTURE0 + Int32(i)))
            glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        }
        glActiveTexture(GLenum(GL_TEXTURE0))
        glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
    }

    /// Binds this context's framebuffer around the BGRA frame's shared texture for reading,
    /// attached anew each time so that what another context uploaded is what it reads.
    private func bindForReading(_ frame: VideoTextures.Binding) {
        if readFramebuffer == 0 { glGenFramebuffers(1, &readFramebuffer) }
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), readFramebuffer)
        glFramebufferTexture2D(GLenum(GL_READ_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D),
                               frame.bgra ?? 0, 0)
    }
}
