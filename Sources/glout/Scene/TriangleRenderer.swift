import CGLES
import Glibc
import WaylandOutputs

/// --scene triangle: weston-simple-egl's workload (clear, one triangle with a colour per
/// corner, turning about the vertical axis as simple-egl's does), so glout's CPU per frame
/// can be compared with it.
final class TriangleRenderer: OutputRenderer {
    private let scene: Scene
    private let program: GLuint
    private let stall: FrameStall
    /// The `Frame` block (triangle.vert includes frame.glsl), of which it sets the time.
    private let block = FrameBlock()
    private(set) var isAnimating = true

    init(scene: Scene, program: GLuint, stall: FrameStall = FrameStall()) {
        self.scene = scene
        self.program = program
        self.stall = stall
    }

    /// --stall's extra work, outside the GL calls (which may run one window at a time).
    func prepare(_ frame: DisplayLinkFrame, in target: RenderTarget) {
        stall.wait()
    }

    func render(_ frame: DisplayLinkFrame, in target: RenderTarget) throws {
        let state = scene.snapshot
        isAnimating = !state.standsStill(.content, dashboard: false)
        glViewport(0, 0, target.pixelSize.width, target.pixelSize.height)
        glClearColor(0, 0, 0, 1)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        let picture = target.picture.flippedY(containerHeight: target.pixelSize.height)
        glViewport(picture.x, picture.y, picture.width, picture.height)
        block.uniforms.sceneTime = Float(state.time(at: frame.timestamp).truncatingRemainder(dividingBy: 3600))
        block.upload()
        glUseProgram(program)
        glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
    }
}
