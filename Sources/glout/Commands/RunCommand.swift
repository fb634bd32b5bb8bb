import Foundation
import WaylandOutputs

/// `glout run`: a fullscreen window on every chosen output, each paced by its own
/// display link, as outputs come and go, until the duration ends, a signal arrives or
/// the compositor goes. The display session keeps the windows and the primary role; this
/// command logs what happens, routes keys and markers to the scene, and writes the stats.
final class RunCommand {
    private let options: RunOptions
    private let log: Log
    /// Counters of windows already closed (outputs that left), for --stats-json.
    private var closed: [RunStatistics.Entry] = []
    /// Each closed window's frames: their landings (for the span's report) and, with
    /// --landings-json, what each showed.
    private var frames: [LandingLog.Record] = []
    private var waitingForOutputs = false
    /// What GET /api/v1/events streams (the log's warnings and errors among it).
    private let events = EventHub()

    init(options: RunOptions, log: Log) {
        self.options = options
        self.log = events.tapping(log)
    }

    func run() throws {
        let statsFile = try options.statsJSON.map { try ReportFile(path: $0, option: "--stats-json") }
        let landingsFile = try options.landingsJSON.map { try ReportFile(path: $0, option: "--landings-json") }
        let stage = try Stage(options: options, command: "run", log: log, input: true, events: events)
        try stage.checkWall()
        let started = MonotonicInstant.now
        var endedBy = "error"
        var failure: GloutError?
        var control: ControlService?
        var supervisor: ServiceSupervisor?
        var power: ShowPower?
        do {
            try stage.applyModeSwitches()
            stage.display.onEvent = { [unowned self, unowned stage] event in handle(event, stage: stage) }
            try stage.display.start { [unowned stage] output in try stage.windowRequest(for: output) }
            for output in stage.display.outputs { logOpened(output, stage: stage) }
            noteIfEmpty(stage)
            control = try ControlService.start(options: options, stage: stage, log: log)
            supervisor = ServiceSupervisor.start(display: stage.display, log: log)
            power = stage.show.map { ShowPower.start(source: $0, display: stage.display, log: log) }
            endedBy = try end(stage.display.run(for: options.duration.map { .nanoseconds(Int64($0 * 1e9)) },
                                                exitWhenNoOutputs: options.exitWhenNoOutputs))
        } catch {
            failure = GloutError(error)
        }
        supervisor?.stop()
        power?.stop()
        control?.stop()
        let duration = (MonotonicInstant.now - started).inSeconds
        let statistics = (closed + stage.display.closeWindows().map { entry($0, disconnected: false, stage: stage) })
            .sorted { $0.name < $1.name }
        stage.restoreModes()
        if let statsFile {
            let state = stage.scene.snapshot
            let span = state.layout == .span || options.layout == .span
                ? SpanReport(clock: state.clock, machine: state.machine, canvas: state.span,
                             landings: frames.map { ($0.name, $0.landings) }) : nil
            try statsFile.write(RunStatistics(layout: options.layout.rawValue, duration_s: duration, outputs: statistics,
                                              span: span, ended_by: endedBy, error: failure?.message))
        }
        try landingsFile?.write(LandingLog(frames))
        if let failure { throw failure }
    }

    /// Logs why the run ended and names it for the stats.
    private func end(_ reason: OutputSession.StopReason) -> String {
        switch reason {
        case .timeLimit:
            return "duration"
        case .signal(let signal):
            log.info("\(signal == SIGINT ? "SIGINT" : "SIGTERM"): closing")
            return "signal"
        case .stopped:
            log.info("quit key: closing")
            return "key"
        case .closeRequested(let name):
            log.info("the compositor closed the window on \(name): closing")
            return "closed"
        case .noOutputs:
            log.info("no outputs to draw on: exiting (--exit-when-no-outputs)")
            return "no-outputs"
        }
    }

    private func logOpened(_ output: Output, stage: Stage) {
        guard stage.display.windows[output.id] != nil else { return }
        let role = output.name == stage.display.primary?.name ? "primary" : "secondary"
        log.info("output \(Stage.describe(output)), \(role)")
    }

