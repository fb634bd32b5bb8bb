import CGLES
import WaylandOutputs

/// An output's picture kept between frames, and what each frame changed of it.
///
/// llvmpipe shades every pixel on the CPU, so a view is drawn whole into the still layer
/// (an RGBA8 texture) only when what it depends on (``StillKey``) changes; each frame
/// shades again just the regions that move into the layer, and copies the layer to the
/// output: where the output's framebuffer holds the last frame
/// (``RenderTarget/holdsPreviousFrame``), only the regions the frame changed, which it
/// names to the window (``changedRegions``) so that only they are sent and recomposed.
/// The backdrop is the layer as it was before any live part was drawn on it, to wipe
/// those parts with a copy rather than shade them again.
final class PictureCache {
    /// Everything the still picture depends on.
    struct StillKey: Equatable {
        var view: SceneView
        var layout: SceneLayout
        var width: Int32
        var height: Int32
        var accent: RGB
        var frozen: Double?
        var dashboard: UInt64
        var primary: String?
        var layoutMode: LayoutMode
        var span: SpanView?
        var mode: OutputMode?
        var pixelsPerPoint: Double
        /// The playlist's item, and the control API's content (0: --content's).
        var piece: Int
        var content: UInt64 = 0
    }

    private var still = ColourTexture()
    private var backdrop = ColourTexture()
    /// What the still layer was drawn whole for; nil: nothing yet, or draw it again.
    private var key: StillKey?
    /// What this frame changed in the output's framebuffer, and whether that is everything.
    private var changed: [Rect] = []
    private var changedEverything = true
    /// The size of the last frame copied from the layer into the output's framebuffer.
    private var presentedSize: Size?
    /// The framebuffer the picture goes to: the target's (the window's, or a snapshot's).
    var outputFramebuffer: GLuint = 0
    /// Whether this frame is drawn straight into the output's framebuffer, not through the
    /// layer (the first frame; see ``SceneRenderer/drawsFirstFrameFast``).
    var direct = true
    /// Where this frame's picture is drawn: the layer, or for the first frame the output.
    var drawingFramebuffer: GLuint { direct ? outputFramebuffer : still.framebuffer }
    /// What this frame changed in the output (nil: everything), for the window's damage.
    var changedRegions: [Rect]? { changedEverything ? nil : changed }

    /// Deletes the layers, in the context they were made in.
    func delete() {
        backdrop.delete()
        still.delete()
    }

    /// Whether the still layer holds the picture of `key`.
    func holds(_ key: StillKey) -> Bool { key == self.key }

