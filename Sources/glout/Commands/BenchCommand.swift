import Foundation
import WaylandOutputs

/// `glout bench`: measures frame pacing on every chosen output for a while, prints a
/// table, and writes JSON and a plot on request.
final class BenchCommand {
    /// Frames in the first second are left out: shader compilation and first buffers
    /// are start-up, not pacing.
    static let warmUp: Double = 1

    private let options: BenchOptions
    private let log: Log

    init(options: BenchOptions, log: Log) {
        self.options = options
        self.log = log
    }

    func run() throws {
        let jsonFile = try options.json.map { try ReportFile(path: $0, option: "--json") }
        let plotFile = try options.plot.map { try ReportFile(path: $0, option: "--plot") }
        let session = try Session(options: options.run, log: log)
        try session.applyModeSwitches()
        defer { session.restoreModes() }
        guard !session.chosenOutputs.isEmpty else { throw GloutError("there are no outputs to measure") }
        log.info("bench on \(session.graphics.renderer): " + session.chosenOutputs.map(Session.describe).joined(separator: "; "))

        let modes: [PacingMode] = options.compare ? [.independent, .coupled] : [options.pacing]
        var runs: [BenchRun] = []
        for mode in modes {
            guard let run = try measure(mode, session: session) else { break }
            print(run.table())
            runs.append(run)
        }
        var ratios: [String: Double] = [:]
        if runs.count == 2 {
            print("independent / coupled frame rate:")
            for output in runs[0].outputs {
                guard let coupled = runs[1].outputs.first(where: { $0.name == output.name }),
                      coupled.pacing.framesPerSecond > 0 else { continue }
                let ratio = output.pacing.framesPerSecond / coupled.pacing.framesPerSecond
                ratios[output.name] = ratio
                print("  \(output.name): \(format(output.pacing.framesPerSecond, 2)) / "
                      + "\(format(coupled.pacing.framesPerSecond, 2)) = \(format(ratio, 2))x")
            }
        }
        if let jsonFile, let first = runs.first {
            struct Compared: Encodable {
                var outputs: JSON
                var coupled: JSON
                var ratio: [String: Double]
            }
            if runs.count == 2 {
                // The independent run at the top level, the coupled one beside it.
                try jsonFile.write(CompareReport(independent: first.json, coupled: runs[1].json, ratio: ratios))
            } else {
                try jsonFile.write(first.json)
            }
        }
        if let plotFile, !runs.isEmpty {
            try PacingPlot(runs: runs).write(to: plotFile.path)
        }
    }

