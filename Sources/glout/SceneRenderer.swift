import CGLES
import WaylandOutputs

/// The shader programs every output shares (made once in the shared context).
struct ScenePrograms: Sendable {
    /// The primary's picture.
    var control: GLuint
    /// The secondaries' picture.
    var content: GLuint
}

/// Draws one output's picture: the control or the content view, full size or
/// letterboxed (mirror). Runs on the output's render thread.
final class SceneRenderer: OutputRenderer {
    private let scene: Scene
    private let programs: ScenePrograms
    private var vertexArray: GLuint = 0
    private var frameBuffer: GLuint = 0
    /// The `Frame` uniform block: canvas, accent, timing (std140, 3 x vec4).
    private var uniforms = [Float](repeating: 0, count: 12)

    init(scene: Scene, programs: ScenePrograms) {
        self.scene = scene
        self.programs = programs
        glGenVertexArrays(1, &vertexArray)
        glGenBuffers(1, &frameBuffer)
        glBindBuffer(GLenum(GL_UNIFORM_BUFFER), frameBuffer)
        glBufferData(GLenum(GL_UNIFORM_BUFFER), uniforms.count * 4, nil, GLenum(GL_DYNAMIC_DRAW))
    }

    deinit {
        glDeleteBuffers(1, &frameBuffer)
        glDeleteVertexArrays(1, &vertexArray)
    }

    /// Which program and where, for this output and this state.
    static func placement(of output: Output, width: Int32, height: Int32,
                          state: Scene.State, programs: ScenePrograms) -> (program: GLuint, canvas: PixelRect) {
        let full = PixelRect(x: 0, y: 0, width: width, height: height)
        switch state.layout {
        case .independent:
            return (output.name == state.primary ? programs.control : programs.content, full)
        case .mirror:
            let canvas = Layout.aspectFit(contentWidth: state.primaryPixelWidth, contentHeight: state.primaryPixelHeight,
                                          intoWidth: width, height: height)
            return (programs.control, canvas)
        }
    }

    func render(_ frame: DisplayLinkFrame, in target: RenderTarget) throws {
        let state = scene.snapshot
        let (program, canvas) = SceneRenderer.placement(of: target.output, width: target.pixelWidth,
                                                        height: target.pixelHeight, state: state, programs: programs)
        glViewport(0, 0, target.pixelWidth, target.pixelHeight)
        glClearColor(0, 0, 0, 1)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))

        let gl = canvas.flippedY(containerHeight: target.pixelHeight)
        glViewport(gl.x, gl.y, gl.width, gl.height)
        let time = state.time(at: frame.timestamp)
        // A frozen picture is fully deterministic: the pacing bar stands where frame
        // T x 60 would put it.
        let frameIndex = state.frozen.map { ($0 * 60).rounded(.down) } ?? Double(frame.index)
        uniforms[0] = Float(gl.x); uniforms[1] = Float(gl.y)
        uniforms[2] = Float(gl.width); uniforms[3] = Float(gl.height)
        uniforms[4] = state.accent.0; uniforms[5] = state.accent.1; uniforms[6] = state.accent.2; uniforms[7] = 1
        uniforms[8] = Float(time.truncatingRemainder(dividingBy: 3600)); uniforms[9] = Float(frameIndex)
        uniforms[10] = Float(target.bufferScale); uniforms[11] = 0
        glBindBuffer(GLenum(GL_UNIFORM_BUFFER), frameBuffer)
        glBufferSubData(GLenum(GL_UNIFORM_BUFFER), 0, uniforms.count * 4, uniforms)
        glBindBufferBase(GLenum(GL_UNIFORM_BUFFER), 0, frameBuffer)
        glUseProgram(program)
        glBindVertexArray(vertexArray)
        glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
    }
}
