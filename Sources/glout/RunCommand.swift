import CGLES
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
        let signals = try SignalWatch()
        let connection = try Connection(log: log)
        let screens = Screens(connection: connection, preferredPrimary: options.primary)
        try screens.start()
        try checkNames(screens)
        try screens.requireWindowing()

        let graphics = try Graphics(connection: connection)
        let library = try ShaderSource.library(directory: options.shaderDirectory)
        let (control, content) = try graphics.withSharedContext {
            (try ShaderProgram(vertex: "fullscreen.vert", fragment: "control.frag", library: library),
             try ShaderProgram(vertex: "fullscreen.vert", fragment: "content.frag", library: library))
        }
        defer { _ = try? graphics.withSharedContext { _ = (control, content) } }
        let programs = ScenePrograms(control: control.program, content: content.program)
        let scene = Scene(.init(layout: options.layout, frozen: options.frozen, start: MonotonicClock.now()))

        let started = MonotonicClock.now()
        var endedBy = "error"
        var failure: GloutError?
        do {
            scene.setPrimary(primary(of: screens))
            for output in screens.outputs where isChosen(output) {
                try openWindow(on: output, screens: screens, graphics: graphics, scene: scene, programs: programs)
            }
            screens.onEvent = { [unowned self] event in
                handle(event, screens: screens, graphics: graphics, scene: scene, programs: programs)
            }
            endedBy = try loop(connection: connection, signals: signals)
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
    private func loop(connection: Connection, signals: SignalWatch) throws -> String {
        let deadline = options.duration.map { MonotonicClock.now() + UInt64($0 * 1e9) }
        while true {
            var timeout: Double?
            if let deadline {
                let now = MonotonicClock.now()
                if now >= deadline { return "duration" }
                timeout = Double(deadline - now) / 1e9
            }
            let ready = try connection.dispatch(timeout: timeout, watching: [signals.fileDescriptor])
            if !ready.isEmpty, let signal = signals.take().first {
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

    private func checkNames(_ screens: Screens) throws {
        let available = screens.outputs.map(\.name)
        let list = available.isEmpty ? "there are none" : "the outputs are " + available.joined(separator: ", ")
        for name in options.outputs ?? [] where !available.contains(name) {
            throw UsageError(message: "--outputs: no output named \(name); \(list)", command: "run")
        }
        if let primary = options.primary {
            guard available.contains(primary) else {
                throw UsageError(message: "--primary: no output named \(primary); \(list)", command: "run")
            }
            if let chosen = options.outputs, !chosen.contains(primary) {
                throw UsageError(message: "--primary \(primary) is not among --outputs \(chosen.joined(separator: ","))",
                                 command: "run")
            }
        }
    }

    private func isChosen(_ output: Output) -> Bool {
        options.outputs.map { $0.contains(output.name) } ?? true
    }

    /// The primary among the outputs glout drives.
    private func primary(of screens: Screens) -> Output? {
        ScreenOrder.primary(of: screens.outputs.filter(isChosen), preferred: options.primary)
    }

    private func openWindow(on output: Output, screens: Screens, graphics: Graphics, scene: Scene,
                            programs: ScenePrograms) throws {
        names[output.id] = output.name
        log.info("output \(output.name): \(output.currentMode?.description ?? "no mode"), scale \(output.scale), "
                 + "\(output.logicalWidth)x\(output.logicalHeight) at \(output.logicalX),\(output.logicalY)")
        windows[output.id] = try OutputWindow(output: output, screens: screens, graphics: graphics) { _ in
            SceneRenderer(scene: scene, programs: programs)
        }
    }

    private func handle(_ event: ScreenEvent, screens: Screens, graphics: Graphics, scene: Scene,
                        programs: ScenePrograms) {
        switch event {
        case .connected(let output):
            guard isChosen(output) else { return }
            scene.setPrimary(primary(of: screens))
            do {
                try openWindow(on: output, screens: screens, graphics: graphics, scene: scene, programs: programs)
            } catch {
                log.error("output \(output.name): \(error)")
            }
        case .changed(let output, _):
            windows[output.id]?.update(output)
            scene.setPrimary(primary(of: screens))
        case .disconnected(let output):
            if let window = windows.removeValue(forKey: output.id) {
                window.close()
                log.info("output \(output.name): disconnected")
            }
            scene.setPrimary(primary(of: screens))
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
