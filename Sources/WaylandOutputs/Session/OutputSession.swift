import CGLES

/// The external-display model of phone platforms, on Wayland: the outputs in order with a
/// primary, connect / change / disconnect events, and a fullscreen window per
/// output, opened when the output appears, resized when it changes and closed when it
/// leaves, each paced by its own display link.
///
/// ```swift
/// let session = try OutputSession(.init(appID: "org.example.Solid", handlesSignals: true))
/// try session.start { _ in Solid() }     // a window on every output
/// try session.run()                      // until stop(), SIGINT or SIGTERM
/// ```
///
/// Use it on the thread that created it (its methods check); renderers run on their
/// windows' threads.
///
/// ## The order of events
///
/// - An output connects: ``SessionEvent/connected(_:)`` first, its window already open
///   if the session covers the output (or ``SessionEvent/windowFailed(_:error:)`` right
///   after, when it could not be opened), then ``SessionEvent/primaryChanged(_:)`` if the
///   primary is now another output, and later ``SessionEvent/firstFrame(_:after:)``.
/// - An output leaves: its window is closed first; then
///   ``SessionEvent/primaryChanged(_:)`` to its successor if it was the primary, then
///   ``SessionEvent/disconnected(_:window:)`` with the window's last counters; its
///   wl_output proxy is released after that (or when the last window holding it closes).
/// - An output changes: ``SessionEvent/changed(_:previous:)``, after its window was told,
///   then ``SessionEvent/primaryChanged(_:)`` if the order moved the primary.
///
/// The session makes no process-wide change: it touches neither signal dispositions nor
/// the allocator. With ``Configuration/handlesSignals`` it blocks SIGINT and SIGTERM on
/// the calling thread (and so on every thread it starts) and reads them from a signalfd.
public final class OutputSession {
    /// What the session connects to and covers.
    public struct Configuration: Sendable {
        /// The Wayland display to connect to; nil: $WAYLAND_DISPLAY, else wayland-0.
        public var display: String?
        /// The windows' xdg_toplevel app ID and title.
        public var appID: String
        public var title: String
        /// The outputs that get windows, by name; nil: every output.
        public var outputs: [String]?
        /// The output to make primary whenever it is connected; nil: the first in order.
        public var preferredPrimary: String?
        /// Whether to bind the seats and report input (it compiles a keymap).
        public var input: Bool
        /// Whether GL calls go one thread at a time (nil: as the driver needs: Mesa before
        /// 23.1.6 is not safe with several contexts drawing at once).
        public var serializeGL: Bool?
        /// Whether EGL starts on a thread of its own as soon as the session connects,
        /// while it learns the outputs, so that the first windows open sooner
        /// (eglInitialize takes tens of milliseconds on llvmpipe). Mesa talks to the
        /// compositor on a queue of its own.
        public var prepareGraphics: Bool
        /// Whether SIGINT and SIGTERM end ``run(for:exitWhenNoOutputs:)`` (delivered
        /// through a signalfd, blocked for every thread the session starts). Off unless
        /// asked for: signals are the application's to handle.
        public var handlesSignals: Bool
        /// Where the library's messages go.
        public var log: Log

        public init(appID: String, title: String? = nil, display: String? = nil, outputs: [String]? = nil,
                    preferredPrimary: String? = nil, input: Bool = true, serializeGL: Bool? = nil,
                    prepareGraphics: Bool = false, handlesSignals: Bool = false, log: Log = .standardError(prefix: "")) {
            self.appID = appID
            self.title = title ?? appID
            self.display = display
            self.outputs = outputs
            self.preferredPrimary = preferredPrimary
            self.input = input
            self.serializeGL = serializeGL
            self.prepareGraphics = prepareGraphics
            self.handlesSignals = handlesSignals
            self.log = log
        }
    }

