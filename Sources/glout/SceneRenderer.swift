import CGLES
import Glibc
import WaylandOutputs

/// The shader programs every output shares (made once in the shared context).
struct ScenePrograms: Sendable {
    /// The primary's picture.
    var control: GLuint
    /// The secondaries' picture.
    var content: GLuint
    /// --scene triangle.
    var triangle: GLuint
    /// Copies a view's still layer (a texture) to the framebuffer.
    var still: GLuint
}

/// Which picture an output shows.
enum SceneView: Sendable, Equatable {
    /// The primary's picture (also every output's in mirror).
    case control
    /// The secondaries' picture.
    case content
}

/// Draws one output's picture: the control or the content view, full size or
/// letterboxed (mirror). Runs on the output's render thread.
///
/// llvmpipe shades every pixel on the CPU, so the parts of a view that do not move are
/// drawn once into a framebuffer object and copied each frame; only the regions that
/// move (``dynamicRegions(of:canvas:)``) are shaded again.
final class SceneRenderer: OutputRenderer {
    private let scene: Scene
    private let programs: ScenePrograms
    /// Extra time spent on every frame (--stall), to show that one slow output does not
    /// slow the others.
    private let stallMicroseconds: UInt32
    private var vertexArray: GLuint = 0
    private var uniformBuffer: GLuint = 0
    /// The `Frame` uniform block: canvas, accent, timing, motion (std140, 4 x vec4).
    private var uniforms = [Float](repeating: 0, count: 16)
    /// The still parts of the picture, and what they were drawn for.
    private var stillFramebuffer: GLuint = 0
    private var stillTexture: GLuint = 0
    private var stillSize: (Int32, Int32) = (0, 0)
    private var stillKey: StillKey?

    /// Everything the still picture depends on.
    private struct StillKey: Equatable {
        var view: SceneView
        var canvas: PixelRect
        var width: Int32
        var height: Int32
        var scale: Int32
        var accent: [Float]
        var frozen: Double?
    }

    init(scene: Scene, programs: ScenePrograms, stallMilliseconds: Double = 0) {
        self.scene = scene
        self.programs = programs
        stallMicroseconds = UInt32(stallMilliseconds * 1000)
        glGenVertexArrays(1, &vertexArray)
        glGenBuffers(1, &uniformBuffer)
        glBindBuffer(GLenum(GL_UNIFORM_BUFFER), uniformBuffer)
        glBufferData(GLenum(GL_UNIFORM_BUFFER), uniforms.count * 4, nil, GLenum(GL_DYNAMIC_DRAW))
        glGenFramebuffers(1, &stillFramebuffer)
        glGenTextures(1, &stillTexture)
    }

    deinit {
        glDeleteTextures(1, &stillTexture)
        glDeleteFramebuffers(1, &stillFramebuffer)
        glDeleteBuffers(1, &uniformBuffer)
        glDeleteVertexArrays(1, &vertexArray)
    }

    /// Which view and where, for this output and this state.
    static func placement(of output: Output, width: Int32, height: Int32,
                          state: Scene.State) -> (view: SceneView, canvas: PixelRect) {
        let full = PixelRect(x: 0, y: 0, width: width, height: height)
        switch state.layout {
        case .independent:
            return (output.name == state.primary ? .control : .content, full)
        case .mirror:
            let canvas = Layout.aspectFit(contentWidth: state.primaryPixelWidth, contentHeight: state.primaryPixelHeight,
                                          intoWidth: width, height: height)
            return (.control, canvas)
        }
    }

