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
        // Still pictures keep drawing: bench measures the pacing of every refresh.
        let stage = try Stage(options: options.run, command: "bench", log: log, input: false, rests: false)
        try stage.checkWall()
        try stage.applyModeSwitches()
        defer { stage.restoreModes() }
        guard !stage.display.outputs.isEmpty else { throw GloutError("there are no outputs to measure") }
        log.info("bench on \(stage.graphics.renderer): " + stage.display.outputs.map(Stage.describe).joined(separator: "; "))

        let modes: [PacingMode] = options.compare ? [.independent, .coupled] : [options.pacing]
        var runs: [BenchRun] = []
        for mode in modes {
            guard let run = try measure(mode, stage: stage) else { break }
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
                print("  \(Log.printable(output.name)): \(format(output.pacing.framesPerSecond, 2)) / "
                      + "\(format(coupled.pacing.framesPerSecond, 2)) = \(format(ratio, 2))x")
            }
        }
        if let jsonFile, let first = runs.first {
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
    private func measure(_ mode: PacingMode, stage: Stage) throws -> BenchRun? {
        let outputs = stage.display.outputs
        let started = MonotonicInstant.now
        let measuredFrom = started + .nanoseconds(Int64(BenchCommand.warmUp * 1e9))
        // CPU is counted from the end of the warm-up, like the frames.
        var before: ResourceUsage?
        var videoFramesBefore: [UInt32: Int] = [:]
        var coupled: CoupledLoop?
        defer {
            stage.display.closeWindows()
            coupled?.close()
        }
        switch mode {
        case .independent:
            try stage.display.start { [unowned stage] output in try stage.windowRequest(for: output, keepsEveryFrame: true) }
        case .coupled:
            let factories = Dictionary(uniqueKeysWithValues: outputs.map { ($0.id, stage.makeRenderer(for: $0)) })
            coupled = try CoupledLoop(outputs: outputs, tracker: stage.display.tracker, graphics: stage.graphics,
                                      framePath: options.run.framePath,
                                      appID: Stage.appID) { target in try factories[target.output.id]!(target) }
        }
        let windows = stage.display.windows
        let duration = options.run.duration ?? 30
        let deadline = started + .nanoseconds(Int64((duration + BenchCommand.warmUp) * 1e9))
        let progress = Progress(mode: mode, total: duration + BenchCommand.warmUp)
        var interrupted = false
        while MonotonicInstant.now < deadline {
            let now = MonotonicInstant.now
            if before == nil && now >= measuredFrom {
                before = ResourceUsage.now()
                for output in outputs { videoFramesBefore[output.id] = BenchCommand.videoFramesShown(output, telemetry: stage.telemetry) }
            }
            let next = before == nil ? measuredFrom : deadline
            let ready = try stage.display.dispatch(timeout: min(.milliseconds(500), next - now),
                                                   watching: [stage.signals.fileDescriptor])
            if !ready.isEmpty, !stage.signals.take().isEmpty {
                interrupted = true
                break
            }
            if let failure = coupled?.failure { throw GloutError("\(failure)") }
            progress.show(elapsed: (MonotonicInstant.now - started).inSeconds, rates: outputs.map { output in
                (output.name, windows[output.id]?.statistics.frames ?? UInt64(coupled?.frames(of: output.id) ?? 0))
            })
        }
        progress.finish()
        let ended = MonotonicInstant.now
        stage.display.closeWindows()
        coupled?.close()
        let after = ResourceUsage.now()
        if interrupted && ended < measuredFrom { return nil }

        let results = outputs.map { output in
            report(output, window: windows[output.id], coupled: coupled, measuredFrom: measuredFrom, stage: stage,
                   videoFramesBefore: videoFramesBefore[output.id] ?? 0)
        }
        let measuredFrames = results.reduce(0) { $0 + $1.pacing.frames }
        let cpu = Double(after.cpuNanoseconds - (before ?? after).cpuNanoseconds) / 1e6
        let videoFrames = results.reduce(0) { $0 + $1.videoFramesMeasured }
        return BenchRun(mode: mode, presentationClock: stage.display.tracker.presentationClock,
                        seconds: (ended - measuredFrom).inSeconds, outputs: results,
                        processCPUMillisecondsPerFrame: measuredFrames > 0 ? cpu / Double(measuredFrames) : 0,
                        processCPUMillisecondsPerVideoFrame: videoFrames > 0 ? cpu / Double(videoFrames) : nil,
                        peakRSSKilobytes: after.peakRSSKilobytes)
    }

    /// One output's part of a run: its frames committed after the warm-up, against its
    /// refresh, and what the compositor said of them.
    private func report(_ output: Output, window: OutputWindow?, coupled: CoupledLoop?, measuredFrom: MonotonicInstant,
                        stage: Stage, videoFramesBefore: Int) -> BenchRun.Output {
        let log = window?.frameLog ?? coupled?.frameLog(of: output.id) ?? FrameLog(capacity: nil)
        let samples = log.samples.filter { $0.commit >= measuredFrom }
        let startup = (log.opening + log.samples).filter { $0.commit < measuredFrom }
        let statistics = window?.statistics
        let period = output.currentMode?.refreshPeriod ?? statistics?.refreshPeriod ?? OutputMode.assumedRefreshPeriod
        let nanoseconds = UInt64(max(0, period.inNanoseconds))
        let interval = window?.displayLinkSettings.effectiveInterval(refreshPeriod: nanoseconds) ?? 1
        return .init(name: output.name, refreshMilliHertz: output.currentMode?.refreshMilliHertz ?? 0,
                     period: nanoseconds, pacing: OutputPacing(samples: samples, period: nanoseconds),
                     stallMilliseconds: options.run.stalls[output.name] ?? 0,
                     suspensions: statistics?.suspensions ?? 0,
                     feedbackMostOutstanding: statistics?.feedbackMostOutstanding ?? 0,
                     feedbackRequested: statistics?.feedbackRequested ?? 0,
                     feedbackDropped: statistics?.feedbackDropped ?? 0,
                     compositor: PresentationReport(steady: samples, startup: startup, period: nanoseconds, interval: interval),
                     fifo: statistics?.usesFifo ?? false, commitTiming: statistics?.usesCommitTiming ?? false,
                     timestampsHeld: statistics?.heldTimestamps ?? 0, interval: interval,
                     videos: stage.telemetry.videos(output.id).map(VideoReport.init),
                     videoFramesMeasured: BenchCommand.videoFramesShown(output, telemetry: stage.telemetry) - videoFramesBefore)
    }

    /// Video frames shown so far, each output's distinct frames of each of its videos
    /// added up: what the process's CPU in the measured window is divided by for its cost
    /// per video frame (the decoding, its conversion and every output's drawing of it).
    private static func videoFramesShown(_ output: Output, telemetry: Telemetry) -> Int {
        telemetry.videos(output.id).reduce(0) { $0 + $1.cadence.shown }
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