    /// How the window on one output is made: the size it draws at, its display link's
    /// settings (its frame interval or preferred rate) and its renderer.
    public struct WindowRequest: Sendable {
        package var options: OutputWindow.Options?
        /// The pixels to draw, if not the output's own: the compositor scales them to the
        /// output (wp_viewporter) as `scaleMode` says.
        public var renderSize: Size?
        public var scaleMode: ScaleMode
        public var displayLink: DisplayLinkSettings
        /// Runs on the window's thread, with its context current, once the first configure came.
        public var makeRenderer: @Sendable (RenderTarget) throws -> any OutputRenderer

        public init(renderSize: Size? = nil, scaleMode: ScaleMode = .fit, displayLink: DisplayLinkSettings = DisplayLinkSettings(),
                    makeRenderer: @escaping @Sendable (RenderTarget) throws -> any OutputRenderer) {
            (self.renderSize, self.scaleMode) = (renderSize, scaleMode)
            self.displayLink = displayLink
            self.makeRenderer = makeRenderer
        }

        /// With the window's own options (render size, frame path, ...).
        package init(options: OutputWindow.Options, displayLink: DisplayLinkSettings = DisplayLinkSettings(),
                     makeRenderer: @escaping @Sendable (RenderTarget) throws -> any OutputRenderer) {
            self.options = options
            (renderSize, scaleMode) = (options.surface.renderSize, options.surface.scaleMode)
            self.displayLink = displayLink
            self.makeRenderer = makeRenderer
        }
    }

    /// Why ``run(for:exitWhenNoOutputs:)`` returned.
    public enum StopReason: Sendable, Equatable {
        /// ``stop()`` was called.
        case stopped
        /// The time given to `run` passed.
        case timeLimit
        /// This signal arrived (SIGINT or SIGTERM).
        case signal(Int32)
        /// The compositor asked to close the window on this output (xdg_toplevel.close).
        case closeRequested(String)
        /// The last covered output left.
        case noOutputs
    }

    public let configuration: Configuration
    /// SIGINT and SIGTERM as a descriptor, when the configuration handles signals.
    package let signals: SignalWatch?
    package let connection: Connection
    package let tracker: OutputTracker
    /// The covered outputs, in order.
    public var outputs: [Output] { tracker.outputs.filter(covers) }
    /// The primary among the covered outputs.
    public private(set) var primary: Output?
    /// The open windows, by output id.
    package var windows: [UInt32: OutputWindow] { opened.mapValues(\.window) }
    /// Receives every event from when it is set, on the session's thread (see also
    /// ``events()``); set it there, at any time. Events before are not replayed: the
    /// outputs present then are in ``outputs``.
    public var onEvent: ((SessionEvent) -> Void)?

    private var role: PrimaryRole
    private var madeGraphics: Graphics?
    /// EGL starting on its own thread (``Configuration/prepareGraphics``), and what it made.
    private var graphicsStart: (thread: JoinableThread, result: Locked<Result<Graphics, any Error>?>)?
    private var windowFor: ((Output) throws -> WindowRequest)?
    private var opened: [UInt32: Opened] = [:]
    private var streams: [Int: AsyncStream<SessionEvent>.Continuation] = [:]
    private var nextStream = 0
    private var stopRequested = false
    private let reclaim = HiddenWindowReclaim()

    private struct Opened {
        var window: OutputWindow
        var output: Output
        var announced: MonotonicInstant?
        var firstFrameReported = false
    }

    /// Connects and waits until every output present is described. Opens no window
    /// before ``start(_:)``.
    public init(_ configuration: Configuration) throws {
        self.configuration = configuration
        // Before any thread: threads inherit the blocked mask, so only the watch gets them.
        signals = configuration.handlesSignals ? try SignalWatch() : nil
        connection = try Connection(name: configuration.display, log: configuration.log)
        tracker = OutputTracker(connection: connection)
        var early: (thread: JoinableThread, result: Locked<Result<Graphics, any Error>?>)?
        if configuration.prepareGraphics {
            let result = Locked<Result<Graphics, any Error>?>(nil)
            let connection = connection, serialize = configuration.serializeGL
            // Without the thread (it could not start), graphics() starts EGL itself.
            if let thread = try? JoinableThread(name: "egl", body: {
                let made = Result { try Graphics(connection: connection, serializeGL: serialize) }
                eglReleaseThread()
                result.withLock { $0 = made }
            }) {
                early = (thread, result)
            }
        }
        do {
            try tracker.start()
        } catch {
            // EGL's thread uses the connection, which goes with this error: it ends first.
            early?.thread.join()
            throw error
        }
        role = PrimaryRole(requested: configuration.preferredPrimary)
        primary = role.update(outputs)
        graphicsStart = early
        tracker.onEvent = { [unowned self] event in handle(event) }
    }