    /// The parts of a view that change from frame to frame, in framebuffer pixels (top
    /// left origin). The shaders keep everything outside them still; keep the two in step.
    static func dynamicRegions(of view: SceneView, canvas: PixelRect) -> [PixelRect] {
        let w = Double(canvas.width), h = Double(canvas.height)
        func rect(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> PixelRect {
            let left = max(0, Int32((x).rounded(.down))), top = max(0, Int32((y).rounded(.down)))
            let right = min(canvas.width, Int32((x + width).rounded(.up)))
            let bottom = min(canvas.height, Int32((y + height).rounded(.up)))
            return PixelRect(x: canvas.x + left, y: canvas.y + top, width: max(0, right - left), height: max(0, bottom - top))
        }
        switch view {
        case .control:
            // control.frag: the dial, centred at (0.25 w, 0.52 h) with radius 0.28 h.
            return [rect(0.25 * w - 0.3 * h, 0.22 * h, 0.6 * h, 0.6 * h)]
        case .content:
            // content.frag: the rings within 0.3 h of the centre, and the pacing strip
            // along the bottom tenth.
            return [rect(0.5 * w - 0.3 * h, 0.2 * h, 0.6 * h, 0.6 * h), rect(0, 0.9 * h - 1, w, 0.1 * h + 1)]
        }
    }

    func render(_ frame: DisplayLinkFrame, in target: RenderTarget) throws {
        if stallMicroseconds > 0 { usleep(stallMicroseconds) }
        let state = scene.snapshot
        let (view, canvas) = SceneRenderer.placement(of: target.output, width: target.pixelWidth,
                                                     height: target.pixelHeight, state: state)
        let program = view == .control ? programs.control : programs.content
        setUniforms(frame: frame, target: target, canvas: canvas, state: state)
        glUseProgram(program)
        glBindVertexArray(vertexArray)

        let key = StillKey(view: view, canvas: canvas, width: target.pixelWidth, height: target.pixelHeight,
                           scale: target.bufferScale, accent: [state.accent.0, state.accent.1, state.accent.2],
                           frozen: state.frozen)
        if key != stillKey {
            // Draw the whole picture once into the still framebuffer.
            prepareStill(width: target.pixelWidth, height: target.pixelHeight)
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), stillFramebuffer)
            drawWhole(canvas: canvas, target: target)
            stillKey = key
        }
        // Copy the still layer pixel for pixel with texelFetch. (glBlitFramebuffer to the
        // window came out upside down on llvmpipe after a resize.)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), 0)
        glViewport(0, 0, target.pixelWidth, target.pixelHeight)
        glUseProgram(programs.still)
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D), stillTexture)
        glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
        glUseProgram(program)
        let gl = canvas.flippedY(containerHeight: target.pixelHeight)
        glViewport(gl.x, gl.y, gl.width, gl.height)
        glEnable(GLenum(GL_SCISSOR_TEST))
        for region in SceneRenderer.dynamicRegions(of: view, canvas: canvas) where region.width > 0 && region.height > 0 {
            let flipped = region.flippedY(containerHeight: target.pixelHeight)
            glScissor(flipped.x, flipped.y, flipped.width, flipped.height)
            glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
        }
        glDisable(GLenum(GL_SCISSOR_TEST))
    }

    /// Black bars, then the view in its canvas, into the bound framebuffer.
    private func drawWhole(canvas: PixelRect, target: RenderTarget) {
        glViewport(0, 0, target.pixelWidth, target.pixelHeight)
        glClearColor(0, 0, 0, 1)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        let gl = canvas.flippedY(containerHeight: target.pixelHeight)
        glViewport(gl.x, gl.y, gl.width, gl.height)
        glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
    }

    /// (Re)allocates the still texture at the target's size.
    private func prepareStill(width: Int32, height: Int32) {
        guard stillSize != (width, height) else { return }
        glBindTexture(GLenum(GL_TEXTURE_2D), stillTexture)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, width, height, 0, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), nil)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), stillFramebuffer)
        glFramebufferTexture2D(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), stillTexture, 0)
        stillSize = (width, height)
    }

    private func setUniforms(frame: DisplayLinkFrame, target: RenderTarget, canvas: PixelRect, state: Scene.State) {
        let gl = canvas.flippedY(containerHeight: target.pixelHeight)
        let time = state.time(at: frame.timestamp)
        // A frozen picture is fully deterministic: the pacing bar stands where frame
        // T x 60 would put it.
        let frameIndex = state.frozen.map { ($0 * 60).rounded(.down) } ?? Double(frame.index)
        uniforms[0] = Float(gl.x); uniforms[1] = Float(gl.y)
        uniforms[2] = Float(gl.width); uniforms[3] = Float(gl.height)
        uniforms[4] = state.accent.0; uniforms[5] = state.accent.1; uniforms[6] = state.accent.2; uniforms[7] = 1
        uniforms[8] = Float(time.truncatingRemainder(dividingBy: 3600)); uniforms[9] = Float(frameIndex)
        uniforms[10] = Float(target.bufferScale); uniforms[11] = 0
        // The dial's hand turns once every 4 s; y grows downwards in picture pixels.
        let angle = time.truncatingRemainder(dividingBy: 4) / 4 * 2 * Double.pi
        uniforms[12] = Float(sin(angle)); uniforms[13] = Float(-cos(angle))
        glBindBuffer(GLenum(GL_UNIFORM_BUFFER), uniformBuffer)
        glBufferSubData(GLenum(GL_UNIFORM_BUFFER), 0, uniforms.count * 4, uniforms)
        glBindBufferBase(GLenum(GL_UNIFORM_BUFFER), 0, uniformBuffer)
    }
}

/// --scene triangle: weston-simple-egl's workload (clear, one turning triangle with a
/// colour per corner), so glout's CPU per frame can be compared with it.
final class TriangleRenderer: OutputRenderer {
    private let scene: Scene
    private let program: GLuint
    private let stallMicroseconds: UInt32
    private var vertexArray: GLuint = 0
    private var uniformBuffer: GLuint = 0
    private var uniforms = [Float](repeating: 0, count: 16)

    init(scene: Scene, program: GLuint, stallMilliseconds: Double = 0) {
        self.scene = scene
        self.program = program
        stallMicroseconds = UInt32(stallMilliseconds * 1000)
        glGenVertexArrays(1, &vertexArray)
        glGenBuffers(1, &uniformBuffer)
        glBindBuffer(GLenum(GL_UNIFORM_BUFFER), uniformBuffer)
        glBufferData(GLenum(GL_UNIFORM_BUFFER), uniforms.count * 4, nil, GLenum(GL_DYNAMIC_DRAW))
    }

    deinit {
        glDeleteBuffers(1, &uniformBuffer)
        glDeleteVertexArrays(1, &vertexArray)
    }

    func render(_ frame: DisplayLinkFrame, in target: RenderTarget) throws {
        if stallMicroseconds > 0 { usleep(stallMicroseconds) }
        let state = scene.snapshot
        glViewport(0, 0, target.pixelWidth, target.pixelHeight)
        glClearColor(0, 0, 0, 1)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        uniforms[8] = Float(state.time(at: frame.timestamp).truncatingRemainder(dividingBy: 3600))
        glBindBuffer(GLenum(GL_UNIFORM_BUFFER), uniformBuffer)
        glBufferSubData(GLenum(GL_UNIFORM_BUFFER), 0, uniforms.count * 4, uniforms)
        glBindBufferBase(GLenum(GL_UNIFORM_BUFFER), 0, uniformBuffer)
        glUseProgram(program)
        glBindVertexArray(vertexArray)
        glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
    }
}
