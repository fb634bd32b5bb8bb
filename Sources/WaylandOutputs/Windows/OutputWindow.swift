import CGLES
import CWayland

/// A fullscreen window on one output, with its own render thread, event queue, GLES
/// context and display link: the output is paced by its own frame callbacks and never
/// waits for another output.
///
/// ``OutputSession`` opens and closes them as outputs come and go. On your own, create
/// one when an output connects and ``close()`` it when the output disconnects; closing it
/// later is safe too (the output's wl_output stays until then).
// @unchecked: what both its threads touch is in `shared` (a Locked); the rest is set in
// init and then read-only, or used by the render thread alone (marked where declared).
package final class OutputWindow: @unchecked Sendable {
    /// Counters a window keeps while it runs (``WindowStatistics``).
    package typealias Statistics = WindowStatistics

    /// The registry name of the output this window is on.
    package let outputID: UInt32

    private struct Shared {
        var output: Output
        var settings = DisplayLinkSettings()
        var stop = false
        var failure: (any Error)?
        var closeRequested = false
        var recreate = false
        var needsDisplay = false
        var statistics = Statistics()
        var frameLog: FrameLog
    }

    private let shared: Locked<Shared>
    private let connection: Connection
    /// The globals its surfaces are made with, taken on the main thread.
    private let windowing: Windowing
    private let graphics: Graphics
    private let queue: EventQueue
    private let options: Options
    private let log: Log
    /// Keeps the output's wl_output until the render thread is done with it.
    private let lease: OutputLease
    private let presentation: (proxy: OpaquePointer, clock: UInt32)?
    private var thread: JoinableThread?
    /// The surface's placement changed since the last commit (render thread only).
    private var placementChanged = true
    /// Whether commits may carry timestamps later than the moment they are sent; off once
    /// the compositor held one. The render thread's own.
    private var timestampsAhead = true
    /// Timestamped commits of this window's surfaces before the current one. The render
    /// thread's own.
    private var earlierTimestampedCommits: UInt64 = 0
    /// What the compositor sent out of range, said once a kind (render thread only).
    private var complaints = CompositorComplaints()

    /// Opens the window and starts its render thread. `makeRenderer` runs on that thread
    /// with the window's context current, once the first configure has arrived. Call it
    /// on the thread that dispatches the connection.
    package init(output: Output, tracker: OutputTracker, graphics: Graphics, options: Options,
                makeRenderer: @escaping @Sendable (RenderTarget) throws -> any OutputRenderer) throws {
        windowing = try tracker.windowing()
        guard let lease = tracker.lease(output.id) else {
            throw WaylandError.missingGlobal(interface: "wl_output \(output.printableName)", required: 2, offered: nil)
        }
        outputID = output.id
        shared = Locked(Shared(output: output, frameLog: FrameLog(capacity: options.frameLogCapacity)))
        connection = tracker.connection
        self.graphics = graphics
        queue = EventQueue(connection: tracker.connection)
        self.options = options
        log = tracker.connection.log
        self.lease = lease
        presentation = options.presentationFeedback ? windowing.presentation : nil
        // Thread names are cut to 15 bytes: the output's name says which window it is.
        thread = try JoinableThread(name: output.name) { [self] in
            run(makeRenderer: makeRenderer)
        }
    }

    deinit { close() }

    /// The output as last described to this window.
    package var output: Output { shared.withLock { $0.output } }

    /// Hands the window a new description of its output (from ``OutputEvent/changed(_:previous:)``);
    /// the render thread resizes the surface at its next frame.
    package func update(_ output: Output) {
        shared.withLock { $0.output = output }
        queue.wake()
    }

    /// The error that stopped the window's render thread, if one did.
    package var failure: (any Error)? { shared.withLock { $0.failure } }

    /// Whether the compositor asked to close this window (xdg_toplevel.close).
    package var closeRequested: Bool { shared.withLock { $0.closeRequested } }

    /// A snapshot of the window's counters.
    package var statistics: Statistics { shared.withLock { $0.statistics } }

    /// A copy of the window's recent frames.
    package var frameLog: FrameLog { shared.withLock { $0.frameLog } }

    /// How the display link paces this output; a change applies at the next frame.
    package var displayLinkSettings: DisplayLinkSettings {
        get { shared.withLock { $0.settings } }
        set {
            shared.withLock { $0.settings = newValue }
            queue.wake()
        }
    }

    /// Asks for a frame of a window whose renderer said its picture stands still
    /// (``OutputRenderer/isAnimating``): call it when something the picture shows has
    /// changed. Safe from any thread; cheap when the window is drawing anyway.
    package func setNeedsDisplay() {
        let wasSet = shared.withLock { state in
            defer { state.needsDisplay = true }
            return state.needsDisplay
        }
        if !wasSet { queue.wake() }
    }

    /// Replaces the window's surface with a new one on the same output, keeping the
    /// context, the renderer and the display link. A compositor places a new fullscreen
    /// surface where the output shows it; use this when it has hidden the old one (sway
    /// shows another workspace on an output after a neighbour left).
    package func recreateSurface() {
        shared.withLock { $0.recreate = true }
        queue.wake()
    }

    /// Stops the render thread and waits for it: the thread itself releases what it made,
    /// the renderer first (its context current), then the surface (EGL surface or wl_shm
    /// buffers, wl_egl_window, xdg_toplevel, xdg_surface, wl_surface) and the context.
    /// Then the window's hold on its wl_output ends. When it returns, no callback of this
    /// window will run. Call it on the thread that dispatches the connection.
    package func close() {
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
        do {
            try renderLoop(makeRenderer: makeRenderer)
        } catch {
            shared.withLock { $0.failure = error }
            // The owner acts on it at its next dispatch: now.
            connection.wakeMainQueue()
        }
        eglReleaseThread()
    }

    /// The context, display link, feedback and renderer live as long as the window; the
    /// surface is made again on ``recreateSurface()``.
    private func renderLoop(makeRenderer: (RenderTarget) throws -> any OutputRenderer) throws {
        let context = try graphics.makeContext()
        // The renderer's GL objects belong to the context: it goes with the context
        // current and no surface, before the context goes back to the pool.
        var renderer: (any OutputRenderer)?
        defer {
            try? context.makeCurrentWithoutSurface()
            graphics.serialized { renderer = nil }
        }
        let link = DisplayLink(output: output)
        defer { link.cancel() }
        let feedback = presentation.map {
            PresentationFeedback(queue: queue, presentation: $0.proxy, clockID: $0.clock, limit: options.outstandingFeedbackLimit)
        }
        defer { feedback?.release(queue: queue) }
        feedback?.onResult = { [unowned self] frame, result in record(result, of: frame, link: link) }
        let subject = "output \(output.printableName)"
        feedback?.onProblem = { [unowned self] problem in complaints.report(problem, about: subject, log: log) }
        link.onResume = { [unowned self] in log.info("output \(output.printableName): frame callbacks resumed") }
        while !stopRequested {
            let surface = FullscreenSurface(output: output, lease: lease, windowing: windowing, graphics: graphics,
                                            queue: queue, options: options.surface)
            defer {
                recordPlacement(of: surface)
                surface.close()
            }
            shared.withLock { state in
                state.recreate = false
                state.statistics.surfaces += 1
                state.statistics.renderSizeIgnored = surface.renderSizeIgnored
            }
            watchPlacement(of: surface)
            placementChanged = true
            surface.onPlacementChange = { [unowned self] in placementChanged = true }
            guard try surface.configure(until: { stopRequested }) else { return }
            try surface.makeCurrent(context)
            // Interval 0: eglSwapBuffers must not wait for this surface's frame callback;
            // the display link does the pacing, per output.
            surface.setSwapInterval(0)
            // Callbacks and feedback of this surface must not outlive it.
            defer {
                link.cancel()
                feedback?.cancelAll()
            }
            link.surfaceStarted()
            if renderer == nil {
                let target = surface.target
                renderer = try graphics.serialized { try makeRenderer(target) }
            }
            guard let renderer else { return }
            try drawFrames(on: surface, renderer: renderer, link: link, feedback: feedback)
            earlierTimestampedCommits += surface.timestampedCommits
        }
    }

    /// The surface's placement into the statistics, if it changed since they last had it
    /// (render thread: after each commit, and as the surface closes, so that what the
    /// compositor said after the last frame, an enter just before the end, counts too).
    private func recordPlacement(of surface: FullscreenSurface) {
        guard placementChanged else { return }
        placementChanged = false
        let placement = surface.placement
        shared.withLock { $0.statistics.placement = placement }
    }

    /// Warns when the compositor keeps showing the surface on another output.
    private func watchPlacement(of surface: FullscreenSurface) {
        var misplaced = 0
        let name = output.name
        surface.onMisplaced = { [log] other in
            misplaced += 1
            let where_ = other ?? "another output"
            if misplaced == 3 {
                log.warning("the compositor keeps putting the surface for \(name) on \(where_)")
            } else {
                log.debug("the compositor put the surface for \(name) on \(where_); asking for \(name) again")
            }
        }
    }

    /// Draws frames as the display link says until the window stops or wants a new surface.
    private func drawFrames(on surface: FullscreenSurface, renderer: any OutputRenderer, link: DisplayLink,
                            feedback: PresentationFeedback?) throws {
        var wasSuspended = link.timing.isSuspended
        while !stopRequested {
            // A new description of the output, or a new configure, may change the buffer.
            let (latest, settings, recreate, needsDisplay) = shared.withLock { state in
                defer { state.needsDisplay = false }
                return (state.output, state.settings, state.recreate, state.needsDisplay)
            }
            if recreate { return }
            // A still picture gets a frame of its own when the compositor moves the
            // surface to another output or configures it anew.
            if (needsDisplay || placementChanged) && link.timing.isIdle { link.requestRedraw() }
            if latest != surface.output { link.update(output: latest) }
            link.apply(settings)
            if surface.update(output: latest) { link.requestRedraw() }
            if surface.closeRequested {
                shared.withLock { $0.closeRequested = true }
                connection.wakeMainQueue()
            }
            let now = MonotonicClock.now()
            let action = link.next(now: now)
            // Deciding may have suspended the link; a callback may have resumed it.
            if link.timing.isSuspended != wasSuspended {
                wasSuspended = link.timing.isSuspended
                if wasSuspended && timestampsAhead && surface.lastCommitTimestampedAhead {
                    // Nothing the compositor will do frees the held commit, nor the
                    // commits behind it: a new surface starts afresh.
                    timestampsAhead = false
                    log.warning("output \(surface.output.printableName): no frame callback for \(link.timing.stallTimeout / 1_000_000) ms "
                                + "after a commit timestamped ahead (wp_commit_timer_v1), which the compositor seems to hold "
                                + "(mutter 48.7 holds such commits for good); the window's surface is made again, and its "
                                + "timestamps are no longer ahead of their commits")
                    shared.withLock { $0.statistics.heldTimestamps += 1 }
                    link.surfaceReplaced()
                    return
                }
                if wasSuspended {
                    log.info("output \(surface.output.printableName): no frame callback for \(link.timing.stallTimeout / 1_000_000) ms; "
                             + "its display link waits")
                }
                shared.withLock { $0.statistics.isSuspended = wasSuspended }
                // The owner may want to act on it (see recreateSurface()).
                connection.wakeMainQueue()
            }
            switch action {
            case .draw:
                try draw(on: surface, renderer: renderer, link: link, feedback: feedback, now: now)
            case .wait(let until):
                let timeout = until.map { Duration.nanoseconds(Int64($0 > now ? $0 - now : 0)) }
                try queue.dispatch(timeout: timeout)
                shared.withLock { state in
                    state.statistics.callbacks = link.timing.callbacks
                    state.statistics.suspensions = link.timing.suspensions
                }
            }
            // Mesa may have read the socket inside eglSwapBuffers, for its own queue: the
            // queues that read left events on are woken now.
            if surface.readsInSwap { connection.wakeQueuesHoldingEvents() }
        }
    }

    /// One frame: the callback for the next, the renderer, the commit.
    private func draw(on surface: FullscreenSurface, renderer: any OutputRenderer, link: DisplayLink,
                      feedback: PresentationFeedback?, now: UInt64) throws {
        let callback = link.timing.pendingCallback
        let cpuBefore = MonotonicClock.threadCPU()
        shared.withLock { $0.statistics.frameStarted = MonotonicInstant(nanoseconds: now) }
        defer { shared.withLock { $0.statistics.frameStarted = nil } }
        let frame = link.startFrame(surface: surface.wlSurface, now: now)
        feedback?.request(surface: surface.wlSurface, frame: frame.index)
        renderer.prepare(frame, in: surface.target)
        // Where windows take turns at GL, the frame due first goes first: due one frame
        // interval after it was released (its callback), whatever its target. (A target
        // moves later as a frame waits longer for its turns, and a frame that waited
        // would then wait longer still: three of eight outputs starved so.)
        let due = min(frame.targetTimestamp, frame.timestamp + frame.duration * link.timing.effectiveInterval)
        let settings = link.timing.settings
        let presentationTimes = settings.usesPresentationTimes
        if surface.isDraft, surface.canCommit {
            // A draft the renderer writes without GL needs no turn and no program compiled.
            let target = surface.target
            let drawn = try surface.commitDraft { pixels in
                let drawStart = MonotonicClock.now()
                guard renderer.drawDraft(frame, into: pixels, in: target) else { return false }
                let drawTime = (Double(MonotonicClock.now() - drawStart) / 1e5).rounded() / 10
                log.debug("output \(surface.output.printableName): its draft took \(drawTime) ms to write")
                surface.prepareCommit(target: nil, period: frame.duration, fifo: presentationTimes)
                return true
            }
            if drawn == true {
                finish(frame, callback: callback, start: now, cpuBefore: cpuBefore, target: target, surface: surface,
                       renderer: renderer, link: link, feedback: feedback, withoutGL: true)
                return
            }
        }
        let (target, changed) = try graphics.serialized(deadline: due) {
            try surface.beginFrame()
            let target = surface.target
            try renderer.render(frame, in: target)
            let changed = target.holdsPreviousFrame ? renderer.changedRegions(in: target) : nil
            // Where windows take turns, the driver rasterizes on the CPU: flushed now, its
            // threads rasterize this frame while the other windows take their turns, not
            // once this one reads the frame back in its next (BENCHMARKS.md, "Frame cost
            // and fair shares").
            if graphics.serializesGL { glFlush() }
            return (target, changed)
        }
        guard try waitUntilCommitPossible(surface) else { return }
        // A frame aimed at a real refresh tells the compositor which (commit timing, fifo).
        let stamped = settings.usesCommitTiming && presentationTimes && frame.targetSource == .presentation
        surface.prepareCommit(target: stamped ? frame.targetTimestamp : nil, period: frame.duration, fifo: presentationTimes,
                              ahead: timestampsAhead)
        guard try graphics.serialized(deadline: due, { try surface.swapBuffers(changed: changed) }) else { return }
        finish(frame, callback: callback, start: now, cpuBefore: cpuBefore, target: target, surface: surface,
               renderer: renderer, link: link, feedback: feedback)
    }

    /// After a frame's commit: the draft's end, the frame's sample, idleness and the
    /// window's statistics.
    private func finish(_ frame: DisplayLinkFrame, callback: (arrival: UInt64, time: UInt32)?, start now: UInt64,
                        cpuBefore: UInt64, target: RenderTarget, surface: FullscreenSurface, renderer: any OutputRenderer,
                        link: DisplayLink, feedback: PresentationFeedback?, withoutGL: Bool = false) {
        let settings = link.timing.settings
        let presentationTimes = settings.usesPresentationTimes
        let commit = MonotonicClock.now()
        let wasDraft = surface.isDraft
        if wasDraft {
            log.debug("output \(surface.output.printableName): the first frame was a draft of \(target.pixelSize) scaled to the output"
                      + (withoutGL ? ", written without GL" : "") + "; the next is whole")
            // The whole frame follows at the draft's frame callback, as any next frame,
            // by when the configure the compositor sends a newly mapped window has come.
            surface.finishDraft()
        }
        if frame.index == 2 {
            // The display link runs: frames after the first two came from frame callbacks.
            log.debug("output \(surface.output.printableName): 3 frames committed; its frame callbacks come")
        }
        var sample = FrameSample(index: frame.index,
                                 callbackArrival: callback.map { MonotonicInstant(nanoseconds: $0.arrival) },
                                 callbackTime: callback?.time, target: frame.targetTimestamp,
                                 renderStart: MonotonicInstant(nanoseconds: now),
                                 commit: MonotonicInstant(nanoseconds: commit),
                                 cpuTime: .nanoseconds(Int64(MonotonicClock.threadCPU() - cpuBefore)))
        sample.targetSource = frame.targetSource
        link.committed(start: now, commit: commit)
        let resting = !renderer.isAnimating && !wasDraft
        sample.restsAfter = resting
        if resting {
            link.becomeIdle()
            log.debug("output \(surface.output.printableName): idle after \(frame.index + 1) frames")
        }
        record(sample, link: link, feedback: feedback, resting: resting)
        recordPlacement(of: surface)
        let fifo = surface.hasFifo && presentationTimes
        let timer = surface.hasCommitTimer && presentationTimes && settings.usesCommitTiming
        let timestamps = earlierTimestampedCommits + surface.timestampedCommits
        shared.withLock { state in
            state.statistics.usesFifo = fifo
            state.statistics.usesCommitTiming = timer
            state.statistics.timestampedCommits = timestamps
        }
    }

    /// How long a frame waits for the compositor to release one of the window's wl_shm
    /// buffers before the window says so (it goes on waiting; the other outputs do not).
    package static let bufferWaitNotice: Duration = .seconds(2)

    /// Waits, dispatching the window's queue, until the surface can commit (a wl_shm buffer
    /// was released: ``FullscreenSurface/canCommit``) or the window stops. Returns false
    /// when it stopped first. Says once when the compositor keeps every buffer for
    /// ``bufferWaitNotice``, and again when one comes back.
    private func waitUntilCommitPossible(_ surface: FullscreenSurface) throws -> Bool {
        guard !surface.canCommit else { return true }
        let started = MonotonicClock.now()
        var said = false
        while !surface.canCommit {
            if stopRequested { return false }
            try queue.dispatch(timeout: .milliseconds(100))
            if !said && MonotonicClock.now() - started >= UInt64(OutputWindow.bufferWaitNotice.inNanoseconds) {
                said = true
                log.warning("output \(surface.output.printableName): the compositor has released none of the window's "
                            + "\(SharedMemoryFrames.buffersPerSize) buffers for \(OutputWindow.bufferWaitNotice.inSeconds) s; "
                            + "its next frame waits for one (the other outputs go on)")
                shared.withLock { state in
                    state.statistics.isSuspended = true
                    state.statistics.bufferWaits += 1
                }
                connection.wakeMainQueue()
            }
        }
        if said {
            log.info("output \(surface.output.printableName): the compositor released a buffer; frames go on")
            shared.withLock { $0.statistics.isSuspended = false }
        }
        return true
    }

    /// Counts a committed frame.
    private func record(_ sample: FrameSample, link: DisplayLink, feedback: PresentationFeedback?, resting: Bool) {
        shared.withLock { state in
            state.frameLog.append(sample)
            state.statistics.frames += 1
            state.statistics.isIdle = resting
            if resting { state.statistics.idlePeriods += 1 }
            if state.statistics.firstCommit == nil { state.statistics.firstCommit = sample.commit }
            state.statistics.lastCommit = sample.commit
            state.statistics.cpuTime += sample.cpuTime
            state.statistics.callbacks = link.timing.callbacks
            state.statistics.refreshPeriod = .nanoseconds(Int64(link.timing.duration))
            if let feedback {
                state.statistics.feedbackRequested = feedback.requested
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
        let sample = shared.withLock { state in
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
            case .unusable:
                // Counted, and left out of every figure: the frame keeps no presented time.
                state.statistics.presentationRejected += 1
            }
            return state.frameLog.sample(frame)
        }
        if case let .presented(time, refresh, sequence, _) = result {
            link.presented(time: time.nanoseconds, refresh: UInt64(max(0, refresh.inNanoseconds)), sequence: sequence,
                           started: sample.map { ($0.callbackArrival ?? $0.renderStart).nanoseconds },
                           committed: sample?.commit.nanoseconds)
        }
        if case .unusable(let reason) = result {
            complaints.report(kind: "presentation time", "output \(output.printableName): the compositor's "
                              + "wp_presentation_feedback.presented time \(reason); such frames are counted and left out of "
                              + "the landing figures", log: log)
        }
    }
}