    deinit {
        for continuation in streams.values { continuation.finish() }
        // EGL's thread uses the connection: it ends first.
        graphicsStart?.thread.join()
    }

    /// The EGL display and shared context the windows use, made on first use.
    package func graphics() throws -> Graphics {
        connection.requireMainThread()
        if let madeGraphics { return madeGraphics }
        try tracker.requireWindowing()
        let graphics: Graphics
        if let start = graphicsStart {
            start.thread.join()
            graphicsStart = nil
            guard let made = start.result.withLock({ $0 }) else { throw EGLError("eglInitialize (its thread ended early)") }
            graphics = try made.get()
        } else {
            graphics = try Graphics(connection: connection, serializeGL: configuration.serializeGL)
        }
        madeGraphics = graphics
        return graphics
    }

    /// Opens a window on every covered output, and on each that connects later, made as
    /// `window` says; then binds the seats if the configuration asks for input.
    public func start(windows window: @escaping (Output) throws -> WindowRequest) throws {
        connection.requireMainThread()
        windowFor = window
        for output in outputs where opened[output.id] == nil { try open(output) }
        if configuration.input && tracker.onInput == nil {
            tracker.onInput = { [unowned self] input in emit(.input(input)) }
        }
    }

    /// Opens a window with the default options on every covered output; `renderer` makes
    /// each output's renderer, on that window's thread.
    public func start(_ renderer: @escaping @Sendable (Output) throws -> any OutputRenderer) throws {
        try start { output in WindowRequest { _ in try renderer(output) } }
    }

    /// A new stream of the session's events, as they happen on this thread.
    public func events() -> AsyncStream<SessionEvent> {
        let (stream, continuation) = AsyncStream<SessionEvent>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let key = nextStream
        nextStream += 1
        streams[key] = continuation
        return stream
    }

    /// Runs `work` on the session's thread: at once when called there, else from
    /// ``run(for:exitWhenNoOutputs:)`` as soon as it wakes for it. Another thread's way to
    /// act on the session (glout's control API).
    package func onSessionThread(_ work: @escaping @Sendable () -> Void) {
        connection.onMainThread(work)
    }

    /// Makes ``run(for:exitWhenNoOutputs:)`` return after the current dispatch.
    public func stop() {
        stopRequested = true
        connection.wakeMainQueue()
    }

    /// Dispatches events until `duration` passes, ``stop()`` is called, SIGINT or SIGTERM
    /// arrives (see ``Configuration/handlesSignals``), the compositor closes a window, or
    /// (with `exitWhenNoOutputs`) the last covered output leaves. Throws when the
    /// connection breaks or a window fails.
    @discardableResult
    public func run(for duration: Duration? = nil, exitWhenNoOutputs: Bool = false) throws -> StopReason {
        connection.requireMainThread()
        let deadline = duration.map { MonotonicInstant.now + $0 }
        // Made once: the loop runs for every batch of events and allocates nothing.
        let watching = signals.map { [$0.fileDescriptor] } ?? []
        stopRequested = false
        while true {
            if exitWhenNoOutputs && opened.isEmpty { return .noOutputs }
            var timeout: Duration?
            if let deadline {
                if MonotonicInstant.now >= deadline { return .timeLimit }
                timeout = deadline.fromNow
            }
            let ready = try dispatch(timeout: timeout, watching: watching)
            if !ready.isEmpty, let signal = signals?.take().first { return .signal(signal) }
            if stopRequested { return .stopped }
            if let closed = opened.values.first(where: { $0.window.closeRequested }) {
                return .closeRequested(closed.output.name)
            }
        }
    }

