import CGLES
import CWayland

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
        /// How many recent frames ``frameLog`` keeps (nil: every frame, for benchmarks).
        public var frameLogCapacity: Int?
        /// Ask for wp_presentation_feedback on every commit, where the compositor offers it.
        public var presentationFeedback: Bool
        /// The most feedback requests left unanswered at once (the oldest is dropped).
        public var outstandingFeedbackLimit: Int
        /// Draw at this size in pixels instead of the output's, and let the compositor
        /// scale it (wp_viewporter) as `scaleMode` says. Without wp_viewporter, the
        /// window draws at the output's size and ``Statistics/renderSizeIgnored`` is set.
        public var renderSize: (width: Int32, height: Int32)?
        public var scaleMode: ScaleMode

        public init(appID: String = "glout", title: String = "glout", frameLogCapacity: Int? = 4096,
                    presentationFeedback: Bool = true, outstandingFeedbackLimit: Int = 8,
                    renderSize: (width: Int32, height: Int32)? = nil, scaleMode: ScaleMode = .fit) {
            self.appID = appID
            self.title = title
            self.frameLogCapacity = frameLogCapacity
            self.presentationFeedback = presentationFeedback
            self.outstandingFeedbackLimit = max(1, outstandingFeedbackLimit)
            self.renderSize = renderSize
            self.scaleMode = scaleMode
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
        /// Times the link gave up waiting for a callback (the surface was not shown), and
        /// whether it is waiting now.
        public var suspensions: UInt64 = 0
        public var isSuspended = false
        /// Surfaces this window has had (more than one after ``recreateSurface()``).
        public var surfaces: UInt64 = 0
        /// A render size was asked for but the compositor cannot scale buffers.
        public var renderSizeIgnored = false
        /// Presentation feedback: frames presented, discarded, requests dropped unanswered,
        /// requests outstanding now and at most.
        public var presented: UInt64 = 0
        public var discarded: UInt64 = 0
        public var feedbackDropped: UInt64 = 0
        public var feedbackOutstanding = 0
        public var feedbackMostOutstanding = 0
        /// Render-thread CPU time over all frames, nanoseconds.
        public var cpuNanoseconds: UInt64 = 0
        /// The refresh period the link uses (see ``DisplayLinkFrame/duration``).
        public var refreshPeriod: UInt64 = 0

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
        var settings = DisplayLinkSettings()
        var stop = false
        var failure: (any Error)?
        var closeRequested = false
        var recreate = false
        var statistics = Statistics()
        var frameLog: FrameLog
    }

    private let shared: Locked<Shared>
    private let connection: Connection
    private let graphics: Graphics
    private let queue: EventQueue
    private let options: Options
    private let log: Log
    private let names: ProxyNames
    private let surfaces: SurfaceDirectory
    // Proxies owned by the main thread, used read-only here as factories and arguments.
    private let lease: OutputLease
    private var wlOutput: OpaquePointer { lease.output }
    private let compositor: OpaquePointer
    private let wmBase: OpaquePointer
    private let presentation: OpaquePointer?
    private let presentationClock: UInt32
    private let viewporter: OpaquePointer?
    private let fractionalScaleManager: OpaquePointer?
    private var thread: RenderThread?

    /// Opens the window and starts its render thread. `makeRenderer` runs on that thread
    /// with the window's context current, once the first configure has arrived.
    public init(output: Output, screens: Screens, graphics: Graphics, options: Options = Options(),
                makeRenderer: @escaping @Sendable (RenderTarget) throws -> any OutputRenderer) throws {
        try screens.requireWindowing()
        guard let lease = screens.lease(output.id) else {
            throw WaylandError.missingGlobal(interface: "wl_output \(output.name)", required: 2, offered: nil)
        }
        outputID = output.id
        shared = Locked(Shared(output: output, frameLog: FrameLog(capacity: options.frameLogCapacity)))
        connection = screens.connection
        self.graphics = graphics
        queue = EventQueue(connection: screens.connection)
        self.options = options
        log = screens.connection.log
        names = screens.proxyNames
        surfaces = screens.surfaces
        self.lease = lease
        compositor = screens.registry.compositor!
        wmBase = screens.registry.wmBase!
        presentation = options.presentationFeedback ? screens.registry.presentation : nil
        viewporter = screens.registry.viewporter
        fractionalScaleManager = screens.registry.fractionalScaleManager
        presentationClock = screens.registry.presentationClock
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

    /// A copy of the window's recent frames.
    public var frameLog: FrameLog { shared.withLock { $0.frameLog } }

    /// Reads the recent frames in place, without copying them.
    public func withFrameLog<T>(_ body: (FrameLog) -> T) -> T { shared.withLock { body($0.frameLog) } }

    /// How the display link paces this output; a change applies at the next frame.
    public var displayLinkSettings: DisplayLinkSettings {
        get { shared.withLock { $0.settings } }
        set {
            shared.withLock { $0.settings = newValue }
            queue.wake()
        }
    }

    /// Replaces the window's surface with a new one on the same output, keeping the
    /// context, the renderer and the display link. A compositor places a new fullscreen
    /// surface where the output shows it; use this when it has hidden the old one (sway
    /// shows another workspace on an output after a neighbour left).
    public func recreateSurface() {
        shared.withLock { $0.recreate = true }
        queue.wake()
    }

    /// Stops the display link and the render thread, then releases everything in reverse
    /// order of creation: renderer, EGL surface and context, wl_egl_window, xdg_toplevel,
    /// xdg_surface, wl_surface. When it returns, no callback of this window will run.
    public func close() {
        shared.withLock { $0.stop = true }
        queue.wake()
        thread?.join()
        thread = nil
        // No thread of this window touches the wl_output any more.
        lease.end()
    }

    private var stopRequested: Bool { shared.withLock { $0.stop } }

    // MARK: - The render thread

    private func run(makeRenderer: (RenderTarget) throws -> any OutputRenderer) {
        // This thread reads the socket for as long as it runs; the main thread relies on it.
        connection.readerStarted()
        do {
            try renderLoop(makeRenderer: makeRenderer)
        } catch {
            shared.withLock { $0.failure = error }
        }
        connection.readerStopped()
        eglReleaseThread()
    }

    private func renderLoop(makeRenderer: (RenderTarget) throws -> any OutputRenderer) throws {
        let display = graphics.display
        let context = try graphics.takeContext()
        // The renderer outlives the surfaces (its GL objects belong to the context); it is
        // released with the context current and no surface, then the context goes back.
        var renderer: (any OutputRenderer)?
        defer {
            graphics.serialized {
                _ = eglMakeCurrent(display, nil, nil, context)
                renderer = nil
                graphics.returnContext(context)
            }
        }
        let link = DisplayLink(output: output)
        defer { link.cancel() }
        let feedback = presentation.map {
            PresentationFeedback(queue: queue, presentation: $0, clockID: presentationClock,
                                 limit: options.outstandingFeedbackLimit)
        }
        defer { feedback?.release(queue: queue) }
        feedback?.onResult = { [unowned self] frame, result in record(result, of: frame, link: link) }
        while !stopRequested {
            try runSurface(context: context, link: link, feedback: feedback, renderer: &renderer,
                           makeRenderer: makeRenderer)
        }
    }

    /// One fullscreen surface, from creation to teardown: returns when the window stops
    /// or the owner asked for a new surface (``recreateSurface()``).
    private func runSurface(context: EGLContext, link: DisplayLink, feedback: PresentationFeedback?,
                            renderer: inout (any OutputRenderer)?,
                            makeRenderer: (RenderTarget) throws -> any OutputRenderer) throws {
        let display = graphics.display
        var output = self.output
        shared.withLock { state in
            state.recreate = false
            state.statistics.surfaces += 1
        }
        let surface = OutputSurface(queue: queue, compositor: compositor, wmBase: wmBase, output: wlOutput,
                                    appID: options.appID, title: "\(options.title) — \(output.name)",
                                    viewporter: viewporter, fractionalScaleManager: fractionalScaleManager)
        defer { surface.destroy() }
        surfaces.register(surface.surface, outputID: outputID)
        defer { surfaces.unregister(surface.surface) }
        // Without wp_viewporter the compositor cannot scale a render size: draw the output's.
        let renderSize = surface.canScale ? options.renderSize : nil
        if options.renderSize != nil && renderSize == nil {
            shared.withLock { $0.statistics.renderSizeIgnored = true }
        }
        func plan(_ proposed: (width: Int32, height: Int32)?) -> RenderTarget {
            RenderTarget.fullscreen(on: output, proposed: proposed, fractionalScale: surface.preferredScale,
                                    renderSize: renderSize, scaleMode: options.scaleMode)
        }
        // Compositors move windows when outputs come and go (sway moves a removed
        // output's workspace to another one): ask for this output again, and warn when
        // the compositor keeps the surface elsewhere.
        var misplaced = 0
        surface.onEnter = { [unowned self, unowned surface] entered in
            guard entered != wlOutput else { return }
            misplaced += 1
            let other = names[entered] ?? "another output"
            if misplaced == 3 {
                log.warning("the compositor keeps putting the surface for \(output.name) on \(other)")
            } else {
                log.debug("the compositor put the surface for \(output.name) on \(other); asking for \(output.name) again")
            }
            surface.requestFullscreen()
        }
        connection.flush()

        // The first buffer may only be attached after the first configure is acknowledged.
        while !surface.hasPendingConfigure {
            if stopRequested { return }
            try queue.dispatch(timeout: nil)
            connection.forwardMainQueueEvents()
        }
        var target = plan(surface.acknowledgeConfigure())
        surface.apply(target.scaling)
        guard let eglWindow = wl_egl_window_create(surface.surface, target.pixelWidth, target.pixelHeight) else {
            throw EGLError("wl_egl_window_create", code: EGL_BAD_NATIVE_WINDOW)
        }
        defer { wl_egl_window_destroy(eglWindow) }
        guard let eglSurface = graphics.serialized({
            eglCreatePlatformWindowSurface(display, graphics.config, UnsafeMutableRawPointer(eglWindow), nil)
        }), eglSurface != EGLSurface(bitPattern: 0)
        else { throw EGLError("eglCreatePlatformWindowSurface") }
        defer { graphics.serialized { _ = eglDestroySurface(display, eglSurface) } }
        guard graphics.serialized({ eglMakeCurrent(display, eglSurface, eglSurface, context) }) == EGL_TRUE else {
            throw EGLError("eglMakeCurrent")
        }
        defer { graphics.serialized { _ = eglMakeCurrent(display, nil, nil, context) } }
        // Interval 0: eglSwapBuffers must not wait for this surface's frame callback;
        // the display link does the pacing, per output.
        eglSwapInterval(display, 0)
        // Callbacks and feedback of this surface must not outlive it.
        defer {
            link.cancel()
            feedback?.cancelAll()
        }
        link.requestRedraw()
        link.onResume = { [unowned self] in log.info("output \(output.name): frame callbacks resumed") }
        if renderer == nil { renderer = try graphics.serialized { try makeRenderer(target) } }
        var wasSuspended = link.timing.isSuspended

        while !stopRequested {
            // A new description of the output, or a new configure, may change the buffer.
            let (latest, settings, recreate) = shared.withLock { ($0.output, $0.settings, $0.recreate) }
            if recreate { return }
            if latest != output {
                output = latest
                link.update(output: output)
            }
            link.apply(settings)
            var proposed = surface.configuredSize
            if let acknowledged = surface.acknowledgeConfigure() {
                proposed = acknowledged
                link.requestRedraw()
            }
            let wanted = plan(proposed)
            if wanted != target {
                if wanted.pixelWidth != target.pixelWidth || wanted.pixelHeight != target.pixelHeight {
                    wl_egl_window_resize(eglWindow, wanted.pixelWidth, wanted.pixelHeight, 0, 0)
                }
                if wanted.scaling != target.scaling { surface.apply(wanted.scaling) }
                target = wanted
                link.requestRedraw()
            }
            if surface.closeRequested {
                shared.withLock { $0.closeRequested = true }
                connection.wakeMainQueue()
            }

            let now = MonotonicClock.now()
            let action = link.next(now: now)
            // Deciding may have suspended the link; a callback may have resumed it.
            if link.timing.isSuspended != wasSuspended {
                wasSuspended = link.timing.isSuspended
                if wasSuspended {
                    log.info("output \(output.name): no frame callback for \(link.timing.stallTimeout / 1_000_000) ms; its display link waits")
                }
                shared.withLock { $0.statistics.isSuspended = wasSuspended }
                // The owner may want to act on it (see recreateSurface()).
                connection.wakeMainQueue()
            }
            switch action {
            case .draw:
                let callback = link.timing.pendingCallback
                let cpuBefore = MonotonicClock.threadCPU()
                let frame = link.startFrame(surface: surface.surface, now: now)
                feedback?.request(surface: surface.surface, frame: frame.index)
                renderer?.prepare(frame, in: target)
                try graphics.serialized {
                    try renderer?.render(frame, in: target)
                    guard eglSwapBuffers(display, eglSurface) == EGL_TRUE else { throw EGLError("eglSwapBuffers") }
                }
                let commit = MonotonicClock.now()
                let sample = FrameSample(index: frame.index, callbackArrival: callback?.arrival,
                                         callbackTime: callback?.time, renderStart: now, commit: commit,
                                         cpuNanoseconds: MonotonicClock.threadCPU() - cpuBefore)
                record(sample, link: link, feedback: feedback)
            case .wait(let until):
                let timeout = until.map { Double($0 > now ? $0 - now : 0) / 1e9 }
                try queue.dispatch(timeout: timeout)
                shared.withLock { state in
                    state.statistics.callbacks = link.timing.callbacks
                    state.statistics.suspensions = link.timing.suspensions
                }
            }
            // Events for the main queue may have been read here, by this queue's dispatch
            // or by Mesa inside eglSwapBuffers: the main thread must not wait for them
            // until this output's next frame, or forever if its link is paused.
            connection.forwardMainQueueEvents()
        }
    }

    /// Counts a committed frame.
    private func record(_ sample: FrameSample, link: DisplayLink, feedback: PresentationFeedback?) {
        shared.withLock { state in
            state.frameLog.append(sample)
            state.statistics.frames += 1
            if state.statistics.firstCommit == nil { state.statistics.firstCommit = sample.commit }
            state.statistics.lastCommit = sample.commit
            state.statistics.cpuNanoseconds += sample.cpuNanoseconds
            state.statistics.callbacks = link.timing.callbacks
            state.statistics.refreshPeriod = link.timing.duration
            if let feedback {
                state.statistics.feedbackDropped = feedback.dropped
                state.statistics.feedbackOutstanding = feedback.outstandingCount
                state.statistics.feedbackMostOutstanding = feedback.mostOutstanding
            }
        }
        // The owner learns of the first frame at once (it may be timing the connection).
        if sample.index == 0 { connection.wakeMainQueue() }
    }

    /// Records what presentation feedback said about a frame.
    private func record(_ result: PresentationResult, of frame: UInt64, link: DisplayLink) {
        if case .presented(_, let refresh, _, _) = result { link.presented(refresh: refresh) }
        shared.withLock { state in
            switch result {
            case let .presented(time, refresh, sequence, flags):
                state.statistics.presented += 1
                state.frameLog.update(frame: frame) { sample in
                    sample.presented = time
                    sample.presentedRefresh = refresh
                    sample.presentedSequence = sequence
                    sample.presentationFlags = flags
                }
            case .discarded:
                state.statistics.discarded += 1
                state.frameLog.update(frame: frame) { $0.discarded = true }
            }
        }
    }
}
