import CGLES
import CWayland
import Synchronization

/// A fullscreen window on one output, with its own render thread, event queue, GLES
/// context and ``DisplayLink``: the output is paced by its own frame callbacks and never
/// waits for another output.
///
/// Create one when an output connects; ``close()`` it when the output disconnects
/// (before the output's proxies are released, which ``Screens`` guarantees by telling
/// the application first).
public final class OutputWindow: @unchecked Sendable {
    public struct Options: Sendable {
        /// xdg_toplevel.set_app_id.
        public var appID: String
        /// xdg_toplevel.set_title; the output's name is appended.
        public var title: String

        public init(appID: String = "glout", title: String = "glout") {
            self.appID = appID
            self.title = title
        }
    }

    /// Counters a window keeps while it runs.
    public struct Statistics: Sendable, Equatable {
        /// Frames committed (eglSwapBuffers calls that succeeded).
        public var frames: UInt64 = 0
        /// MonotonicClock time of the first and the last commit.
        public var firstCommit: UInt64?
        public var lastCommit: UInt64?
        /// Frame callbacks received.
        public var callbacks: UInt64 = 0

        /// Frames per second between the first and the last commit.
        public var framesPerSecond: Double {
            guard frames > 1, let first = firstCommit, let last = lastCommit, last > first else { return 0 }
            return Double(frames - 1) * 1e9 / Double(last - first)
        }
    }

    /// The registry name of the output this window is on.
    public let outputID: UInt32

    private struct Shared {
        var output: Output
        var stop = false
        var failure: (any Error)?
        var closeRequested = false
        var statistics = Statistics()
    }

    private let shared: Mutex<Shared>
    private let connection: Connection
    private let graphics: Graphics
    private let queue: EventQueue
    private let options: Options
    private let log: Log
    private let names: ProxyNames
    // Proxies owned by the main thread, used read-only here as factories and arguments.
    private let wlOutput: OpaquePointer
    private let compositor: OpaquePointer
    private let wmBase: OpaquePointer
    private var thread: RenderThread?

    /// Opens the window and starts its render thread. `makeRenderer` runs on that thread
    /// with the window's context current, once the first configure has arrived.
    public init(output: Output, screens: Screens, graphics: Graphics, options: Options = Options(),
                makeRenderer: @escaping @Sendable (RenderTarget) throws -> any OutputRenderer) throws {
        try screens.requireWindowing()
        guard let wlOutput = screens.wlOutput(for: output.id) else {
            throw WaylandError.missingGlobal(interface: "wl_output \(output.name)", required: 2, offered: nil)
        }
        outputID = output.id
        shared = Mutex(Shared(output: output))
        connection = screens.connection
        self.graphics = graphics
        queue = EventQueue(connection: screens.connection)
        self.options = options
        log = screens.connection.log
        names = screens.proxyNames
        self.wlOutput = wlOutput
        compositor = screens.registry.compositor!
        wmBase = screens.registry.wmBase!
        thread = try RenderThread(name: "glout \(output.name)") { [self] in
            run(makeRenderer: makeRenderer)
        }
    }

    deinit { close() }

    /// The output as last described to this window.
    public var output: Output { shared.withLock { $0.output } }

    /// Hands the window a new description of its output (from ``ScreenEvent/changed(_:previous:)``);
    /// the render thread resizes the surface at its next frame.
    public func update(_ output: Output) {
        shared.withLock { $0.output = output }
        queue.wake()
    }

    /// The error that stopped the window's render thread, if one did.
    public var failure: (any Error)? { shared.withLock { $0.failure } }

    /// Whether the compositor asked to close this window (xdg_toplevel.close).
    public var closeRequested: Bool { shared.withLock { $0.closeRequested } }

    /// A snapshot of the window's counters.
    public var statistics: Statistics { shared.withLock { $0.statistics } }

    /// Stops the display link and the render thread, then releases everything in reverse
    /// order of creation: renderer, EGL surface and context, wl_egl_window, xdg_toplevel,
    /// xdg_surface, wl_surface. When it returns, no callback of this window will run.
    public func close() {
        shared.withLock { $0.stop = true }
        queue.wake()
        thread?.join()
        thread = nil
    }