    /// Dispatches the connection once (see ``Connection/dispatch(timeout:watching:)``),
    /// then looks after the windows: reports first frames, opens hidden ones again, and
    /// throws the error that stopped a window.
    @discardableResult
    package func dispatch(timeout: Duration?, watching: [Int32] = []) throws -> [Int32] {
        connection.requireMainThread()
        let ready = try connection.dispatch(timeout: timeout, watching: watching)
        try checkWindows()
        return ready
    }

    /// Closes every window (in reverse order of opening) and opens no more until the next
    /// ``start(_:)``. Returns the summaries of the windows it closed.
    @discardableResult
    public func closeWindows() -> [WindowSummary] {
        connection.requireMainThread()
        windowFor = nil
        var summaries: [WindowSummary] = []
        for (id, entry) in opened.sorted(by: { $0.key > $1.key }) {
            entry.window.close()
            summaries.append(WindowSummary(output: entry.window.output, statistics: entry.window.statistics,
                                           announced: entry.announced, landings: entry.window.frameLog.landings))
            opened[id] = nil
        }
        return summaries
    }

    // MARK: - Outputs and windows

    private func covers(_ output: Output) -> Bool {
        configuration.outputs.map { $0.contains(output.name) } ?? true
    }

    private func open(_ output: Output) throws {
        guard let windowFor else { return }
        let request = try windowFor(output)
        let options = request.options ?? OutputWindow.Options(surface: .init(
            appID: configuration.appID, title: configuration.title, renderSize: request.renderSize, scaleMode: request.scaleMode))
        let window = try OutputWindow(output: output, tracker: tracker, graphics: graphics(), options: options,
                                      makeRenderer: request.makeRenderer)
        window.displayLinkSettings = request.displayLink
        opened[output.id] = Opened(window: window, output: output, announced: tracker.announcementTime(of: output.id))
    }

    private func handle(_ event: OutputEvent) {
        switch event {
        case .connected(let output):
            guard covers(output) else { return emit(.connected(output)) }
            reclaim.outputsChanged()
            var failure: (any Error)?
            do {
                try open(output)
            } catch {
                configuration.log.error("output \(output.printableName): \(error)")
                failure = error
            }
            emit(.connected(output))
            if let failure { emit(.windowFailed(output, error: failure)) }
            updatePrimary()
        case .changed(let output, let previous):
            opened[output.id]?.window.update(output)
            opened[output.id]?.output = output
            emit(.changed(output, previous: previous))
            if covers(output) { updatePrimary() }
        case .disconnected(let output):
            reclaim.outputsChanged()
            var summary: WindowSummary?
            if let entry = opened.removeValue(forKey: output.id) {
                // OutputTracker told us first: the window goes before the output's proxies.
                entry.window.close()
                summary = WindowSummary(output: entry.window.output, statistics: entry.window.statistics,
                                        announced: entry.announced, landings: entry.window.frameLog.landings)
            }
            if covers(output) { updatePrimary() }
            emit(.disconnected(output, window: summary))
        }
    }

    private func updatePrimary() {
        let before = primary?.name
        primary = role.update(outputs)
        if primary?.name != before { emit(.primaryChanged(primary)) }
    }

    /// Asks the window on `output` (nil: every window) for a frame: after its renderer's
    /// picture stood still (``OutputRenderer/isAnimating`` false), something it shows
    /// changed. Any thread.
    public func setNeedsDisplay(on output: Output? = nil) {
        for (id, entry) in opened where output.map({ $0.id == id }) ?? true { entry.window.setNeedsDisplay() }
    }

    /// Sets the display link of the window on `output`: its frame interval or preferred
    /// rate, or a pause; from its next frame.
    public func setDisplayLink(_ settings: DisplayLinkSettings, on output: Output) {
        opened[output.id]?.window.displayLinkSettings = settings
    }

