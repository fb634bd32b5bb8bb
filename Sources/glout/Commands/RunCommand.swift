import Foundation
import WaylandOutputs

/// `glout run`: a fullscreen window on every chosen output, each paced by its own
/// display link, as outputs come and go, until the duration ends, a signal arrives or
/// the compositor goes.
final class RunCommand {
    private struct Window {
        var window: OutputWindow
        var name: String
        var announced: UInt64?
        var firstFrameReported = false
    }

    private let options: RunOptions
    private let log: Log
    private var windows: [UInt32: Window] = [:]
    /// Counters of windows already closed (outputs that left), for --stats-json.
    private var closed: [RunStatistics.Entry] = []
    private var quitRequested = false
    private var waitingForOutputs = false
    /// When outputs last came or went, and the windows re-opened since (see reclaim()).
    private var topologyChanged: UInt64?
    private var reclaimed: Set<UInt32> = []
    /// How long after outputs come or go a hidden window is opened again.
    static let reclaimWindow: UInt64 = 3_000_000_000

    init(options: RunOptions, log: Log) {
        self.options = options
        self.log = log
    }

    func run() throws {
        let statsFile = try options.statsJSON.map { try ReportFile(path: $0, option: "--stats-json") }
        let session = try Session(options: options, log: log)
        let started = MonotonicClock.now()
        var endedBy = "error"
        var failure: GloutError?
        do {
            try session.applyModeSwitches()
            updateRoles(session)
            for output in session.chosenOutputs {
                try openWindow(on: output, session: session)
            }
            session.screens.onEvent = { [unowned self] event in handle(event, session: session) }
            session.screens.onInput = { [unowned self] event in handle(event, session: session) }
            endedBy = try loop(session: session)
        } catch {
            failure = GloutError(error)
        }
        let duration = Double(MonotonicClock.now() - started) / 1e9
        let statistics = closeWindows()
        session.restoreModes()
        if let statsFile {
            try statsFile.write(RunStatistics(layout: options.layout.rawValue, duration_s: duration, outputs: statistics,
                                              ended_by: endedBy, error: failure?.message))
        }
        if let failure { throw failure }
    }

    /// Runs until the duration ends, a signal arrives, a window is closed or fails, or
    /// (with --exit-when-no-outputs) the last output leaves.
    private func loop(session: Session) throws -> String {
        let deadline = options.duration.map { MonotonicClock.now() + UInt64($0 * 1e9) }
        while true {
            if windows.isEmpty {
                if options.exitWhenNoOutputs {
                    log.info("no outputs to draw on: exiting (--exit-when-no-outputs)")
                    return "no-outputs"
                }
                if !waitingForOutputs {
                    log.info("no outputs to draw on: waiting for one to connect")
                    waitingForOutputs = true
                }
            }
            var timeout: Double?
            if let deadline {
                let now = MonotonicClock.now()
                if now >= deadline { return "duration" }
                timeout = Double(deadline - now) / 1e9
            }
            let ready = try session.connection.dispatch(timeout: timeout, watching: [session.signals.fileDescriptor])
            if !ready.isEmpty, let signal = session.signals.take().first {
                log.info("\(signal == SIGINT ? "SIGINT" : "SIGTERM"): closing")
                return "signal"
            }
            if quitRequested {
                log.info("quit key: closing")
                return "key"
            }
            reclaim()
            for (id, entry) in windows {
                if let error = entry.window.failure {
                    // A broken connection is the compositor's doing, not this output's.
                    try session.connection.check()
                    throw GloutError("output \(entry.name): \(error)")
                }
                if entry.window.closeRequested {
                    log.info("the compositor closed the window on \(entry.name): closing")
                    return "closed"
                }
                if !entry.firstFrameReported, let first = entry.window.statistics.firstCommit {
                    windows[id]?.firstFrameReported = true
                    if entry.window.statistics.renderSizeIgnored {
                        log.warning("output \(entry.name): the compositor cannot scale buffers (no wp_viewporter); "
                                    + "drawing at the output's own size instead of --mode's")
                    }
                    if let announced = entry.announced, first > announced {
                        log.info("output \(entry.name): first frame \(format(Double(first - announced) / 1e6, 1)) ms "
                                 + "after the output appeared")
                    }
                }
            }
        }
    }

    /// Compositors shuffle windows when outputs come and go: sway moves a removed
    /// output's workspaces to another output and shows one of them there, hiding glout's
    /// window on that output. A window whose frame callbacks stop within a few seconds of
    /// such a change gets a new surface, which the compositor maps where the output shows
    /// it. Later (a user switching workspaces on purpose) glout leaves it hidden.
    private func reclaim() {
        guard let changed = topologyChanged else { return }
        guard MonotonicClock.now() - changed < RunCommand.reclaimWindow else {
            topologyChanged = nil
            reclaimed.removeAll()
            return
        }
        for (id, entry) in windows where !reclaimed.contains(id) && entry.window.statistics.isSuspended {
            reclaimed.insert(id)
            log.info("output \(entry.name): its window was hidden when outputs changed; opening it again")
            entry.window.recreateSurface()
        }
    }

    private func outputsChanged() {
        topologyChanged = MonotonicClock.now()
        reclaimed.removeAll()
    }