    private var stopRequested: Bool { shared.withLock { $0.stop } }

    // MARK: - The render thread

    private func run(makeRenderer: (RenderTarget) throws -> any OutputRenderer) {
        do {
            try renderLoop(makeRenderer: makeRenderer)
        } catch {
            shared.withLock { $0.failure = error }
            connection.wakeMainQueue()
        }
        eglReleaseThread()
    }

    private func renderLoop(makeRenderer: (RenderTarget) throws -> any OutputRenderer) throws {
        let display = graphics.display
        var output = self.output
        let surface = OutputSurface(queue: queue, compositor: compositor, wmBase: wmBase, output: wlOutput,
                                    appID: options.appID, title: "\(options.title) — \(output.name)")
        defer { surface.destroy() }
        surface.onEnter = { [unowned self] entered in
            guard entered != wlOutput else { return }
            let other = names.name(of: entered) ?? "another output"
            log.warning("the compositor put the surface for \(output.name) on \(other)")
        }
        connection.flush()

        // The first buffer may only be attached after the first configure is acknowledged.
        while !surface.hasPendingConfigure {
            if stopRequested { return }
            try queue.dispatch(timeout: nil)
        }
        var target = RenderTarget.fullscreen(on: output, proposed: surface.acknowledgeConfigure())

        let context = try graphics.makeContext()
        defer { eglDestroyContext(display, context) }
        surface.setBufferScale(target.bufferScale)
        guard let eglWindow = wl_egl_window_create(surface.surface, target.pixelWidth, target.pixelHeight) else {
            throw EGLError("wl_egl_window_create", code: EGL_BAD_NATIVE_WINDOW)
        }
        defer { wl_egl_window_destroy(eglWindow) }
        guard let eglSurface = eglCreatePlatformWindowSurface(display, graphics.config,
                                                              UnsafeMutableRawPointer(eglWindow), nil),
              eglSurface != EGLSurface(bitPattern: 0)
        else { throw EGLError("eglCreatePlatformWindowSurface") }
        defer { eglDestroySurface(display, eglSurface) }
        guard eglMakeCurrent(display, eglSurface, eglSurface, context) == EGL_TRUE else {
            throw EGLError("eglMakeCurrent")
        }
        defer { eglMakeCurrent(display, nil, nil, nil) }
        // Interval 0: eglSwapBuffers must not wait for this surface's frame callback;
        // the display link does the pacing, per output.
        eglSwapInterval(display, 0)

        let link = DisplayLink(output: output)
        defer { link.cancel() }
        var renderer: (any OutputRenderer)? = try makeRenderer(target)
        defer { renderer = nil }

        while !stopRequested {
            // A new description of the output, or a new configure, may change the buffer.
            let latest = self.output
            if latest != output {
                output = latest
                link.update(output: output)
            }
            var proposed = surface.configuredSize
            if let acknowledged = surface.acknowledgeConfigure() { proposed = acknowledged }
            let wanted = RenderTarget.fullscreen(on: output, proposed: proposed)
            if wanted != target {
                if wanted.pixelWidth != target.pixelWidth || wanted.pixelHeight != target.pixelHeight {
                    wl_egl_window_resize(eglWindow, wanted.pixelWidth, wanted.pixelHeight, 0, 0)
                }
                if wanted.bufferScale != target.bufferScale { surface.setBufferScale(wanted.bufferScale) }
                target = wanted
            }
            if surface.closeRequested {
                shared.withLock { $0.closeRequested = true }
                connection.wakeMainQueue()
            }

            if link.frameDue {
                let frame = link.nextFrame(now: MonotonicClock.now())
                link.requestCallback(surface: surface.surface)
                try renderer?.render(frame, in: target)
                guard eglSwapBuffers(display, eglSurface) == EGL_TRUE else { throw EGLError("eglSwapBuffers") }
                let now = MonotonicClock.now()
                shared.withLock { state in
                    state.statistics.frames += 1
                    if state.statistics.firstCommit == nil { state.statistics.firstCommit = now }
                    state.statistics.lastCommit = now
                }
                continue
            }
            try queue.dispatch(timeout: nil)
            if link.frameDue { shared.withLock { $0.statistics.callbacks += 1 } }
        }
    }
}