    /// Hands the primary role to `name` while it is connected (nil: back to the first in
    /// order), as a user picking the main screen would.
    public func setPreferredPrimary(_ name: String?) {
        role.requested = name
        updatePrimary()
    }

    private func checkWindows() throws {
        for (id, entry) in opened {
            if let error = entry.window.failure {
                // A broken connection is the compositor's doing, not this output's.
                try connection.check()
                throw OutputSessionError.windowFailed(output: entry.output.name, error: error)
            }
            if !entry.firstFrameReported, let first = entry.window.statistics.firstCommit {
                opened[id]?.firstFrameReported = true
                emit(.firstFrame(entry.window.output, after: entry.announced.map { first - $0 }))
            }
        }
        for entry in reclaim.hidden(among: opened.values.lazy.map(\.window)) {
            configuration.log.info("output \(entry.output.printableName): its window was hidden when outputs changed; opening it again")
            entry.recreateSurface()
        }
    }

    private func emit(_ event: SessionEvent) {
        onEvent?(event)
        for continuation in streams.values { continuation.yield(event) }
    }
}

/// What a ``OutputSession`` reports.
public enum SessionEvent: Sendable {
    /// An output connected; if the session covers it, its window is open.
    case connected(Output)
    /// An output's description changed; its window follows at its next frame.
    case changed(Output, previous: Output)
    /// An output left; its window, if it had one, is closed, with these last counters.
    case disconnected(Output, window: WindowSummary?)
    /// Another output (or none) is the primary now.
    case primaryChanged(Output?)
    /// The window on this output committed its first frame, this long after the output's
    /// wl_output global was announced (nil when unknown).
    case firstFrame(Output, after: Duration?)
    /// A window could not be opened on this output, for this reason as it was thrown (an
    /// ``EGLError``, a ``WaylandError``, or what the window request threw); it comes
    /// right after the output's ``connected(_:)``.
    case windowFailed(Output, error: any Error)
    /// Keyboard, pointer or touch input (when the configuration asks for input).
    case input(InputEvent)
}

/// A window's last counters, with its output and when that output appeared.
public struct WindowSummary: Sendable {
    public var output: Output
    public var statistics: WindowStatistics
    /// When the output's wl_output global was announced.
    public var announced: MonotonicInstant?
    /// When the window's last frames landed against their targets: the presentation time where
    /// the compositor reports one, else the frame callback that followed the commit.
    public var landings: [FrameLanding]
}

/// What stopped a ``OutputSession``.
public enum OutputSessionError: Error, CustomStringConvertible {
    /// The render thread of the window on this output stopped with this error: an
    /// ``EGLError``, a ``WaylandError`` or what the renderer threw, as it was thrown.
    case windowFailed(output: String, error: any Error)

    public var description: String {
        switch self {
        case let .windowFailed(output, error): "output \(output): \(error)"
        }
    }
}

/// Compositors shuffle windows when outputs come and go: sway moves a removed output's
/// workspaces to another output and shows one of them there, hiding the window on that
/// output. A window whose frame callbacks stop within a few seconds of such a change gets
/// a new surface, which the compositor maps where the output shows it. Later (a user
/// switching workspaces on purpose) the window stays hidden.
final class HiddenWindowReclaim {
    /// How long after outputs come or go a hidden window is opened again.
    static let window: UInt64 = 3_000_000_000
    private var changed: UInt64?
    private var reclaimed: Set<UInt32> = []

    func outputsChanged() {
        changed = MonotonicClock.now()
        reclaimed.removeAll()
    }

    /// The windows to open again now.
    func hidden(among windows: some Sequence<OutputWindow>) -> [OutputWindow] {
        guard let changed else { return [] }
        guard MonotonicClock.now() - changed < HiddenWindowReclaim.window else {
            self.changed = nil
            reclaimed.removeAll()
            return []
        }
        return windows.filter { window in
            guard !reclaimed.contains(window.outputID), window.statistics.isSuspended else { return false }
            reclaimed.insert(window.outputID)
            return true
        }
    }
}