    /// Says once that glout waits for an output, when none is left to draw on.
    private func noteIfEmpty(_ stage: Stage) {
        guard stage.display.windows.isEmpty, !options.exitWhenNoOutputs, !waitingForOutputs else { return }
        log.info("no outputs to draw on: waiting for one to connect")
        waitingForOutputs = true
    }

    private func handle(_ event: SessionEvent, stage: Stage) {
        publish(event, stage: stage)
        switch event {
        case .connected(let output):
            try? stage.refreshSpan()
            guard stage.display.windows[output.id] != nil else { return }
            stage.telemetry.register(output)
            waitingForOutputs = false
            logOpened(output, stage: stage)
        case .changed(let output, let previous):
            if stage.display.windows[output.id] != nil { stage.telemetry.register(output) }
            if output.name == stage.display.primary?.name { stage.scene.setPrimary(output) }
            try? stage.refreshSpan()
            log.info("output \(output.printableName) changed: \(Stage.describe(previous)) -> \(Stage.describe(output))")
        case .disconnected(let output, let window):
            stage.telemetry.forget(output.id)
            stage.slots.outputLeft(output.name)
            try? stage.refreshSpan()
            if let window {
                releaseFreedMemory()
                closed.append(entry(window, disconnected: true, stage: stage))
                log.info("output \(output.printableName): disconnected after \(window.statistics.frames) frames")
            }
            noteIfEmpty(stage)
        case .primaryChanged(let output):
            stage.scene.setPrimary(output)
            try? stage.refreshSpan()
            if let output { log.info("output \(output.printableName) is now the primary") }
        case .firstFrame(let output, let after):
            if stage.display.windows[output.id]?.statistics.renderSizeIgnored == true {
                log.warning("output \(output.printableName): the compositor cannot scale buffers (no wp_viewporter); "
                            + "drawing at the output's own size instead of --mode's")
            }
            if let after, after > .zero {
                log.info("output \(output.printableName): first frame \(format(after.inSeconds * 1e3, 1)) ms after the output appeared")
            }
        case .windowFailed:
            break
        case .input(let input):
            // Only the outputs whose picture the input changed.
            stage.wakeWindows(handle(input, stage: stage))
            return
        }
        // Outputs and the primary change what the pictures show: those that stood still
        // draw again (and rest again when they have).
        stage.wakeWindows()
    }

