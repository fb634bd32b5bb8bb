import CGLES
import CWayland

/// What a window draws into, and how its frames reach the compositor: an
/// ``OutputSurface`` (the shell's objects), and either the wl_egl_window and its EGLSurface
/// or, where the GPU is the CPU, a framebuffer object whose frames go into wl_shm buffers
/// of its own (``Options/FramePath``), with the buffer planned for the output (scale,
/// fractional scale, render size, viewport, the driver's limits). Set-up and teardown live
/// here only. An ``OutputWindow`` (the window: a thread and a display link) runs one;
/// a loop of your own can drive several from one thread.
///
/// Make it on the thread that dispatches the connection; then use it on one thread only,
/// the one that dispatches `queue`, where its events arrive.
package final class FullscreenSurface: ProxyOwner {
    /// What the window is called and what it draws at.
    package struct Options: Sendable {
        /// xdg_toplevel.set_app_id.
        package var appID: String
        /// xdg_toplevel.set_title; the output's name is appended.
        package var title: String
        /// Draw at this size in pixels instead of the output's, and let the compositor
        /// scale it (wp_viewporter) as `scaleMode` says. Without wp_viewporter the surface
        /// draws at the output's size and ``renderSizeIgnored`` is set.
        package var renderSize: Size?
        package var scaleMode: ScaleMode
        /// Draw the first frame at half the width and height and let the compositor scale
        /// it up (wp_viewporter); every later frame is drawn whole. Where the GPU is the
        /// CPU (``Graphics/rasterizesOnCPU``), a frame costs in proportion to its pixels:
        /// a quarter of them reach the screen sooner, and the sharp frame follows. Ignored
        /// with a ``renderSize`` or without wp_viewporter. A loop of your own calls
        /// ``FullscreenSurface/finishDraft()`` once it has committed the draft (an
        /// ``OutputWindow`` does). Default: false.
        package var draftFirstFrame: Bool
        /// How frames reach the compositor. Default: ``FramePath/automatic``.
        package var framePath: FramePath

        /// How a window's frames reach the compositor.
        package enum FramePath: Sendable, Equatable {
            /// ``sharedMemory`` where the driver shades on the CPU
            /// (``Graphics/rasterizesOnCPU``) and can read frames as the compositor wants
            /// them (``Graphics/supportsSharedMemoryFrames``), else ``eglWindow``.
            case automatic
            /// A wl_egl_window and its EGL window surface: eglSwapBuffers commits, Mesa
            /// keeps the buffers. A compositor that never releases them hangs or crashes
            /// Mesa in eglSwapBuffers.
            case eglWindow
            /// A framebuffer object the renderer draws into, read into wl_shm buffers the
            /// window makes, attaches and commits itself: the same
            /// one copy Mesa's software path makes, and a frame with no free buffer waits
            /// instead of crashing. Needs wl_shm and ``Graphics/supportsSharedMemoryFrames``
            /// (else ``eglWindow``).
            case sharedMemory

            /// Whether frames go through wl_shm buffers with `graphics` (where the
            /// compositor offers wl_shm): drawn into a framebuffer object that stores B, G,
            /// R, A where the driver can (``RenderTarget/storesBGRA``).
            package func goesThroughSharedMemory(on graphics: Graphics) -> Bool {
                switch self {
                case .eglWindow: false
                case .sharedMemory: graphics.supportsSharedMemoryFrames
                case .automatic: graphics.rasterizesOnCPU && graphics.supportsSharedMemoryFrames
                }
            }
        }

        package init(appID: String, title: String? = nil, renderSize: Size? = nil, scaleMode: ScaleMode = .fit,
                    draftFirstFrame: Bool = false, framePath: FramePath = .automatic) {
            self.appID = appID
            self.title = title ?? appID
            self.renderSize = renderSize
            self.scaleMode = scaleMode
            self.draftFirstFrame = draftFirstFrame
            self.framePath = framePath
        }
    }

    /// The queue this surface's events go to.
    package let queue: EventQueue
    /// The output as last described to the surface.
    package private(set) var output: Output
    /// The buffer the next frame draws into.
    package private(set) var target: RenderTarget
    /// A render size was asked for but the compositor cannot scale buffers.
    package let renderSizeIgnored: Bool
    /// Whether the next frame is the draft first frame (``Options/draftFirstFrame``);
    /// ``finishDraft()`` ends it.
    package private(set) var isDraft: Bool
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
    /// The window's own buffers, where frames go through wl_shm (``Options/FramePath``).
    private var frames: SharedMemoryFrames?
    /// The wl_shm global, where frames go through it.
    private let shm: OpaquePointer?
    private var closed = false
    private let log: Log
    private var complaints = CompositorComplaints()
    /// Whether the wait for the first configure was reported as long.
    private var configureWaitReported = false
    /// ``setSwapInterval(_:)`` where frames go through wl_shm, and the frame callback of the
    /// last commit that the next one waits for, as eglSwapInterval(1) does.
    private var swapInterval: Int32 = 0
    private var throttle: OpaquePointer?
    /// wp_fifo_v1 and wp_commit_timer_v1 of this surface, where the compositor offers them.
    private var commitTiming: CommitTiming?

    /// Asks for a fullscreen window on `output` (call it on the connection's main thread);
    /// ``configure(until:)`` then waits for the compositor's answer.
    package convenience init(output: Output, tracker: OutputTracker, graphics: Graphics, queue: EventQueue,
                            options: Options) throws {
        let windowing = try tracker.windowing()
        guard let lease = tracker.lease(output.id) else {
            throw WaylandError.missingGlobal(interface: "wl_output \(output.printableName)", required: 2, offered: nil)
        }
        self.init(output: output, lease: lease, ownsLease: true, windowing: windowing, graphics: graphics, queue: queue,
                  options: options)
    }

    /// A surface on the output `lease` holds, from any thread, with the globals of
    /// `windowing` (taken on the main thread); the caller keeps the lease.
    init(output: Output, lease: OutputLease, ownsLease: Bool = false, windowing: Windowing, graphics: Graphics,
         queue: EventQueue, options: Options) {
        surface = OutputSurface(queue: queue, compositor: windowing.compositor, wmBase: windowing.wmBase,
                                output: lease.output, appID: options.appID, title: "\(options.title) — \(output.printableName)",
                                viewporter: windowing.viewporter, fractionalScaleManager: windowing.fractionalScaleManager)
        shm = options.framePath.goesThroughSharedMemory(on: graphics) ? windowing.shm : nil
        log = windowing.connection.log
        self.output = output
        self.lease = lease
        self.ownsLease = ownsLease
        self.graphics = graphics
        self.options = options
        self.queue = queue
        directory = windowing.surfaces
        names = windowing.names
        renderSizeIgnored = options.renderSize != nil && !surface.canScale
        isDraft = options.draftFirstFrame && options.renderSize == nil && surface.canScale
        target = RenderTarget.fullscreen(on: output, proposed: nil)
        directory.register(surface.surface, outputID: output.id)
        // Compositors move windows when outputs come and go (sway moves a removed output's
        // workspace to another one): ask for this output again.
        let names = windowing.names, own = lease.output
        surface.onEnter = { [unowned self] entered in
            guard entered != own else {
                log.debug("output \(output.printableName): the window entered its output")
                return
            }
            surface.requestFullscreen()
            onMisplaced?(names[entered])
        }
        surface.onPlacementChange = { [unowned self] in onPlacementChange?() }
        let subject = "output \(output.printableName)"
        surface.onProblem = { [unowned self] problem in complaints.report(problem, about: subject, log: log) }
        if windowing.fifoManager != nil || windowing.commitTimingManager != nil {
            commitTiming = CommitTiming(queue: queue, surface: surface.surface, fifoManager: windowing.fifoManager,
                                        timingManager: windowing.commitTimingManager,
                                        clockID: windowing.presentation?.clock ?? 1)
        }
        windowing.connection.flush()
    }

    deinit { close() }

    /// Where the compositor put the surface and what it draws there. It allocates: read
    /// it when it may have changed (a configure, an output entered or left), not every frame.
    package var placement: Placement {
        let scaling = target.scaling
        let points = scaling.destination ?? Size(width: scaling.bufferSize.width / max(1, scaling.bufferScale),
                                                 height: scaling.bufferSize.height / max(1, scaling.bufferScale))
        return Placement(enteredOutputs: surface.entered.map { names[$0] ?? "?" },
                         configuredSize: surface.configuredSize ?? .zero, bufferSize: scaling.bufferSize,
                         bufferScale: scaling.bufferScale, viewportDestination: scaling.destination,
                         coversOutput: points == output.logicalFrame.size,
                         preferredBufferScale: surface.preferredBufferScale,
                         preferredBufferTransform: surface.preferredBufferTransform)
    }

    /// The wl_surface, for frame callbacks and presentation feedback.
    var wlSurface: OpaquePointer { surface.surface }

    /// Whether the compositor asked to close the window (xdg_toplevel.close).
    package var closeRequested: Bool { surface.closeRequested }

    /// Whether the surface can be drawn into (the first configure has been acknowledged).
    package var isConfigured: Bool { eglSurface != nil || frames != nil }
    /// Whether Mesa may read the socket in eglSwapBuffers (an EGL window surface).
    package var readsInSwap: Bool { eglSurface != nil }

    /// Whether frames go through the window's own wl_shm buffers (``Options/FramePath``).
    package var usesSharedMemory: Bool { shm != nil }

    /// How long ``configure(until:)`` waits for the first configure before it says so (and
    /// goes on waiting).
    package static let configureNotice: Duration = .seconds(3)

    /// Dispatches `queue` until the compositor's first configure, acknowledges it, plans
    /// the buffer and makes the wl_egl_window and the EGL surface. The first buffer may
    /// only be attached after that. Returns false, having made nothing, if `shouldStop`
    /// turns true first.
    package func configure(until shouldStop: () -> Bool = { false }) throws -> Bool {
        let started = MonotonicClock.now()
        while !surface.hasPendingConfigure {
            if shouldStop() { return false }
            try queue.dispatch(timeout: .milliseconds(250))
            let waited = MonotonicClock.now() - started
            if !configureWaitReported && waited >= UInt64(FullscreenSurface.configureNotice.inNanoseconds) {
                configureWaitReported = true
                log.warning("output \(output.printableName): the compositor has sent its window no xdg_toplevel.configure "
                            + "in \(waited / 1_000_000_000) s; the window waits for one (the other outputs go on)")
            }
        }
        if configureWaitReported { log.info("output \(output.printableName): the window's first configure came") }
        target = plan(surface.acknowledgeConfigure())
        surface.apply(target.scaling)
        onPlacementChange?()
        if let shm {
            frames = SharedMemoryFrames(shm: shm, queue: queue)
            return true
        }
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
    package func update(output newer: Output? = nil) -> Bool {
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

    /// Makes `context` current on the calling thread with this surface to draw into (where
    /// frames go through wl_shm, with no EGL surface, and the window's framebuffer object
    /// made in it: ``target``'s framebuffer).
    package func makeCurrent(_ context: RenderContext) throws {
        if let frames {
            try context.makeCurrentWithoutSurface()
            try graphics.serialized { _ = try frames.prepare(size: target.pixelSize) }
            target.framebuffer = frames.framebuffer
            return
        }
        guard let eglSurface else { throw EGLError("eglMakeCurrent (the surface is not configured)", code: EGL_BAD_SURFACE) }
        let display = graphics.display
        guard graphics.serialized({ eglMakeCurrent(display, eglSurface, eglSurface, context.context) }) == EGL_TRUE else {
            throw EGLError("eglMakeCurrent")
        }
    }

    /// Binds the framebuffer the next frame is drawn into, at the target's size (the
    /// window's framebuffer object is resized to it). Call it, with the context current,
    /// before the renderer draws.
    package func beginFrame() throws {
        if let frames {
            target.framebuffer = try frames.prepare(size: target.pixelSize)
            target.holdsPreviousFrame = frames.holdsFrame
            target.storesBGRA = frames.storesBGRA
        } else {
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), 0)
        }
    }

    /// The draft first frame, where frames go through wl_shm buffers, written by `draw`
    /// straight into a buffer of the target's size (see
    /// ``OutputRenderer/drawDraft(_:into:in:)``) and committed with no GL call. Returns
    /// nil where this surface shows no draft, has no wl_shm buffers or `draw` wrote
    /// nothing (then draw it as any frame); false when no buffer is free; true once
    /// committed. Call ``prepareCommit(target:period:fifo:ahead:)`` first, as for
    /// ``swapBuffers(changed:)``.
    package func commitDraft(drawnBy draw: (UnsafeMutableBufferPointer<UInt32>) -> Bool) throws -> Bool? {
        guard isDraft, let frames else { return nil }
        let committed = try frames.commit(on: surface.surface, size: target.pixelSize, drawnBy: draw)
        if committed == true { commitTiming?.committed() }
        return committed
    }

    /// Whether the compositor offers wp_fifo_v1 and wp_commit_timing_v1 for this surface.
    package var hasFifo: Bool { commitTiming?.hasFifo ?? false }
    package var hasCommitTimer: Bool { commitTiming?.hasTimer ?? false }
    /// Commits that carried a timestamp (wp_commit_timer_v1.set_timestamp) so far.
    package var timestampedCommits: UInt64 { commitTiming?.timestamps ?? 0 }
    /// Whether the last commit carried a timestamp later than the moment it was sent.
    package var lastCommitTimestampedAhead: Bool { commitTiming?.lastCommitAhead ?? false }

    /// For the next commit, where the compositor offers them: the time of the refresh it
    /// targets (wp_commit_timer_v1.set_timestamp, just after the refresh before it, of
    /// refresh `period`; nil: none) and, with `fifo`, a fifo barrier to wait for and one to set (wp_fifo_v1), so each frame
    /// is shown for at least one refresh. Without `ahead`, a timestamp that would be later
    /// than now is left out. Call it before ``swapBuffers(changed:)``.
    package func prepareCommit(target: MonotonicInstant?, period: Duration, fifo: Bool, ahead: Bool = true) {
        commitTiming?.prepare(target: target, period: UInt64(max(0, period.inNanoseconds)), barrier: fifo, ahead: ahead)
    }

    /// Whether ``swapBuffers(changed:)`` can commit now: always with an EGL window surface; with
    /// wl_shm buffers, when one is free (the compositor released it) or may be made.
    package var canCommit: Bool { frames?.hasFreeBuffer(size: target.pixelSize) ?? true }

    /// eglSwapInterval for this surface, which must be current: 0 commits at once (a
    /// display link paces), 1 waits for this surface's frame callback in each swap. Where
    /// frames go through wl_shm, the surface does the same itself (waiting at most
    /// ``throttleLimit`` for a callback).
    package func setSwapInterval(_ interval: Int32) {
        if frames != nil { swapInterval = max(0, interval) } else { eglSwapInterval(graphics.display, interval) }
    }

    /// The longest a swap at interval 1 waits for the previous frame's callback, or for the
    /// compositor to release a buffer, before it goes on (or gives the frame up).
    package static let throttleLimit: Duration = .seconds(1)

    /// Commits the frame drawn into this surface, which must be current: eglSwapBuffers,
    /// or the framebuffer object read into a free wl_shm buffer and committed, only the
    /// regions `changed` (what the frame changed, buffer pixels, origin at the top left;
    /// nil: everything; see ``OutputRenderer/changedRegions(in:)``) copied and damaged.
    /// Returns false, having committed nothing, when no wl_shm buffer is free (see
    /// ``canCommit``).
    @discardableResult
    package func swapBuffers(changed: [Rect]? = nil) throws -> Bool {
        let committed = try commitFrame(changed: changed)
        if committed { commitTiming?.committed() }
        return committed
    }

    private func commitFrame(changed: [Rect]?) throws -> Bool {
        if let frames {
            guard swapInterval > 0 else { return try frames.commit(on: surface.surface, size: target.pixelSize, changed: changed) }
            // As eglSwapInterval(1): the previous frame's callback first, then a free buffer.
            let deadline = MonotonicClock.now() + UInt64(FullscreenSurface.throttleLimit.inNanoseconds)
            while throttle != nil && MonotonicClock.now() < deadline { try queue.dispatch(timeout: .milliseconds(20)) }
            if let throttle { wl_callback_destroy(throttle) }
            throttle = nil
            while !canCommit && MonotonicClock.now() < deadline { try queue.dispatch(timeout: .milliseconds(20)) }
            guard canCommit else { return false }
            throttle = wl_surface_frame(surface.surface)
            wl_callback_add_listener(throttle, FullscreenSurface.throttleListener.pointer, userData)
            return try frames.commit(on: surface.surface, size: target.pixelSize, changed: changed)
        }
        guard let eglSurface, eglSwapBuffers(graphics.display, eglSurface) == EGL_TRUE else {
            throw EGLError("eglSwapBuffers")
        }
        return true
    }

    /// Releases everything in reverse order of creation: the window's buffers and
    /// framebuffer object, or the EGL surface (made not current first) and the
    /// wl_egl_window, then viewport, xdg_toplevel, xdg_surface and wl_surface. Call it on the
    /// thread that draws, with its context current, so the framebuffer object goes too.
    /// Calling it again does nothing.
    package func close() {
        guard !closed else { return }
        closed = true
        if let throttle { wl_callback_destroy(throttle) }
        throttle = nil
        commitTiming?.destroy()
        commitTiming = nil
        if let frames { graphics.serialized { frames.release() } }
        frames = nil
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
    package func finishDraft() {
        isDraft = false
        update()
    }

    private static let throttleListener = ListenerTable(wl_callback_listener()) {
        $0.done = { data, callback, _ in
            let surface = owner(data, as: FullscreenSurface.self)
            wl_callback_destroy(callback)
            if surface.throttle == callback { surface.throttle = nil }
        }
    }

    private func plan(_ proposed: Size?) -> RenderTarget {
        var whole = RenderTarget.fullscreen(on: output, proposed: proposed, bufferScale: surface.preferredBufferScale,
                                            fractionalScale: surface.preferredScale,
                                            renderSize: renderSizeIgnored ? nil : options.renderSize, scaleMode: options.scaleMode)
        // More than the driver can draw: the largest size that fits, scaled by the compositor.
        let (limited, fitted) = whole.fitted(maximumSide: graphics.maximumBufferSide, canScale: surface.canScale)
        if let fitted {
            complaints.report(kind: "buffer limit", "output \(output.printableName): a buffer of \(whole.pixelSize) is more than "
                              + "the driver draws (\(graphics.maximumBufferSide) pixels a side, \(BufferLimits.maximumPixels) in all); "
                              + "drawing at \(fitted)" + (surface.canScale ? " and letting the compositor scale it" : ""), log: log)
            whole = limited
        }
        whole.framebuffer = frames?.framebuffer ?? 0
        guard isDraft else { return whole }
        var draft = RenderTarget.fullscreen(on: output, proposed: proposed, bufferScale: surface.preferredBufferScale,
                                            fractionalScale: surface.preferredScale,
                                            renderSize: RenderTarget.draftSize(of: whole.pixelSize), scaleMode: .stretch)
        draft.framebuffer = whole.framebuffer
        return draft
    }
}

/// Where the compositor put a window and what the window draws there: the facts that say
/// it covers its output, where no screenshot can.
package struct Placement: Sendable, Equatable {
    /// The outputs the surface is on (wl_surface.enter, not yet left), by name.
    package var enteredOutputs: [String]
    /// The logical size the last acknowledged configure asked for (zero: the compositor
    /// left it to the window).
    package var configuredSize: Size
    /// The buffer the window draws and commits, its wl_surface buffer scale, and the size
    /// a viewport scales it to (nil: none).
    package var bufferSize: Size
    package var bufferScale: Int32
    package var viewportDestination: Size?
    /// Whether that buffer, in points, is exactly the output's logical size.
    package var coversOutput: Bool
    /// What the compositor said the buffer should be (wl_surface v6 preferred_buffer_scale
    /// and preferred_buffer_transform; nil where it has not said, or binds an older
    /// wl_compositor). The buffer follows the scale where no fractional scale is offered;
    /// the picture is drawn upright and the compositor turns it, whatever the transform.
    package var preferredBufferScale: Int32?
    package var preferredBufferTransform: OutputTransform?

    package init(enteredOutputs: [String] = [], configuredSize: Size = .zero, bufferSize: Size = .zero,
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
