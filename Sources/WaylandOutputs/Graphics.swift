import CGLES
import CWayland

/// One EGL display on the Wayland connection, the config every window surface uses,
/// and the shared GLES 3 context whose share group all window contexts join (programs
/// made in it can be used on every output).
public final class Graphics: @unchecked Sendable {
    /// Kept so the wl_display outlives the EGL display made on it (eglTerminate
    /// destroys Mesa's proxies on that connection).
    private let connection: Connection
    let display: EGLDisplay
    let config: EGLConfig
    /// The root of the share group; current only inside ``withSharedContext(_:)``.
    let sharedContext: EGLContext
    /// The GL_RENDERER string, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)".
    public private(set) var renderer = ""

    /// eglGetPlatformDisplay(EGL_PLATFORM_WAYLAND_KHR), eglInitialize, eglChooseConfig
    /// (8-bit RGB, opaque, GLES 3) and eglCreateContext for the shared context.
    public init(connection: Connection) throws {
        guard let display = eglGetPlatformDisplay(EGLenum(EGL_PLATFORM_WAYLAND_KHR),
                                                  UnsafeMutableRawPointer(connection.display), nil),
              display != EGLDisplay(bitPattern: 0)
        else { throw EGLError("eglGetPlatformDisplay") }
        guard eglInitialize(display, nil, nil) == EGL_TRUE else { throw EGLError("eglInitialize") }
        guard eglBindAPI(EGLenum(EGL_OPENGL_ES_API)) == EGL_TRUE else {
            eglTerminate(display)
            throw EGLError("eglBindAPI")
        }
        do {
            config = try Graphics.chooseConfig(display)
            sharedContext = try Graphics.createContext(display, config, sharing: nil)
        } catch {
            eglTerminate(display)
            throw error
        }
        self.display = display
        self.connection = connection
        try withSharedContext {
            renderer = glGetString(GLenum(GL_RENDERER)).map { String(cString: $0) } ?? "unknown"
        }
    }

    deinit {
        eglMakeCurrent(display, nil, nil, nil)
        eglDestroyContext(display, sharedContext)
        eglTerminate(display)
        eglReleaseThread()
    }

    /// Runs `body` with the shared context current on the calling thread and no surface
    /// (EGL_KHR_surfaceless_context), then releases it. Use it to build GL objects every
    /// output shares (shader programs).
    public func withSharedContext<T>(_ body: () throws -> T) throws -> T {
        guard eglMakeCurrent(display, nil, nil, sharedContext) == EGL_TRUE else {
            throw EGLError("eglMakeCurrent (shared context, no surface)")
        }
        defer {
            glFinish()
            eglMakeCurrent(display, nil, nil, nil)
        }
        return try body()
    }

    /// A new context in the shared context's share group, for one render thread.
    func makeContext() throws -> EGLContext {
        try Graphics.createContext(display, config, sharing: sharedContext)
    }

    private static func createContext(_ display: EGLDisplay, _ config: EGLConfig, sharing: EGLContext?) throws -> EGLContext {
        let attributes: [EGLint] = [EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 0, EGL_NONE]
        guard let context = eglCreateContext(display, config, sharing, attributes),
              context != EGLContext(bitPattern: 0)
        else { throw EGLError("eglCreateContext (GLES 3.0)") }
        return context
    }

    private static func chooseConfig(_ display: EGLDisplay) throws -> EGLConfig {
        let attributes: [EGLint] = [
            EGL_SURFACE_TYPE, EGL_WINDOW_BIT,
            EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT,
            EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8,
            EGL_NONE,
        ]
        var count: EGLint = 0
        guard eglChooseConfig(display, attributes, nil, 0, &count) == EGL_TRUE, count > 0 else {
            throw EGLError("eglChooseConfig (8-bit RGB window, GLES 3)")
        }
        var configs = [EGLConfig?](repeating: nil, count: Int(count))
        guard eglChooseConfig(display, attributes, &configs, count, &count) == EGL_TRUE else {
            throw EGLError("eglChooseConfig")
        }
        // Prefer an opaque 8-bit config (XRGB8888): the compositor need not blend it.
        func value(_ config: EGLConfig, _ attribute: EGLint) -> EGLint {
            var v: EGLint = 0
            eglGetConfigAttrib(display, config, attribute, &v)
            return v
        }
        let usable = configs.prefix(Int(count)).compactMap { $0 }
        let opaque = usable.first { value($0, EGL_ALPHA_SIZE) == 0 && value($0, EGL_RED_SIZE) == 8 }
        guard let chosen = opaque ?? usable.first else { throw EGLError("eglChooseConfig", code: EGL_BAD_CONFIG) }
        return chosen
    }
}
