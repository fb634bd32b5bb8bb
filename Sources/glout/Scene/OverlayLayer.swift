import CGLES
import WaylandOutputs

/// What goes over the picture in the output's framebuffer, after the copy from the
/// layer, and never into the layer: the pointer and touch markers, and --identify's
/// large names. The next frame's copy wipes them: their regions change then.
final class OverlayLayer {
    /// The markers this frame draws (u_motion.z), and the framebuffer pixels they cover:
    /// the marker pass draws there only.
    private(set) var markerCount = 0
    private var markerRegion = Rect(x: 0, y: 0, width: 0, height: 0)
    /// Where the markers are in the output's framebuffer, and whether the names were drawn
    /// over it there.
    private(set) var markersInOutput: Rect?
    private(set) var identifiedInOutput = false

    /// Writes this frame's markers (points on the surface) into u_markers as pixels of the
    /// picture, at most ``FrameUniforms/maxMarkers``, and their count.
    func write(_ markers: [Marker], layout: SceneLayout, pixelsPerPoint ppp: Double, to block: FrameBlock) {
        let count = min(markers.count, FrameUniforms.maxMarkers)
        block.uniforms.markerCount = count
        markerCount = count
        markerRegion = Rect(x: 0, y: 0, width: 0, height: 0)
        for (i, marker) in markers.prefix(count).enumerated() {
            let x = marker.x * ppp - Double(layout.canvas.x), y = marker.y * ppp - Double(layout.canvas.y)
            let radius = (marker.kind == .pointer ? 12 : 26) * ppp
            // drawMarkers (canvas.glsl) reaches 1.5 line widths (radius / 10) past the radius.
            let reach = radius + 1.5 * max(1, radius / 10) + 1
            let covered = layout.pixels(x - reach, y - reach, 2 * reach, 2 * reach)
            markerRegion = i == 0 ? covered : markerRegion.union(covered)
            block.uniforms.setMarker(i, x, y, radius, marker.kind == .pointer ? 0 : 1)
        }
    }

    /// Draws the markers, and with `identifies` the names, over the output's framebuffer.
    func draw(identifies: Bool, identification: Identification, layout: SceneLayout, state: Scene.State,
              target: RenderTarget, programs: ScenePrograms, block: FrameBlock, cache: PictureCache) throws {
        markersInOutput = nil
        if markerCount > 0 {
            drawMarkers(program: try programs.marker, layout: layout, target: target, block: block, cache: cache)
            markersInOutput = markerRegion
        }
        identifiedInOutput = identifies
        if identifies {
            glUseProgram(try programs.text)
            identification.drawOverlay(target: target, state: state)
        }
    }

    /// The pointer and touch markers; their region is among the changed ones (shade).
    private func drawMarkers(program: GLuint, layout: SceneLayout, target: RenderTarget, block: FrameBlock,
                             cache: PictureCache) {
        glUseProgram(program)
        block.bind()
        PictureCache.setViewport(layout.canvas, target: target)
        glEnable(GLenum(GL_BLEND))
        glBlendFunc(GLenum(GL_SRC_ALPHA), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        glEnable(GLenum(GL_SCISSOR_TEST))
        cache.shade(markerRegion, target: target)
        glDisable(GLenum(GL_SCISSOR_TEST))
        glDisable(GLenum(GL_BLEND))
    }
}