    /// Tells the event streams of outputs that come, change and go, and of the primary.
    private func publish(_ event: SessionEvent, stage: Stage) {
        func entry(_ output: Output) -> [String: Any] {
            let report = OutputReport(outputs: [output], primary: stage.display.primary)
            let text = (try? OutputReport.encode(report.outputs[0], pretty: false)) ?? "{}"
            return (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
        }
        switch event {
        case .connected(let output):
            events.publish("output-connected") { entry(output) }
        case .changed(let output, _):
            events.publish("output-changed") { entry(output) }
        case .disconnected(let output, let window):
            events.publish("output-disconnected") {
                ["name": output.name, "frames": window?.statistics.frames ?? 0]
            }
        case .primaryChanged(let output):
            events.publish("primary-changed") { ["primary": output?.name ?? NSNull()] }
        case .firstFrame, .windowFailed, .input:
            break
        }
    }

    /// Keys act on the whole run; the pointer and touches leave markers on their outputs.
    /// Returns the outputs whose picture changed (nil: all of them).
    private func handle(_ input: InputEvent, stage: Stage) -> Set<UInt32>? {
        switch input {
        case let .key(_, keysym, _, pressed):
            guard pressed, let action = KeyBindings.action(for: keysym) else { return [] }
            perform(action, stage: stage)
            return nil
        case let .pointer(outputID, x, y):
            return moveMarkers(of: .pointer, to: outputID.map { [($0, x, y)] } ?? [], stage: stage)
        case .button:
            return []
        case .touches(let points):
            return moveMarkers(of: .touch, to: points.map { ($0.outputID, $0.x, $0.y) }, stage: stage)
        }
    }

    /// Puts the markers of one kind where `places` says; returns the outputs that had one
    /// or have one now.
    private func moveMarkers(of kind: Marker.Kind, to places: [(output: UInt32, x: Double, y: Double)],
                             stage: Stage) -> Set<UInt32> {
        var changed = Set(places.map(\.output))
        stage.scene.update { state in
            for (id, markers) in state.markers where markers.contains(where: { $0.kind == kind }) {
                changed.insert(id)
                state.markers[id]?.removeAll { $0.kind == kind }
            }
            for place in places {
                state.markers[place.output, default: []].append(Marker(kind: kind, x: place.x, y: place.y))
            }
        }
        return changed
    }

    private func perform(_ action: KeyAction, stage: Stage) {
        switch action {
        case .toggleLayout:
            stage.scene.update { $0.layout = $0.layout.next }
            log.info("layout: \(stage.scene.snapshot.layout.rawValue)")
        case .newAccent:
            let accent = RGB(r: .random(in: 0.2...1), g: .random(in: 0.2...1), b: .random(in: 0.2...1))
            stage.scene.update { $0.contentAccent = accent }
        case .nextPrimary:
            let outputs = stage.display.outputs
            guard outputs.count > 1, let current = outputs.firstIndex(where: { $0.name == stage.display.primary?.name })
            else { return }
            stage.display.setPreferredPrimary(outputs[(current + 1) % outputs.count].name)
        case .toggleFreeze:
            stage.scene.toggleFrozen(now: .now)
        case .identify:
            stage.scene.toggleIdentify(now: .now)
        case .quit:
            stage.display.stop()
        }
    }

    private func entry(_ window: WindowSummary, disconnected: Bool, stage: Stage) -> RunStatistics.Entry {
        let stats = window.statistics, output = window.output
        let videos = stage.telemetry.videos(output.id).map(VideoReport.init)
        let shown = videos.reduce(0) { $0 + $1.frames_shown }
        // Start-up apart, as bench has it: the frames committed in the output's first
        // second (the window mapped, the grid not yet learnt).
        let warm = stats.firstCommit.map { $0 + .nanoseconds(Int64(BenchCommand.warmUp * 1e9)) }
        let all = window.landings
        let steady = all.filter { landing in warm.map { landing.commit >= $0 } ?? true }
        let startup = all.filter { landing in warm.map { landing.commit < $0 } ?? false }
        // (The telemetry keeps what each refresh showed only for --landings-json.)
        frames.append(LandingLog.Record(name: output.name, landings: all, videoFrames: stage.telemetry.videoFrames(output.id),
                                        tickerTravel: stage.telemetry.tickerTravel(output.id)))
        var firstFrame: Double?
        if let first = stats.firstCommit, let announced = window.announced {
            firstFrame = max(0, (first - announced).inSeconds * 1e3)
        }
        return .init(name: output.name, frames: stats.frames, fps: stats.framesPerSecond, callbacks: stats.callbacks,
                     refresh_mhz: output.currentMode?.refreshMilliHertz ?? 0, pixel_width: output.pixelSize.width,
                     pixel_height: output.pixelSize.height, first_frame_ms: firstFrame, suspensions: stats.suspensions,
                     buffer_waits: stats.bufferWaits, presentation_rejected: stats.presentationRejected,
                     disconnected: disconnected, placement: .init(stats.placement, output: output),
                     landing: LandingSummary(steady), startup_landing: LandingSummary(startup), fifo: stats.usesFifo, commit_timing: stats.usesCommitTiming,
                     timestamped_commits: stats.timestampedCommits, timestamps_held: stats.heldTimestamps,
                     video: videos.count == 1 ? videos[0] : nil,
                     cpu_ms_per_video_frame: shown > 0 ? stats.cpuTime.inSeconds * 1e3 / Double(shown) : nil,
                     videos: videos.count > 1 ? videos : nil)
    }
}
