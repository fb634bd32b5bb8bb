import CGLES
import CWayland

/// A fullscreen window on one output and the EGL surface to draw into it: the
/// wl_surface, xdg_surface and xdg_toplevel (fullscreen on the output), the
/// wl_egl_window and the EGLSurface, with the buffer planned for the output (scale,
/// fractional scale, render size, viewport). Set-up and teardown live here only: an
/// ``OutputWindow`` runs one on its own thread, and a loop of your own can drive several
/// from one thread (glout's benchmark baseline does).
///
/// Make it on the thread that dispatches the connection; then use it on one thread only,
/// the one that dispatches `queue`, where its events arrive.
public final class FullscreenSurface {
    /// What the window is called and what it draws at.
    public struct Options: Sendable {
        /// xdg_toplevel.set_app_id.
        public var appID: String
        /// xdg_toplevel.set_title; the output's name is appended.
        public var title: String
        /// Draw at this size in pixels instead of the output's, and let the compositor
        /// scale it (wp_viewporter) as `scaleMode` says. Without wp_viewporter the surface
        /// draws at the output's size and ``renderSizeIgnored`` is set.
        public var renderSize: Size?
        public var scaleMode: ScaleMode
        /// Draw the first frame at half the width and height and let the compositor scale
        /// it up (wp_viewporter); every later frame is drawn whole. Where the GPU is the
        /// CPU (``Graphics/rasterizesOnCPU``), a frame costs in proportion to its pixels:
        /// a quarter of them reach the screen sooner, and the sharp frame follows. Ignored
        /// with a ``renderSize`` or without wp_viewporter. A loop of your own calls
        /// ``FullscreenSurface/finishDraft()`` once it has committed the draft (an
        /// ``OutputWindow`` does). Default: false.
        public var draftFirstFrame: Bool

        public init(appID: String, title: String? = nil, renderSize: Size? = nil, scaleMode: ScaleMode = .fit,
                    draftFirstFrame: Bool = false) {
            self.appID = appID
            self.title = title ?? appID
            self.renderSize = renderSize
            self.scaleMode = scaleMode
            self.draftFirstFrame = draftFirstFrame
        }
    }

    /// The queue this surface's events go to.
    public let queue: EventQueue
    /// The output as last described to the surface.
    public private(set) var output: Output
    /// The buffer the next frame draws into.
    public private(set) var target: RenderTarget
    /// A render size was asked for but the compositor cannot scale buffers.
    public let renderSizeIgnored: Bool
    /// Whether the next frame is the draft first frame (``Options/draftFirstFrame``);
    /// ``finishDraft()`` ends it.
    public private(set) var isDraft: Bool
    /// Called when the compositor shows the surface on another output than its own (with
    /// that output's name, if known); the surface has asked again for its own.
    var onMisplaced: ((String?) -> Void)?
    /// Called when ``placement`` changes.
    var onPlacementChange: (() -> Void)?

    private let surface: OutputSurface
    private let lease: OutputLease
    private let ownsLease: Bool
    private let graphics: Graphics
    private let options: Options
    private let directory: SurfaceDirectory
    private let names: ProxyNames
    private var eglWindow: OpaquePointer?
    private var eglSurface: EGLSurface?
    private var closed = false

    /// Asks for a fullscreen window on `output` (call it on the connection's main thread);
    /// ``configure(until:)`` then waits for the compositor's answer.
    public convenience init(output: Output, screens: Screens, graphics: Graphics, queue: EventQueue,
                            options: Options) throws {
        try screens.requireWindowing()
        guard let lease = screens.lease(output.id) else {
            throw WaylandError.missingGlobal(interface: "wl_output \(output.name)", required: 2, offered: nil)
        }
        self.init(output: output, lease: lease, ownsLease: true, screens: screens, graphics: graphics, queue: queue,
                  options: options)
    }