    /// Draws the whole picture once with `program`: into the layer (for the first frame
    /// the output), cleared to black first; `bindTextures` binds what the program reads,
    /// after the layer's allocation, which binds its own texture. Where the view's
    /// program `draws` nothing (a video's picture is black until its frame is placed),
    /// only the clear. With `ringsLeftOut`, the content view is drawn without its rings and
    /// kept as the backdrop they go over each frame.
    func drawStill(program: GLuint, layout: SceneLayout, target: RenderTarget, block: FrameBlock,
                   draws: Bool, ringsLeftOut: Bool, bindTextures: () -> Void) {
        if !direct { still.allocate(width: target.pixelSize.width, height: target.pixelSize.height, bgra: target.storesBGRA) }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), drawingFramebuffer)
        glViewport(0, 0, target.pixelSize.width, target.pixelSize.height)
        glClearColor(0, 0, 0, 1)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        glUseProgram(program)
        bindTextures()
        PictureCache.setViewport(layout.canvas, target: target)
        if ringsLeftOut {
            block.uniforms.ringsLeftOut = true
            block.upload()
        }
        if draws { glDrawArrays(GLenum(GL_TRIANGLES), 0, 3) }
        if ringsLeftOut {
            block.uniforms.ringsLeftOut = false
            block.upload()
            keepBackdrop(target: target)
        }
    }

    /// Notes that the still layer now holds the whole picture of `key`.
    func stillDrawn(for key: StillKey) { self.key = key }

    /// Copies the freshly drawn layer, still text and all, into the backdrop.
    func keepBackdrop(target: RenderTarget) {
        let (width, height) = (target.pixelSize.width, target.pixelSize.height)
        backdrop.allocate(width: width, height: height, bgra: target.storesBGRA)
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), still.framebuffer)
        glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), backdrop.framebuffer)
        glBlitFramebuffer(0, 0, width, height, 0, 0, width, height, GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(GL_NEAREST))
    }

    /// Starts a frame's list of changes: everything where the layer was drawn again or
    /// `everything` else changed, where the output's buffer does not hold the last frame,
    /// or is not of the size last presented.
    func startFrame(redrawn: Bool, everything: Bool, target: RenderTarget) {
        changed.removeAll(keepingCapacity: true)
        changedEverything = redrawn || direct || !target.holdsPreviousFrame || presentedSize != target.pixelSize
            || everything
    }

    /// Names `region` of the output as changed this frame.
    func record(_ region: Rect) { changed.append(region) }

    /// Wipes last frame's live parts (the dashboard's rates and graphs): a copy from the
    /// backdrop, where shading the view there again cost llvmpipe a millisecond or more a
    /// frame. They change.
    func restore(_ regions: [(output: UInt32, rect: Rect)], target: RenderTarget) {
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), backdrop.framebuffer)
        glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), still.framebuffer)
        for (_, region) in regions { copy(region, height: target.pixelSize.height) }
        for (_, region) in regions { changed.append(region) }
    }

    /// Copies `region` of the backdrop into the layer.
    func restore(_ region: Rect, target: RenderTarget) {
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), backdrop.framebuffer)
        glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), still.framebuffer)
        copy(region, height: target.pixelSize.height)
    }

    /// Draws the bound program into `region` of the bound framebuffer only, and names it
    /// as changed: its vertex shader's `vertices` (fullscreen.vert's one triangle unless
    /// told).
    func shade(_ region: Rect, target: RenderTarget, vertices: Int32 = 3) {
        guard region.width > 0, region.height > 0 else { return }
        changed.append(region)
        let flipped = region.flippedY(containerHeight: target.pixelSize.height)
        glScissor(flipped.x, flipped.y, flipped.width, flipped.height)
        glDrawArrays(GLenum(GL_TRIANGLES), 0, vertices)
    }

    /// Ends the first frame, drawn straight into the output: the next draws the layer whole.
    func endDirectFrame() {
        direct = false
        key = nil
        presentedSize = nil
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), outputFramebuffer)
    }

    /// Copies the layer to the output: all of it, or only the regions this frame changed.
    /// (Shading it with texelFetch instead took a third of the CPU at 1920x1080 on
    /// llvmpipe; the blit is a plain copy.)
    func present(target: RenderTarget) {
        let size = target.pixelSize
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), still.framebuffer)
        glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), outputFramebuffer)
        if changedEverything {
            glBlitFramebuffer(0, 0, size.width, size.height, 0, 0, size.width, size.height,
                              GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(GL_NEAREST))
        } else {
            for region in changed { copy(region, height: size.height) }
        }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), outputFramebuffer)
        presentedSize = size
    }

    /// Copies `region` (top left origin) of the bound read framebuffer to the same place
    /// in the bound draw framebuffer, both `height` pixels high.
    private func copy(_ region: Rect, height: Int32) {
        let r = region.flippedY(containerHeight: height)
        glBlitFramebuffer(r.x, r.y, r.maxX, r.maxY, r.x, r.y, r.maxX, r.maxY, GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(GL_NEAREST))
    }

    /// Sets the viewport to `canvas` (top left origin) of the target's framebuffer.
    static func setViewport(_ canvas: Rect, target: RenderTarget) {
        let gl = canvas.flippedY(containerHeight: target.pixelSize.height)
        glViewport(gl.x, gl.y, gl.width, gl.height)
    }
}
