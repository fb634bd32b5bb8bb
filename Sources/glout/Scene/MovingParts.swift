import CGLES
import Foundation
import WaylandOutputs

/// The parts of a view that move from frame to frame, shaded again each frame into the
/// picture's layer (``PictureCache``): the view's moving regions
/// (``SceneLayout/dynamicRegions(of:)``) and the content view's label, the dial's hand,
/// the span's bar, the content view's rings and pacing bar. Each frame shades where a
/// part is now and where it was in the layer.
final class MovingParts {
    /// rings.vert's mesh: two bands of 32 quads, six vertices each.
    static let ringVertexCount: Int32 = 2 * 32 * 6
    /// The regions shaded again each frame with the view's program.
    private var regions: [Rect] = []
    /// The content view's rings: drawn each frame over the backdrop (the picture without
    /// them), not shaded again with the colour fields under them; nil in other views.
    private var ringsRegion: Rect?
    /// Where the dial's hand is in the layer (control view), nil right after the layer
    /// was drawn whole.
    private var handInLayer: Rect?
    /// Span: where the bar is in the layer.
    private var barInLayer: Rect?
    /// The content view's pacing bar: where this frame puts it, and where it is in the layer.
    var pacingBarX = 0.0
    private var pacingBarInLayer: Rect?

    /// Whether this frame draws the content view's rings (with the rings program).
    var drawsRings: Bool { ringsRegion != nil }

    /// What moves in the picture just drawn whole: the rings over the backdrop
    /// (`ringsOverBackdrop`), nothing of an image, all of a custom shader's picture, or
    /// the view's moving regions (on the span, its row of cells).
    func stillDrawn(view: SceneView, layout: SceneLayout, content: ContentPiece?, spanView: SpanView?,
                    ringsOverBackdrop: Bool) {
        ringsRegion = nil
        if ringsOverBackdrop {
            ringsRegion = layout.dynamicRegions(of: .content).first
            regions = []
        } else if view != .control, let content {
            // An image never moves; a shader may change every pixel every frame.
            regions = content.image != nil ? [] : [layout.canvas]
        } else {
            regions = (spanView.map { [$0.cells.offset(by: layout.canvas.origin)] } ?? layout.dynamicRegions(of: view))
                .filter { $0.width > 0 && $0.height > 0 }
        }
        handInLayer = nil
        barInLayer = nil
        pacingBarInLayer = nil
    }

    /// Shades the content view's label again each frame.
    func add(label: Rect) { regions.append(label) }

    /// Shades none of the view's regions (a video's frame goes in instead).
    func leaveRegionsStill() { regions = [] }

    /// Shades the moving regions again, into the layer: every pixel of a frame is made in
    /// the same RGBA8 texture, so a snapshot and the window get the same values. The bars
    /// move only where the picture is glout's own (no --content: `ownContent`).
    func shade(program: GLuint, rings: GLuint, view: SceneView, layout: SceneLayout, spanView: SpanView?,
               ownContent: Bool, time: Double, spanTime: Double, target: RenderTarget, cache: PictureCache,
               block: FrameBlock) {
        if let ringsRegion { shadeRings(ringsRegion, program: rings, layout: layout, target: target, cache: cache, block: block) }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), cache.drawingFramebuffer)
        glUseProgram(program)
        block.bind()
        PictureCache.setViewport(layout.canvas, target: target)
        glEnable(GLenum(GL_SCISSOR_TEST))
        for region in regions { cache.shade(region, target: target) }
        if view == .control {
            // The hand: where it was in the layer and where it is now.
            let hand = layout.dialHand(pointing: MovingParts.handDirection(time: time))
            cache.shade(handInLayer.map { hand.union($0) } ?? hand, target: target)
            handInLayer = hand
        }
        if view == .content && ownContent {
            // The pacing bar: where it was in the layer and where it is now.
            let bar = layout.pacingBar(x: pacingBarX, pixelsPerPoint: target.pixelsPerPoint)
            if let old = pacingBarInLayer, old != bar { cache.shade(old, target: target) }
            cache.shade(bar, target: target)
            pacingBarInLayer = bar
        }
        if let spanView, ownContent {
            // The bar: where it was in the layer and where it is now (apart when it wraps).
            let bar = spanView.barRegion(barX: SpanView.barX(time: spanTime, canvasWidth: spanView.canvasSize.width))
                .offset(by: layout.canvas.origin)
            if let old = barInLayer, old != bar { cache.shade(old, target: target) }
            cache.shade(bar, target: target)
            barInLayer = bar
        }
        glDisable(GLenum(GL_SCISSOR_TEST))
    }

    /// The rings' square from the backdrop, then this frame's rings over it, on the bands
    /// where they cover anything (rings.vert; the layer's alpha stays 1).
    private func shadeRings(_ region: Rect, program: GLuint, layout: SceneLayout, target: RenderTarget,
                            cache: PictureCache, block: FrameBlock) {
        cache.restore(region, target: target)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), cache.drawingFramebuffer)
        glUseProgram(program)
        block.bind()
        PictureCache.setViewport(layout.canvas, target: target)
        glEnable(GLenum(GL_SCISSOR_TEST))
        glEnable(GLenum(GL_BLEND))
        glBlendFuncSeparate(GLenum(GL_SRC_ALPHA), GLenum(GL_ONE_MINUS_SRC_ALPHA), GLenum(GL_ZERO), GLenum(GL_ONE))
        cache.shade(region, target: target, vertices: MovingParts.ringVertexCount)
        glDisable(GLenum(GL_BLEND))
        glDisable(GLenum(GL_SCISSOR_TEST))
    }

    /// The dial's hand turns once every 4 s; y grows downwards in picture pixels.
    static func handDirection(time: Double) -> (x: Double, y: Double) {
        let angle = time.truncatingRemainder(dividingBy: 4) / 4 * 2 * Double.pi
        return (sin(angle), -cos(angle))
    }
}
