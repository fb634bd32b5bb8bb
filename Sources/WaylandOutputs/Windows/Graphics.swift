import CGLES
import CWayland

/// One EGL display on the Wayland connection, the config every window surface uses,
/// and the shared GLES 3 context whose share group all window contexts join (programs
/// made in it can be used on every output).
// @unchecked: EGL handles are raw pointers. The display and config never change after
// init; the pool of spare contexts is under a Locked; EGL itself is thread-safe.
package final class Graphics: @unchecked Sendable {
    /// Kept so the wl_display outlives the EGL display made on it (eglTerminate
    /// destroys Mesa's proxies on that connection).
    private let connection: Connection
    let display: EGLDisplay
    let config: EGLConfig
    /// The root of the share group; current only inside ``withSharedContext(_:)``.
    let sharedContext: EGLContext
    /// The GL_RENDERER string, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)".
    package private(set) var renderer = ""
    /// Whether the driver shades on the CPU (llvmpipe, softpipe, swrast): there a frame
    /// costs in proportion to its pixels, which ``FullscreenSurface/Options/draftFirstFrame``
    /// uses to reach the screen sooner.
    package var rasterizesOnCPU: Bool { Graphics.isCPURasterizer(renderer) }

    /// Whether a GL_RENDERER string names one of Mesa's CPU rasterizers.
    static func isCPURasterizer(_ renderer: String) -> Bool {
        ["llvmpipe", "softpipe", "swrast", "Software Rasterizer"].contains { renderer.contains($0) }
    }

    /// The widest and highest buffer the driver can draw into and read back: the least of
    /// GL_MAX_RENDERBUFFER_SIZE, GL_MAX_TEXTURE_SIZE and GL_MAX_VIEWPORT_DIMS (16384 on
    /// llvmpipe). A window never asks for more (``BufferLimits``).
    package private(set) var maximumBufferSide: Int32 = 4096
    /// Whether windows can copy their frames into wl_shm buffers of their own
    /// (``FullscreenSurface/Options/FramePath/sharedMemory``): the driver reads BGRA rows
    /// top first.
    package private(set) var supportsSharedMemoryFrames = false

    /// Contexts of windows that closed, kept for the next windows (see ``takeContext()``).
    private let spareContexts = Locked<[EGLContext]>([])
    /// Whether windows make their GL and EGL calls one at a time (see ``serializesGL``).
    package let serializesGL: Bool
    /// The lock of ``serialized(deadline:_:)``: turns by earliest deadline.
    private let glLock = DeadlineLock()
    /// Held while a thread has the shared context current: EGL lets one thread at a time
    /// have a context (EGL_BAD_ACCESS), whether or not the windows take turns at GL.
    private let sharedContextUse = Locked(())

    /// eglGetPlatformDisplay(EGL_PLATFORM_WAYLAND_KHR), eglInitialize, eglChooseConfig
    /// (8-bit RGB, opaque, GLES 3) and eglCreateContext for the shared context.
    ///
    /// - Parameters:
    ///   - connection: the Wayland connection the windows' surfaces are on.
    ///   - serializeGL: whether windows make their GL calls one at a time; nil decides from
    ///     the driver (see ``serializesGL``).
    package init(connection: Connection, serializeGL: Bool? = nil) throws {
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
        guard eglMakeCurrent(display, nil, nil, sharedContext) == EGL_TRUE else {
            let failure = EGLError("eglMakeCurrent (shared context, no surface)")
            eglDestroyContext(display, sharedContext)
            eglTerminate(display)
            throw failure
        }
        let rendererName = glGetString(GLenum(GL_RENDERER)).map { String(cString: $0) } ?? "unknown"
        let version = glGetString(GLenum(GL_VERSION)).map { String(cString: $0) } ?? ""
        let extensions = glGetString(GLenum(GL_EXTENSIONS)).map { String(cString: $0) } ?? ""
        var renderbuffer: GLint = 0, texture: GLint = 0
        var viewport: [GLint] = [0, 0]
        glGetIntegerv(GLenum(GL_MAX_RENDERBUFFER_SIZE), &renderbuffer)
        glGetIntegerv(GLenum(GL_MAX_TEXTURE_SIZE), &texture)
        glGetIntegerv(GLenum(GL_MAX_VIEWPORT_DIMS), &viewport)
        eglMakeCurrent(display, nil, nil, nil)
        // GLES 3 guarantees 2048 of each; a driver that answers less (or nothing) gets that.
        maximumBufferSide = max(2048, [renderbuffer, texture, viewport[0], viewport[1]].min() ?? 2048)
        supportsSharedMemoryFrames = SharedMemoryFrames.isSupported(extensions: extensions)
        renderer = rendererName
        serializesGL = serializeGL ?? Graphics.needsSerializedGL(renderer: rendererName, version: version)
    }

    /// Whether a driver needs the GL calls of different threads kept apart: llvmpipe
    /// before Mesa 23.1.6 walks every context's list of referenced resources (in
    /// llvmpipe_flush_resource, on draws, blits, uploads and swaps) while each context's
    /// own thread frees and grows its list without a lock (fixed upstream by commit
    /// 87ec9456bed, "llvmpipe: fix UAF in lp_scene_is_resource_referenced"). Debian 12
    /// ships 22.3.6: a storm of unplugs crashed a client of this library there once in
    /// about 500 (SIGSEGV in lp_scene_is_resource_referenced on one render thread).
    static func needsSerializedGL(renderer: String, version: String) -> Bool {
        guard renderer.contains("llvmpipe") else { return false }
        // "OpenGL ES 3.2 Mesa 22.3.6": the word after "Mesa".
        let words = version.split(separator: " ")
        guard let mesa = words.firstIndex(of: "Mesa"), mesa + 1 < words.count else { return true }
        let numbers = words[mesa + 1].prefix { $0.isNumber || $0 == "." }.split(separator: ".").compactMap { Int($0) }
        let (major, minor, patch) = (numbers.first ?? 0, numbers.dropFirst().first ?? 0, numbers.dropFirst(2).first ?? 0)
        return (major, minor, patch) < (23, 1, 6)
    }

    /// Runs `body`, which makes GL or EGL calls, alone among the windows' GL calls when
    /// ``serializesGL`` is set, else at once. Where they take turns, the next turn goes to
    /// the waiting call whose work is due first: `deadline` (when a frame is due), else now.
    /// A deadline must not move later as its work waits, or that work can starve.
    package func serialized<T>(deadline: MonotonicInstant? = nil, _ body: () throws -> T) rethrows -> T {
        guard serializesGL else { return try body() }
        return try glLock.withTurn(deadline: (deadline ?? .now).nanoseconds, body)
    }

    deinit {
        eglMakeCurrent(display, nil, nil, nil)
        // Every window holds this object, so no render thread runs now: the contexts go
        // one by one, from this thread.
        for context in spareContexts.withLock({ $0 }) { eglDestroyContext(display, context) }
        eglDestroyContext(display, sharedContext)
        eglTerminate(display)
        eglReleaseThread()
    }

    /// Runs `body` with the shared context current on the calling thread and no surface
    /// (EGL_KHR_surfaceless_context), then releases it. Use it to build GL objects every
    /// output shares (shader programs, textures). Where windows take turns at GL, it takes
    /// one too, by `deadline` (nil: now). One thread at a time.
    package func withSharedContext<T>(deadline: MonotonicInstant? = nil, _ body: () throws -> T) throws -> T {
        try sharedContextUse.withLock { _ in try sharedContext(deadline: deadline, body) }
    }

    private func sharedContext<T>(deadline: MonotonicInstant?, _ body: () throws -> T) throws -> T {
        try serialized(deadline: deadline) {
            guard eglMakeCurrent(display, nil, nil, sharedContext) == EGL_TRUE else {
                throw EGLError("eglMakeCurrent (shared context, no surface)")
            }
            defer {
                glFinish()
                eglMakeCurrent(display, nil, nil, nil)
            }
            return try body()
        }
    }

    /// A context in the shared context's share group for one thread: one a closed window
    /// gave back, else a new one.
    ///
    /// Contexts are reused, never destroyed while windows draw: Mesa (22.3 up to at least
    /// 24.0) frees a context's shader variants from the shared programs' variant lists in
    /// eglDestroyContext without the lock that other contexts hold while they walk those
    /// lists to draw, so a window closing while another draws could crash the other (seen
    /// once in about 300 unplugs in the storm test: SIGSEGV in swrast_dri.so on the
    /// drawing thread while the closing one was in it too).
    package func makeContext() throws -> RenderContext {
        if let spare = spareContexts.withLock({ $0.popLast() }) { return RenderContext(spare, graphics: self) }
        return RenderContext(try Graphics.createContext(display, config, sharing: sharedContext), graphics: self)
    }

    /// Contexts waiting for a window.
    var spareContextCount: Int { spareContexts.withLock { $0.count } }

    /// Takes back a released ``RenderContext`` (its GL objects deleted): puts the state a
    /// renderer may have changed back to GL's defaults, releases the context from the
    /// thread and keeps it for the next window.
    func returnContext(_ context: EGLContext) {
        serialized {
            if eglMakeCurrent(display, nil, nil, context) == EGL_TRUE { Graphics.resetState() }
            eglMakeCurrent(display, nil, nil, nil)
        }
        spareContexts.withLock { $0.append(context) }
    }

    /// GL state a renderer commonly changes, back to its initial values, so that a reused
    /// context starts like a new one for the next renderer.
    private static func resetState() {
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), 0)
        glBindVertexArray(0)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), 0)
        glBindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), 0)
        glBindBuffer(GLenum(GL_UNIFORM_BUFFER), 0)
        glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), 0)
        glBindBuffer(GLenum(GL_PIXEL_UNPACK_BUFFER), 0)
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D), 0)
        glUseProgram(0)
        for capability in [GL_BLEND, GL_DEPTH_TEST, GL_SCISSOR_TEST, GL_STENCIL_TEST, GL_CULL_FACE,
                           GL_POLYGON_OFFSET_FILL, GL_SAMPLE_ALPHA_TO_COVERAGE, GL_SAMPLE_COVERAGE,
                           GL_RASTERIZER_DISCARD] {
            glDisable(GLenum(capability))
        }
        glEnable(GLenum(GL_DITHER))
        glBlendFunc(GLenum(GL_ONE), GLenum(GL_ZERO))
        glBlendEquation(GLenum(GL_FUNC_ADD))
        glColorMask(GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE))
        glDepthMask(GLboolean(GL_TRUE))
        glDepthFunc(GLenum(GL_LESS))
        glClearColor(0, 0, 0, 0)
        glClearDepthf(1)
        glClearStencil(0)
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 4)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 4)
        glLineWidth(1)
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