    /// A surface on the output `lease` holds, from any thread; the caller keeps the lease.
    init(output: Output, lease: OutputLease, ownsLease: Bool = false, screens: Screens, graphics: Graphics,
         queue: EventQueue, options: Options) {
        let registry = screens.registry
        surface = OutputSurface(queue: queue, compositor: registry.compositor!, wmBase: registry.wmBase!,
                                output: lease.output, appID: options.appID, title: "\(options.title) — \(output.name)",
                                viewporter: registry.viewporter, fractionalScaleManager: registry.fractionalScaleManager)
        self.output = output
        self.lease = lease
        self.ownsLease = ownsLease
        self.graphics = graphics
        self.options = options
        self.queue = queue
        directory = screens.surfaces
        names = screens.proxyNames
        renderSizeIgnored = options.renderSize != nil && !surface.canScale
        isDraft = options.draftFirstFrame && options.renderSize == nil && surface.canScale
        target = RenderTarget.fullscreen(on: output, proposed: nil)
        directory.register(surface.surface, outputID: output.id)
        // Compositors move windows when outputs come and go (sway moves a removed output's
        // workspace to another one): ask for this output again.
        let names = screens.proxyNames, own = lease.output
        surface.onEnter = { [unowned self] entered in
            guard entered != own else { return }
            surface.requestFullscreen()
            onMisplaced?(names[entered])
        }
        surface.onPlacementChange = { [unowned self] in onPlacementChange?() }
        screens.connection.flush()
    }

    deinit { close() }

    /// Where the compositor put the surface and what it draws there. It allocates: read
    /// it when it may have changed (a configure, an output entered or left), not every frame.
    public var placement: Placement {
        let scaling = target.scaling
        let points = scaling.destination ?? Size(width: scaling.bufferSize.width / max(1, scaling.bufferScale),
                                                 height: scaling.bufferSize.height / max(1, scaling.bufferScale))
        return Placement(enteredOutputs: surface.entered.map { names[$0] ?? "?" },
                         configuredSize: surface.configuredSize ?? .zero, bufferSize: scaling.bufferSize,
                         bufferScale: scaling.bufferScale, viewportDestination: scaling.destination,
                         coversOutput: points == output.logicalFrame.size,
                         preferredBufferScale: surface.preferredBufferScale,
                         preferredBufferTransform: surface.preferredBufferTransform.flatMap { OutputTransform(rawValue: Int32(bitPattern: $0)) })
    }

    /// The wl_surface, for frame callbacks and presentation feedback.
    var wlSurface: OpaquePointer { surface.surface }

    /// Whether the compositor asked to close the window (xdg_toplevel.close).
    public var closeRequested: Bool { surface.closeRequested }

    /// Whether the EGL surface exists (the first configure has been acknowledged).
    public var isConfigured: Bool { eglSurface != nil }

    /// Dispatches `queue` until the compositor's first configure, acknowledges it, plans
    /// the buffer and makes the wl_egl_window and the EGL surface. The first buffer may
    /// only be attached after that. Returns false, having made nothing, if `shouldStop`
    /// turns true first.
    public func configure(until shouldStop: () -> Bool = { false }) throws -> Bool {
        while !surface.hasPendingConfigure {
            if shouldStop() { return false }
            try queue.dispatch(timeout: nil)
            queue.connection.forwardMainQueueEvents()
        }
        target = plan(surface.acknowledgeConfigure())
        surface.apply(target.scaling)
        onPlacementChange?()
        guard let window = wl_egl_window_create(surface.surface, target.pixelSize.width, target.pixelSize.height) else {
            throw EGLError("wl_egl_window_create", code: EGL_BAD_NATIVE_WINDOW)
        }
        eglWindow = window
        let display = graphics.display, config = graphics.config
        guard let made = graphics.serialized({
            eglCreatePlatformWindowSurface(display, config, UnsafeMutableRawPointer(window), nil)
        }), made != EGLSurface(bitPattern: 0) else { throw EGLError("eglCreatePlatformWindowSurface") }
        eglSurface = made
        return true
    }

    /// Takes a new description of the output (if given) and any configure that came;
    /// resizes the buffer when the plan changes. Returns whether the target changed, so
    /// the next frame must be drawn whole.
    @discardableResult
    public func update(output newer: Output? = nil) -> Bool {
        if let newer { output = newer }
        var proposed = surface.configuredSize
        let acknowledged = surface.acknowledgeConfigure()
        if let acknowledged { proposed = acknowledged }
        let wanted = plan(proposed)
        guard wanted != target else { return acknowledged != nil }
        if wanted.pixelSize != target.pixelSize, let eglWindow {
            wl_egl_window_resize(eglWindow, wanted.pixelSize.width, wanted.pixelSize.height, 0, 0)
        }
        if wanted.scaling != target.scaling { surface.apply(wanted.scaling) }
        target = wanted
        onPlacementChange?()
        return true
    }

