import Foundation
import WaylandOutputs

/// `glout run`: a fullscreen window on every chosen output, each paced by its own
/// display link, until the duration ends, a signal arrives or the compositor goes.
final class RunCommand {
    private let options: RunOptions
    private let log: Log
    private var windows: [UInt32: OutputWindow] = [:]
    private var names: [UInt32: String] = [:]

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
            for output in session.chosenOutputs {
                try openWindow(on: output, session: session)
            }
            session.screens.onEvent = { [unowned self] event in handle(event, session: session) }
            endedBy = try loop(session: session)
        } catch {
            failure = GloutError(error)
        }
        let duration = Double(MonotonicClock.now() - started) / 1e9
        let statistics = closeWindows()
        if let statsFile {
            try statsFile.write(RunStatistics(layout: options.layout.rawValue, duration_s: duration, outputs: statistics,
                                              ended_by: endedBy, error: failure?.message))
        }
        if let failure { throw failure }
    }

    /// Runs until the duration ends, a signal arrives, a window is closed or fails.
    private func loop(session: Session) throws -> String {
        let deadline = options.duration.map { MonotonicClock.now() + UInt64($0 * 1e9) }
        while true {
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
            for window in windows.values {
                if let error = window.failure {
                    throw GloutError("output \(names[window.outputID] ?? "?"): \(error)")
                }
                if window.closeRequested {
                    log.info("the compositor closed the window on \(names[window.outputID] ?? "?"): closing")
                    return "closed"
                }
            }
        }
    }

    private func openWindow(on output: Output, session: Session) throws {
        names[output.id] = output.name
        log.info("output \(Session.describe(output))")
        let window = try OutputWindow(output: output, screens: session.screens, graphics: session.graphics,
                                      makeRenderer: session.makeRenderer(for: output))
        window.displayLinkSettings = session.linkSettings(for: output)
        windows[output.id] = window
    }

    private func handle(_ event: ScreenEvent, session: Session) {
        switch event {
        case .connected(let output):
            guard session.isChosen(output) else { return }
            session.scene.setPrimary(session.primary)
            do {
                try openWindow(on: output, session: session)
            } catch {
                log.error("output \(output.name): \(error)")
            }
        case .changed(let output, _):
            windows[output.id]?.update(output)
            session.scene.setPrimary(session.primary)
        case .disconnected(let output):
            if let window = windows.removeValue(forKey: output.id) {
                window.close()
                log.info("output \(output.name): disconnected")
            }
            session.scene.setPrimary(session.primary)
        }
    }

    /// Closes every window (in reverse order of opening) and returns their counters.
    private func closeWindows() -> [RunStatistics.Entry] {
        var entries: [RunStatistics.Entry] = []
        for (id, window) in windows.sorted(by: { $0.key > $1.key }) {
            window.close()
            let stats = window.statistics
            let output = window.output
            entries.append(.init(name: names[id] ?? output.name, frames: stats.frames, fps: stats.framesPerSecond,
                                 callbacks: stats.callbacks, refresh_mhz: output.currentMode?.refreshMilliHertz ?? 0,
                                 pixel_width: output.pixelWidth, pixel_height: output.pixelHeight))
        }
        windows.removeAll()
        return entries.sorted { $0.name < $1.name }
    }
}