    private func openWindow(on output: Output, session: Session) throws {
        log.info("output \(Session.describe(output)), \(output.name == session.role.current ? "primary" : "secondary")")
        let window = try OutputWindow(output: output, screens: session.screens, graphics: session.graphics,
                                      options: session.windowOptions(for: output),
                                      makeRenderer: session.makeRenderer(for: output))
        window.displayLinkSettings = session.linkSettings(for: output)
        windows[output.id] = Window(window: window, name: output.name,
                                    announced: session.screens.announcementTime(of: output.id))
        waitingForOutputs = false
    }

    /// Gives the primary role (control view) to the right output after any change.
    private func updateRoles(_ session: Session) {
        let before = session.role.current
        let primary = session.updatePrimary()
        if let primary, before != nil, primary.name != before {
            log.info("output \(primary.name) is now the primary")
        }
    }

    private func handle(_ event: ScreenEvent, session: Session) {
        switch event {
        case .connected(let output):
            guard session.isChosen(output) else { return }
            outputsChanged()
            updateRoles(session)
            do {
                try openWindow(on: output, session: session)
            } catch {
                log.error("output \(output.name): \(error)")
            }
        case .changed(let output, let previous):
            windows[output.id]?.window.update(output)
            if windows[output.id] != nil { session.telemetry.register(output) }
            updateRoles(session)
            log.info("output \(output.name) changed: \(Session.describe(previous)) -> \(Session.describe(output))")
        case .disconnected(let output):
            session.telemetry.forget(output.id)
            outputsChanged()
            if let entry = windows.removeValue(forKey: output.id) {
                // The library told us first: the window goes before the output's proxies.
                entry.window.close()
                // A window's context, buffers and thread arena are freed now; hand the
                // pages back, or a long run with outputs coming and going creeps up.
                _ = malloc_trim(0)
                closed.append(statistics(of: entry, disconnected: true))
                log.info("output \(output.name): disconnected after \(entry.window.statistics.frames) frames")
            }
            updateRoles(session)
        }
    }

    /// Keys act on the whole run; the pointer and touches leave markers on their outputs.
    private func handle(_ input: InputEvent, session: Session) {
        switch input {
        case let .key(_, keysym, _, pressed):
            guard pressed, let action = KeyBindings.action(for: keysym) else { return }
            perform(action, session: session)
        case let .pointer(outputID, x, y):
            session.scene.update { state in
                for id in Array(state.markers.keys) { state.markers[id]?.removeAll { $0.kind == .pointer } }
                if let outputID { state.markers[outputID, default: []].append(Marker(kind: .pointer, x: x, y: y)) }
            }
        case .button:
            break
        case .touches(let points):
            session.scene.update { state in
                for id in Array(state.markers.keys) { state.markers[id]?.removeAll { $0.kind == .touch } }
                for point in points {
                    state.markers[point.outputID, default: []].append(Marker(kind: .touch, x: point.x, y: point.y))
                }
            }
        }
    }

    private func perform(_ action: KeyAction, session: Session) {
        switch action {
        case .toggleLayout:
            session.scene.update { $0.layout = $0.layout == .independent ? .mirror : .independent }
            log.info("layout: \(session.scene.snapshot.layout.rawValue)")
        case .newAccent:
            let accent = RGB(r: .random(in: 0.2...1), g: .random(in: 0.2...1), b: .random(in: 0.2...1))
            session.scene.update { $0.contentAccent = accent }
        case .nextPrimary:
            let outputs = session.chosenOutputs
            guard outputs.count > 1, let current = outputs.firstIndex(where: { $0.name == session.role.current }) else { return }
            session.role.requested = outputs[(current + 1) % outputs.count].name
            updateRoles(session)
        case .toggleFreeze:
            session.scene.toggleFrozen(now: MonotonicClock.now())
        case .quit:
            quitRequested = true
        }
    }

    private func statistics(of entry: Window, disconnected: Bool) -> RunStatistics.Entry {
        let stats = entry.window.statistics
        let output = entry.window.output
        var firstFrame: Double?
        if let first = stats.firstCommit, let announced = entry.announced {
            firstFrame = first > announced ? Double(first - announced) / 1e6 : 0
        }
        return .init(name: entry.name, frames: stats.frames, fps: stats.framesPerSecond, callbacks: stats.callbacks,
                     refresh_mhz: output.currentMode?.refreshMilliHertz ?? 0, pixel_width: output.pixelWidth,
                     pixel_height: output.pixelHeight, first_frame_ms: firstFrame, suspensions: stats.suspensions,
                     disconnected: disconnected)
    }

    /// Closes every window (in reverse order of opening) and returns all counters,
    /// those of outputs that left included.
    private func closeWindows() -> [RunStatistics.Entry] {
        var entries = closed
        for (_, entry) in windows.sorted(by: { $0.key > $1.key }) {
            entry.window.close()
            entries.append(statistics(of: entry, disconnected: false))
        }
        windows.removeAll()
        return entries.sorted { $0.name < $1.name }
    }
}

/// glibc's malloc_trim (malloc.h is not part of the Glibc module): returns free heap
/// pages of every arena to the kernel.
@_silgen_name("malloc_trim") private func malloc_trim(_ pad: Int) -> Int32
