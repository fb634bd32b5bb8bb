import CGLES

/// A linked GLES program (glCreateProgram) built from two files of the shader library.
final class ShaderProgram {
    let program: GLuint
    let name: String

    /// Compiles `vertex` and `fragment`, links them and binds the `Frame` uniform block
    /// to binding point 0. Needs a current context.
    init(vertex: String, fragment: String, library: [String: String]) throws {
        name = fragment
        let vs = try ShaderProgram.compile(try ShaderSource(name: vertex, library: library), type: GL_VERTEX_SHADER)
        defer { glDeleteShader(vs) }
        let fs = try ShaderProgram.compile(try ShaderSource(name: fragment, library: library), type: GL_FRAGMENT_SHADER)
        defer { glDeleteShader(fs) }
        program = glCreateProgram()
        glAttachShader(program, vs)
        glAttachShader(program, fs)
        glLinkProgram(program)
        var linked: GLint = 0
        glGetProgramiv(program, GLenum(GL_LINK_STATUS), &linked)
        guard linked == GL_TRUE else {
            let log = ShaderProgram.infoLog(program, isProgram: true)
            glDeleteProgram(program)
            throw ShaderError(shader: "\(vertex) + \(fragment)", file: nil, line: nil, stage: "link", log: log)
        }
        let block = glGetUniformBlockIndex(program, "Frame")
        if block != GLuint(GL_INVALID_INDEX) { glUniformBlockBinding(program, block, 0) }
        let text = glGetUniformBlockIndex(program, "Text")
        if text != GLuint(GL_INVALID_INDEX) { glUniformBlockBinding(program, text, 1) }
    }

    /// glDeleteProgram; needs the context (or one of its share group) current.
    func delete() { glDeleteProgram(program) }

    private static func compile(_ source: ShaderSource, type: Int32) throws -> GLuint {
        let shader = glCreateShader(GLenum(type))
        source.text.withCString { text in
            var pointer: UnsafePointer<GLchar>? = text
            glShaderSource(shader, 1, &pointer, nil)
        }
        glCompileShader(shader)
        var compiled: GLint = 0
        glGetShaderiv(shader, GLenum(GL_COMPILE_STATUS), &compiled)
        guard compiled == GL_TRUE else {
            let (log, first) = ShaderError.mapLog(infoLog(shader, isProgram: false), files: source.files)
            glDeleteShader(shader)
            throw ShaderError(shader: source.files[0], file: first?.file, line: first?.line, stage: "compile", log: log)
        }
        return shader
    }

    private static func infoLog(_ object: GLuint, isProgram: Bool) -> String {
        var length: GLint = 0
        if isProgram { glGetProgramiv(object, GLenum(GL_INFO_LOG_LENGTH), &length) }
        else { glGetShaderiv(object, GLenum(GL_INFO_LOG_LENGTH), &length) }
        guard length > 1 else { return "(the driver gave no log)" }
        var buffer = [GLchar](repeating: 0, count: Int(length))
        if isProgram { glGetProgramInfoLog(object, length, nil, &buffer) }
        else { glGetShaderInfoLog(object, length, nil, &buffer) }
        let end = buffer.firstIndex(of: 0) ?? buffer.count
        return String(decoding: buffer[..<end].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
