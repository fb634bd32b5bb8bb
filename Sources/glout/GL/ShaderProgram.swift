import CGLES
import WaylandOutputs

/// A linked GLES program (glCreateProgram) built from two files of the shader library.
final class ShaderProgram {
    let program: GLuint

    /// Compiles `vertex` and `fragment`, links them and binds the `Frame` uniform block
    /// to binding point 0. Needs a current context.
    init(vertex: String, fragment: String, library: [String: String]) throws {
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

/// The shader programs every output shares, by fragment shader name (a --content
/// shader by its path). What the first frames need is compiled at start-up
/// (``compile(_:)``); the rest on first use, in whichever context of the share group is
/// current then (a window's, on its render thread): after the first (about 5 ms, Mesa's
/// GLSL compiler starting) each program costs llvmpipe about 0.6 ms, and text, markers
/// and the span are not in the first frame (BENCHMARKS.md, "Time to the first frame").
final class ScenePrograms: Sendable {
    private let library: Locked<[String: String]>
    private let made = Locked<[String: ShaderProgram]>([:])

    init(library: [String: String]) {
        self.library = Locked(library)
    }

    /// The primary's picture.
    var control: GLuint { get throws { try program("control.frag") } }
    /// The secondaries' picture.
    var content: GLuint { get throws { try program("content.frag") } }
    /// Each output's part of the span canvas.
    var span: GLuint { get throws { try program("span.frag") } }
    /// --scene triangle.
    var triangle: GLuint { get throws { try program("triangle.frag") } }
    /// The dashboard's text and graphs, the label and the names.
    var text: GLuint { get throws { try program("text.frag") } }
    /// The pointer and touch markers.
    var marker: GLuint { get throws { try program("marker.frag") } }
    /// --scene pacing.
    var pacing: GLuint { get throws { try program("pacing.frag") } }
    /// A --content image.
    var image: GLuint { get throws { try program("image.frag") } }
    /// The content view's rings, over the picture without them.
    var rings: GLuint { get throws { try program("rings.frag") } }
    /// A --content video's frames.
    var video: GLuint { get throws { try program("video.frag") } }
    /// A show's video frames, text and colours, copied to their place in a zone.
    var showCopy: GLuint { get throws { try program("show-copy.frag") } }

    /// Compiles the programs of these fragment shaders now, in the current context.
    func compile(_ fragments: [String]) throws {
        for fragment in fragments { _ = try program(fragment) }
    }

    /// The program of `fragment`, compiled in the current context on first use (another
    /// thread asking meanwhile waits for it).
    func program(_ fragment: String) throws -> GLuint {
        try made.withLock { made in
            if let program = made[fragment] { return program.program }
            let program = try ShaderProgram(vertex: ScenePrograms.vertexShader(for: fragment), fragment: fragment,
                                            library: library.withLock { $0 })
            // Samplers u_plane0 and 1 read texture units 0 and 1 (video.frag): set once
            // here, since a program's uniforms are shared by every context using it.
            for unit in 0..<2 {
                let location = glGetUniformLocation(program.program, "u_plane\(unit)")
                if location >= 0 {
                    glUseProgram(program.program)
                    glUniform1i(location, GLint(unit))
                }
            }
            // Complete before another context of the share group uses it.
            glFlush()
            made[fragment] = program
            return program.program
        }
    }

    /// The program of a content shader the control API named: `source`, filed under
    /// `path`, compiled now in the current context. A path already compiled with another
    /// source is filed anew (a renderer may still draw with the old program).
    func contentShader(path: String, source: String) throws -> GLuint {
        let name = library.withLock { library in
            var name = path, copy = 1
            while let known = library[name], known != source {
                copy += 1
                name = "\(path) (\(copy))"
            }
            library[name] = source
            return name
        }
        return try program(name)
    }

    /// Deletes every program made; needs a context of the share group current and no
    /// window drawing.
    func delete() {
        made.withLock { made in
            for program in made.values { program.delete() }
            made = [:]
        }
    }

    private static func vertexShader(for fragment: String) -> String {
        switch fragment {
        case "text.frag": "text.vert"
        case "triangle.frag": "triangle.vert"
        case "rings.frag": "rings.vert"
        case "show-copy.frag": "show-copy.vert"
        default: "fullscreen.vert"
        }
    }
}