    /// Makes `context` current on the calling thread with this surface to draw into.
    public func makeCurrent(_ context: RenderContext) throws {
        guard let eglSurface else { throw EGLError("eglMakeCurrent (the surface is not configured)", code: EGL_BAD_SURFACE) }
        let display = graphics.display
        guard graphics.serialized({ eglMakeCurrent(display, eglSurface, eglSurface, context.context) }) == EGL_TRUE else {
            throw EGLError("eglMakeCurrent")
        }
    }

    /// eglSwapInterval for this surface, which must be current: 0 commits at once (a
    /// display link paces), 1 waits for this surface's frame callback in each swap.
    public func setSwapInterval(_ interval: Int32) {
        eglSwapInterval(graphics.display, interval)
    }

    /// Commits the frame drawn into this surface (eglSwapBuffers), which must be current.
    public func swapBuffers() throws {
        guard let eglSurface, eglSwapBuffers(graphics.display, eglSurface) == EGL_TRUE else {
            throw EGLError("eglSwapBuffers")
        }
    }

    /// Releases everything in reverse order of creation: the EGL surface (made not current
    /// first), the wl_egl_window, then viewport, xdg_toplevel, xdg_surface and wl_surface.
    /// Calling it again does nothing.
    public func close() {
        guard !closed else { return }
        closed = true
        if let eglSurface {
            let display = graphics.display
            graphics.serialized {
                if eglGetCurrentSurface(EGLint(EGL_DRAW)) == eglSurface {
                    eglMakeCurrent(display, nil, nil, eglGetCurrentContext())
                }
                eglDestroySurface(display, eglSurface)
            }
        }
        eglSurface = nil
        if let eglWindow { wl_egl_window_destroy(eglWindow) }
        eglWindow = nil
        directory.unregister(surface.surface)
        surface.destroy()
        if ownsLease { lease.end() }
    }

    /// After the draft first frame has been committed: plans the whole buffer for the
    /// next frame (the EGL window's size now, the viewport with the next commit).
    public func finishDraft() {
        isDraft = false
        update()
    }

    private func plan(_ proposed: Size?) -> RenderTarget {
        let whole = RenderTarget.fullscreen(on: output, proposed: proposed, bufferScale: surface.preferredBufferScale,
                                            fractionalScale: surface.preferredScale, renderSize: renderSizeIgnored ? nil : options.renderSize, scaleMode: options.scaleMode)
        guard isDraft else { return whole }
        return RenderTarget.fullscreen(on: output, proposed: proposed, bufferScale: surface.preferredBufferScale,
                                       fractionalScale: surface.preferredScale, renderSize: RenderTarget.draftSize(of: whole.pixelSize), scaleMode: .stretch)
    }
}

/// Where the compositor put a window and what the window draws there: the facts that say
/// it covers its output, where no screenshot can.
public struct Placement: Sendable, Equatable {
    /// The outputs the surface is on (wl_surface.enter, not yet left), by name.
    public var enteredOutputs: [String]
    /// The logical size the last acknowledged configure asked for (zero: the compositor
    /// left it to the window).
    public var configuredSize: Size
    /// The buffer the window draws and commits, its wl_surface buffer scale, and the size
    /// a viewport scales it to (nil: none).
    public var bufferSize: Size
    public var bufferScale: Int32
    public var viewportDestination: Size?
    /// Whether that buffer, in points, is exactly the output's logical size.
    public var coversOutput: Bool
    /// What the compositor said the buffer should be (wl_surface v6 preferred_buffer_scale
    /// and preferred_buffer_transform; nil where it has not said, or binds an older
    /// wl_compositor). The buffer follows the scale where no fractional scale is offered;
    /// the picture is drawn upright and the compositor turns it, whatever the transform.
    public var preferredBufferScale: Int32?
    public var preferredBufferTransform: OutputTransform?

    public init(enteredOutputs: [String] = [], configuredSize: Size = .zero, bufferSize: Size = .zero,
                bufferScale: Int32 = 1, viewportDestination: Size? = nil, coversOutput: Bool = false,
                preferredBufferScale: Int32? = nil, preferredBufferTransform: OutputTransform? = nil) {
        self.enteredOutputs = enteredOutputs
        self.configuredSize = configuredSize
        self.bufferSize = bufferSize
        self.bufferScale = bufferScale
        self.viewportDestination = viewportDestination
        self.coversOutput = coversOutput
        self.preferredBufferScale = preferredBufferScale
        self.preferredBufferTransform = preferredBufferTransform
    }
}
