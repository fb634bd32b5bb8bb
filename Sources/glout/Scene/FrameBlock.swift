import CGLES

/// The `Frame` uniform block that every view's shaders read (std140, 30 vec4s; see
/// shaders/frame.glsl), with the empty vertex array their passes draw with: GL objects
/// of one output's context, and the values, written in place so a frame allocates
/// nothing.
final class FrameBlock {
    static let floats = 120
    /// u_rings.w: 1 leaves the content view's rings out (content.frag).
    static let ringsLeftOut = 27
    /// u_video0 and u_video1: a --content video's colour matrix (video.frag).
    static let video = 108
    /// u_ringBands: where the content view's rings cover anything (rings.vert).
    static let ringBands = 116
    private(set) var values = [Float](repeating: 0, count: FrameBlock.floats)
    private var buffer: GLuint = 0
    private var vertexArray: GLuint = 0

    /// Makes the objects in the current context.
    init() {
        glGenVertexArrays(1, &vertexArray)
        glGenBuffers(1, &buffer)
        glBindBuffer(GLenum(GL_UNIFORM_BUFFER), buffer)
        glBufferData(GLenum(GL_UNIFORM_BUFFER), values.count * 4, nil, GLenum(GL_DYNAMIC_DRAW))
    }

    deinit {
        glDeleteBuffers(1, &buffer)
        glDeleteVertexArrays(1, &vertexArray)
    }

    subscript(index: Int) -> Float {
        get { values[index] }
        set { values[index] = newValue }
    }

    /// Sets the vec4 that starts at float `index`.
    func set(_ index: Int, _ a: Double, _ b: Double, _ c: Double, _ d: Double) {
        values[index] = Float(a); values[index + 1] = Float(b)
        values[index + 2] = Float(c); values[index + 3] = Float(d)
    }

    /// Sends the values to the buffer and binds it, for the passes that follow.
    func upload() {
        glBindBuffer(GLenum(GL_UNIFORM_BUFFER), buffer)
        glBufferSubData(GLenum(GL_UNIFORM_BUFFER), 0, values.count * 4, values)
        bind()
    }

    /// Binds the buffer (binding point 0) and the vertex array for a pass.
    func bind() {
        glBindBufferBase(GLenum(GL_UNIFORM_BUFFER), 0, buffer)
        glBindVertexArray(vertexArray)
    }
}