    /// One measured run; nil when a signal cut it short before anything was measured.
    private func measure(_ mode: PacingMode, session: Session) throws -> BenchRun? {
        let outputs = session.chosenOutputs
        let started = MonotonicClock.now()
        let measuredFrom = started + UInt64(BenchCommand.warmUp * 1e9)
        // CPU is counted from the end of the warm-up, like the frames.
        var before: ResourceUsage?
        var windows: [UInt32: OutputWindow] = [:]
        var coupled: CoupledWindows?
        defer {
            for window in windows.values { window.close() }
            coupled?.close()
        }
        switch mode {
        case .independent:
            for output in outputs {
                let window = try OutputWindow(
                    output: output, screens: session.screens, graphics: session.graphics,
                    options: session.windowOptions(for: output, frameLogCapacity: nil),
                    makeRenderer: session.makeRenderer(for: output))
                window.displayLinkSettings = session.linkSettings(for: output)
                windows[output.id] = window
            }
        case .coupled:
            let factories = Dictionary(uniqueKeysWithValues: outputs.map { ($0.id, session.makeRenderer(for: $0)) })
            coupled = try CoupledWindows(outputs: outputs, screens: session.screens, graphics: session.graphics) { target in
                try factories[target.output.id]!(target)
            }
        }
        let duration = options.run.duration ?? 30
        let deadline = started + UInt64((duration + BenchCommand.warmUp) * 1e9)
        let progress = Progress(mode: mode, total: duration + BenchCommand.warmUp)
        var interrupted = false
        while MonotonicClock.now() < deadline {
            let now = MonotonicClock.now()
            if before == nil && now >= measuredFrom { before = ResourceUsage.now() }
            let next = before == nil ? measuredFrom : deadline
            let ready = try session.connection.dispatch(timeout: min(0.5, Double(next - now) / 1e9),
                                                        watching: [session.signals.fileDescriptor])
            if !ready.isEmpty, !session.signals.take().isEmpty {
                interrupted = true
                break
            }
            if let failure = windows.values.compactMap(\.failure).first ?? coupled?.failure {
                throw GloutError("\(failure)")
            }
            progress.show(elapsed: Double(MonotonicClock.now() - started) / 1e9, rates: outputs.map { output in
                (output.name, windows[output.id]?.statistics.frames ?? coupled?.frames(of: output.id) ?? 0)
            })
        }
        progress.finish()
        let ended = MonotonicClock.now()
        for window in windows.values { window.close() }
        coupled?.close()
        let after = ResourceUsage.now()
        if interrupted && ended < measuredFrom { return nil }

        var results: [BenchRun.Output] = []
        var measuredFrames = 0
        for output in outputs {
            let log = windows[output.id]?.frameLog ?? coupled?.frameLog(of: output.id) ?? FrameLog(capacity: nil)
            let samples = log.samples.filter { $0.commit >= measuredFrom }
            let statistics = windows[output.id]?.statistics
            let period = output.currentMode?.refreshPeriodNanoseconds ?? statistics?.refreshPeriod ?? 16_666_667
            let pacing = OutputPacing(samples: samples, period: period)
            measuredFrames += samples.count
            results.append(.init(name: output.name, refreshMilliHertz: output.currentMode?.refreshMilliHertz ?? 0,
                                 period: period, pacing: pacing, stallMilliseconds: options.run.stalls[output.name] ?? 0,
                                 suspensions: statistics?.suspensions ?? 0,
                                 feedbackMostOutstanding: statistics?.feedbackMostOutstanding ?? 0,
                                 feedbackDropped: statistics?.feedbackDropped ?? 0))
        }
        let cpu = Double(after.cpuNanoseconds - (before ?? after).cpuNanoseconds) / 1e6
        return BenchRun(mode: mode, seconds: Double(ended - measuredFrom) / 1e9, outputs: results,
                        processCPUMillisecondsPerFrame: measuredFrames > 0 ? cpu / Double(measuredFrames) : 0,
                        peakRSSKilobytes: after.peakRSSKilobytes)
    }
}

/// `--compare --json`: the independent run's report with the coupled one beside it.
struct CompareReport: Encodable {
    var independent: JSON
    var coupled: JSON
    var ratio: [String: Double]

    func encode(to encoder: any Encoder) throws {
        // {"outputs", "pacing"} of the independent run, then "coupled" and "ratio".
        try independent.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(coupled, forKey: Key("coupled"))
        try container.encode(ratio, forKey: Key("ratio"))
    }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

/// CPU time and peak memory of this process (getrusage).
struct ResourceUsage {
    var cpuNanoseconds: UInt64
    var peakRSSKilobytes: Int

    static func now() -> ResourceUsage {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        let user = UInt64(usage.ru_utime.tv_sec) * 1_000_000_000 + UInt64(usage.ru_utime.tv_usec) * 1000
        let system = UInt64(usage.ru_stime.tv_sec) * 1_000_000_000 + UInt64(usage.ru_stime.tv_usec) * 1000
        return ResourceUsage(cpuNanoseconds: user + system, peakRSSKilobytes: usage.ru_maxrss)
    }
}

/// The progress line on standard error: rewritten in place on a terminal, a line every
/// five seconds otherwise.
final class Progress {
    private let mode: PacingMode
    private let total: Double
    private let terminal = isatty(2) == 1
    private var lastShown = -1.0
    private var lastFrames: [String: (UInt64, Double)] = [:]

    init(mode: PacingMode, total: Double) {
        self.mode = mode
        self.total = total
    }

    func show(elapsed: Double, rates: [(String, UInt64)]) {
        let step = terminal ? 1.0 : 5.0
        guard elapsed - lastShown >= step else { return }
        var parts: [String] = []
        for (name, frames) in rates {
            if let (previous, at) = lastFrames[name], elapsed > at {
                parts.append("\(name) \(format(Double(frames - min(previous, frames)) / (elapsed - at), 1))/s")
            } else {
                parts.append("\(name) -")
            }
            lastFrames[name] = (frames, elapsed)
        }
        lastShown = elapsed
        let line = "bench \(mode.rawValue): \(Int(elapsed))/\(Int(total)) s  " + parts.joined(separator: "  ")
        writeStandardError(terminal ? "\r\u{1B}[K" + line : line + "\n")
    }

    func finish() {
        if terminal && lastShown >= 0 { writeStandardError("\r\u{1B}[K") }
    }
}
