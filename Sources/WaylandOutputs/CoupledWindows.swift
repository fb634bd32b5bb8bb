import CGLES
import CWayland

/// The loop most multi-window programs use, kept as a baseline to measure against:
/// one thread and one context for every output, eglSwapInterval(1) on each surface, and
/// the surfaces drawn and swapped in turn. Each eglSwapBuffers waits for that surface's
/// frame callback, so every output runs at the pace of the slowest one.
public final class CoupledWindows: @unchecked Sendable {
    private struct Shared {
        var stop = false
        var failure: (any Error)?
        var logs: [UInt32: FrameLog] = [:]
        var frames: [UInt32: UInt64] = [:]
    }

    private let shared = Locked(Shared())
    private let connection: Connection
    private let graphics: Graphics
    private let queue: EventQueue
    private let outputs: [Output]
    private let leases: [OutputLease]
    private let compositor: OpaquePointer
    private let wmBase: OpaquePointer
    private let appID: String
    private var thread: RenderThread?

    /// Opens a window on each output and starts the single render thread.
    public init(outputs: [Output], screens: Screens, graphics: Graphics, appID: String = "glout",
                makeRenderer: @escaping @Sendable (RenderTarget) throws -> any OutputRenderer) throws {
        try screens.requireWindowing()
        self.outputs = outputs
        leases = try outputs.map { output in
            guard let proxy = screens.lease(output.id) else {
                throw WaylandError.missingGlobal(interface: "wl_output \(output.name)", required: 2, offered: nil)
            }
            return proxy
        }
        connection = screens.connection
        self.graphics = graphics
        queue = EventQueue(connection: screens.connection)
        compositor = screens.registry.compositor!
        wmBase = screens.registry.wmBase!
        self.appID = appID
        shared.withLock { state in
            for output in outputs { state.logs[output.id] = FrameLog(capacity: nil) }
        }
        thread = try RenderThread(name: "glout coupled") { [self] in
            do {
                try renderLoop(makeRenderer: makeRenderer)
            } catch {
                shared.withLock { $0.failure = error }
                connection.wakeMainQueue()
            }
            eglReleaseThread()
        }
    }

    deinit { close() }

    /// The error that stopped the loop, if one did.
    public var failure: (any Error)? { shared.withLock { $0.failure } }

    /// Every frame of the output with this registry name (commit times only: the
    /// callbacks are consumed inside eglSwapBuffers).
    public func frameLog(of outputID: UInt32) -> FrameLog? { shared.withLock { $0.logs[outputID] } }

    /// Frames committed so far on the output with this registry name.
    public func frames(of outputID: UInt32) -> UInt64 { shared.withLock { $0.frames[outputID] ?? 0 } }

    /// Stops the loop and releases every window, in reverse order of creation.
    public func close() {
        shared.withLock { $0.stop = true }
        queue.wake()
        thread?.join()
        thread = nil
        for lease in leases { lease.end() }
    }

    private struct Window {
        var output: Output
        var surface: OutputSurface
        var eglWindow: OpaquePointer
        var eglSurface: EGLSurface
        var target: RenderTarget
        var renderer: (any OutputRenderer)?
        var frames: UInt64 = 0
    }

    private func renderLoop(makeRenderer: (RenderTarget) throws -> any OutputRenderer) throws {
        let display = graphics.display
        let context = try graphics.takeContext()
        var windows: [Window] = []
        defer {
            // Reverse order: renderers (context current), EGL surfaces, wl_egl_windows, surfaces.
            for index in windows.indices.reversed() {
                if eglMakeCurrent(display, windows[index].eglSurface, windows[index].eglSurface, context) == EGL_TRUE {
                    windows[index].renderer = nil
                }
                eglMakeCurrent(display, nil, nil, nil)
                eglDestroySurface(display, windows[index].eglSurface)
                wl_egl_window_destroy(windows[index].eglWindow)
                windows[index].surface.destroy()
            }
            _ = eglMakeCurrent(display, nil, nil, context)
            graphics.returnContext(context)
        }
        for (output, lease) in zip(outputs, leases) {
            let surface = OutputSurface(queue: queue, compositor: compositor, wmBase: wmBase, output: lease.output,
                                        appID: appID, title: "\(appID) — \(output.name) (coupled)")
            connection.flush()
            while !surface.hasPendingConfigure {
                if shared.withLock({ $0.stop }) { surface.destroy(); return }
                try queue.dispatch(timeout: nil)
            }
            let target = RenderTarget.fullscreen(on: output, proposed: surface.acknowledgeConfigure())
            surface.apply(target.scaling)
            guard let eglWindow = wl_egl_window_create(surface.surface, target.pixelWidth, target.pixelHeight) else {
                surface.destroy()
                throw EGLError("wl_egl_window_create", code: EGL_BAD_NATIVE_WINDOW)
            }
            guard let eglSurface = eglCreatePlatformWindowSurface(display, graphics.config,
                                                                  UnsafeMutableRawPointer(eglWindow), nil),
                  eglSurface != EGLSurface(bitPattern: 0)
            else {
                wl_egl_window_destroy(eglWindow)
                surface.destroy()
                throw EGLError("eglCreatePlatformWindowSurface")
            }
            windows.append(Window(output: output, surface: surface, eglWindow: eglWindow, eglSurface: eglSurface,
                                  target: target, renderer: nil))
            guard eglMakeCurrent(display, eglSurface, eglSurface, context) == EGL_TRUE else { throw EGLError("eglMakeCurrent") }
            // The usual setting: the swap waits for this surface's frame callback.
            eglSwapInterval(display, 1)
            windows[windows.count - 1].renderer = try makeRenderer(target)
        }

        while !shared.withLock({ $0.stop }) {
            queue.dispatchPending()
            for index in windows.indices {
                if let size = windows[index].surface.acknowledgeConfigure() {
                    let target = RenderTarget.fullscreen(on: windows[index].output, proposed: size)
                    if target != windows[index].target {
                        wl_egl_window_resize(windows[index].eglWindow, target.pixelWidth, target.pixelHeight, 0, 0)
                        windows[index].target = target
                    }
                }
                let window = windows[index]
                guard eglMakeCurrent(display, window.eglSurface, window.eglSurface, context) == EGL_TRUE else {
                    throw EGLError("eglMakeCurrent")
                }
                let renderStart = MonotonicClock.now()
                let cpuBefore = MonotonicClock.threadCPU()
                let frame = DisplayLinkFrame(index: window.frames, timestamp: renderStart,
                                             targetTimestamp: renderStart + 16_666_667, duration: 16_666_667)
                try window.renderer?.render(frame, in: window.target)
                guard eglSwapBuffers(display, window.eglSurface) == EGL_TRUE else { throw EGLError("eglSwapBuffers") }
                let commit = MonotonicClock.now()
                let sample = FrameSample(index: window.frames, renderStart: renderStart, commit: commit,
                                         cpuNanoseconds: MonotonicClock.threadCPU() - cpuBefore)
                windows[index].frames += 1
                shared.withLock { state in
                    state.logs[window.output.id]?.append(sample)
                    state.frames[window.output.id] = window.frames + 1
                }
            }
        }
    }
}
