import CGLES

/// The GL side of the `Frame` uniform block that every view's shaders read
/// (shaders/frame.glsl): the buffer its ``FrameUniforms`` go to, with the empty vertex
/// array their passes draw with; GL objects of one output's context.
final class FrameBlock {
    /// The values the next ``upload()`` sends.
    var uniforms = FrameUniforms()
    private var buffer: GLuint = 0
    private var vertexArray: GLuint = 0

    /// Makes the objects in the current context.
    init() {
        glGenVertexArrays(1, &vertexArray)
        glGenBuffers(1, &buffer)
        glBindBuffer(GLenum(GL_UNIFORM_BUFFER), buffer)
        glBufferData(GLenum(GL_UNIFORM_BUFFER), FrameUniforms.floatCount * 4, nil, GLenum(GL_DYNAMIC_DRAW))
    }

    deinit {
        glDeleteBuffers(1, &buffer)
        glDeleteVertexArrays(1, &vertexArray)
    }

    /// Sets the vec4 `field` of the next upload.
    func set(_ field: FrameUniforms.Field, _ x: Double, _ y: Double, _ z: Double, _ w: Double) {
        uniforms.set(field, x, y, z, w)
    }

    /// Sends the values to the buffer and binds it, for the passes that follow.
    func upload() {
        glBindBuffer(GLenum(GL_UNIFORM_BUFFER), buffer)
        glBufferSubData(GLenum(GL_UNIFORM_BUFFER), 0, FrameUniforms.floatCount * 4, uniforms.floats)
        bind()
    }

    /// Binds the buffer (binding point 0) and the vertex array for a pass.
    func bind() {
        glBindBufferBase(GLenum(GL_UNIFORM_BUFFER), 0, buffer)
        glBindVertexArray(vertexArray)
    }
}
