/// glout's command line, parsed into values. Pure: no I/O, so every rule is unit-tested.

/// How the outputs share the picture.
enum LayoutMode: String, Sendable, CaseIterable {
    /// The primary shows the control view, every other output the content view.
    case independent
    /// Every output shows the primary's picture, letterboxed into its own pixels.
    case mirror
    /// One canvas across the outputs, each showing its own part (the primary keeps the
    /// control view unless --control none).
    case span

    /// The next layout the m key gives.
    var next: LayoutMode {
        switch self {
        case .independent: .mirror
        case .mirror: .span
        case .span: .independent
        }
    }
}

struct ProtocolsOptions: Equatable, Sendable {
    var json = false
}

struct OutputsOptions: Equatable, Sendable {
    var json = false
    var primary: String?
    /// Print connected / changed / disconnected events as they happen.
    var watch = false
    /// With --watch: stop after this many seconds.
    var duration: Double?
    /// Print the outputs as a wall file (the schema of --wall) instead.
    var wallJSON = false
    /// With --wall-json: the machine's name and the bezels.
    var machine: String?
    var bezels: [String: BezelRequest] = [:]
}

import WaylandOutputs

/// What glout draws.
enum SceneKind: String, Sendable, CaseIterable {
    /// The control and content views.
    case views
    /// One turning triangle on black, weston-simple-egl's workload (CPU comparisons).
    case triangle
    /// A test pattern for people and cameras (PacingRenderer).
    case pacing
}

/// How bench paces the outputs.
enum PacingMode: String, Sendable, CaseIterable {
    /// A display link per output, each on its own thread (what glout does).
    case independent
    /// The usual loop: one thread, eglSwapInterval(1), surfaces swapped in turn.
    case coupled
}

struct RunOptions: Equatable, Sendable {
    var layout = LayoutMode.independent
    var scene = SceneKind.views
    var primary: String?
    /// Only these outputs get a window; nil means all.
    var outputs: [String]?
    /// Seconds to run; nil runs until interrupted.
    var duration: Double?
    /// Draw every frame at this scene time.
    var frozen: Double?
    var statsJSON: String?
    /// --landings-json: every output's recent frames, target and landing, on exit.
    var landingsJSON: String?
    /// Exit (status 0) when no output is left to draw on, instead of waiting for one.
    var exitWhenNoOutputs = false
    /// Load shaders from this folder instead of the built-in copies.
    var shaderDirectory: String?
    /// Milliseconds of extra work added to every frame of the named outputs.
    var stalls: [String: Double] = [:]
    /// Preferred frames per second (DisplayLinkSettings.preferredFramesPerSecond), per
    /// output name; the entry "" applies to every output not named. The same holds for
    /// the per-output maps below.
    var framesPerSecond: [String: Double] = [:]
    /// Render resolution per output (--mode), fitted to the output by `scaleMode`.
    var renderModes: [String: ModeRequest] = [:]
    var scaleMode = ScaleMode.fit
    /// --targets: frames aimed at the refresh presentation times predict (with fifo and
    /// commit timing where offered), or at the frame-callback estimate.
    var presentationTargets = true
    /// --commit-timing: each commit also carries its target as a wp_commit_timer_v1
    /// timestamp, where offered.
    var commitTiming = false
    /// --frame-path: how frames reach the compositor (FullscreenSurface.Options.FramePath).
    var framePath = FullscreenSurface.Options.FramePath.automatic
    /// --allow-custom: a --mode size the output does not list is drawn anyway.
    var allowCustom = false
    /// Real mode switches (--set-mode), by output name.
    var setModes: [String: ModeRequest] = [:]
    var overscan: [String: Overscan] = [:]
    /// Safe-area insets in points.
    var safeAreas: [String: Insets] = [:]
    /// Span: whether the primary keeps the control view (--control), the bezels per
    /// output, the wall file, this machine's name in it and the clock of scene time.
    var showsControl = true
    /// --no-live: the dashboard without its live rates and graphs (a control view that
    /// can stand still).
    var live = true
    /// --no-label: the content view without its identification label; --identify: every
    /// output shows its name in large type for the first seconds.
    var label = true
    var identify = false
    /// --content: a file shown instead of the content view, per output name ("" for
    /// every output not named).
    var contents: [String: String] = [:]
    /// --scene pacing: a white flash every this many refreshes (0: none).
    var flashEvery = 60
    var bezels: [String: BezelRequest] = [:]
    var wallFile: String?
    var machine: String?
    var clock: SceneClock?
    /// --video-sync: a video keeps the content clock's time (time), or plays up to 1%
    /// faster or slower so that each frame holds a whole number of refreshes (speed).
    var videoSync: VideoSync = .time
    /// --video-conversion: where a video's Y'CbCr becomes RGB (auto: libswscale where GL
    /// shades on the CPU, the shader elsewhere).
    var videoConversion: VideoConversion = .auto
    /// --video-decoder: VA-API where the machine has it (auto), software, or VA-API only.
    var videoDecoding: VideoDecoding = .auto

    /// The preferred rate for an output, if any.
    func framesPerSecond(for name: String) -> Double? { framesPerSecond[name] ?? framesPerSecond[""] }

    /// The overscan and safe area of an output.
    func framing(for name: String) -> OutputFraming {
        OutputFraming(overscan: overscan[name] ?? overscan[""] ?? .none, safeArea: safeAreas[name] ?? safeAreas[""] ?? .zero)
    }

    /// The render mode asked for an output, if any.
    func renderMode(for name: String) -> ModeRequest? { renderModes[name] ?? renderModes[""] }
}

struct BenchOptions: Equatable, Sendable {
    /// The scene options; `duration` defaults to 30 s here.
    var run = RunOptions(duration: 30)
    var json: String?
    var plot: String?
    var pacing = PacingMode.independent
    /// Run independent, then coupled, and print the ratio per output.
    var compare = false
}

struct SnapshotOptions: Equatable, Sendable {
    /// The scene options (--frozen and the rest) as run takes them.
    var run = RunOptions()
    /// The folder for the outputs' pictures, or with `canvas` the canvas's PNG file.
    var out: String
    /// Draw the whole span canvas as one picture, at `canvasScale` pixels per point
    /// (nil: the largest scale of this machine's outputs in it).
    var canvas = false
    var canvasScale: Double?
}

enum Command: Equatable, Sendable {
    case help(topic: String?)
    case version
    case outputs(OutputsOptions)
    case protocols(ProtocolsOptions)
    case run(RunOptions)
    case bench(BenchOptions)
    case snapshot(SnapshotOptions)
}

/// A mistake on the command line; glout prints it with a hint and exits with status 2.
struct UsageError: Error, Equatable, CustomStringConvertible {
    var message: String
    /// The subcommand whose help to point at.
    var command: String?
    var description: String { message }
}

enum Arguments {
    static let commands = ["run", "outputs", "protocols", "bench", "snapshot"]

    /// Parses the arguments after the program name.
    static func parse(_ arguments: [String]) throws(UsageError) -> Command {
        guard let first = arguments.first else { return .run(RunOptions()) }
        switch first {
        case "--help", "-h", "help":
            if first == "help", arguments.count > 1 {
                let topic = arguments[1]
                guard commands.contains(topic) else {
                    throw UsageError(message: "no help for '\(topic)': the commands are \(commands.joined(separator: ", "))")
                }
                return .help(topic: topic)
            }
            return .help(topic: nil)
        case "--version", "-V":
            return .version
        case "outputs":
            return try parseOutputs(Array(arguments.dropFirst()))
        case "protocols":
            return try parseProtocols(Array(arguments.dropFirst()))
        case "run":
            return try parseRun(Array(arguments.dropFirst()), command: "run")
        case "bench":
            return try parseBench(Array(arguments.dropFirst()))
        case "snapshot":
            return try parseSnapshot(Array(arguments.dropFirst()))
        default:
            if first.hasPrefix("-") { return try parseRun(arguments, command: "run") }
            throw UsageError(message: "unknown command '\(first)': the commands are \(commands.joined(separator: ", "))")
        }
    }

    private static func parseProtocols(_ arguments: [String]) throws(UsageError) -> Command {
        var options = ProtocolsOptions()
        var reader = OptionReader(arguments, command: "protocols")
        while let option = try reader.next() {
            switch option {
            case "--help", "-h": try reader.flag(option); return .help(topic: "protocols")
            case "--json": try reader.flag(option); options.json = true
            default: throw reader.unknown(option)
            }
        }
        return .protocols(options)
    }

    private static func parseOutputs(_ arguments: [String]) throws(UsageError) -> Command {
        var options = OutputsOptions()
        var reader = OptionReader(arguments, command: "outputs")
        while let option = try reader.next() {
            switch option {
            case "--help", "-h": try reader.flag(option); return .help(topic: "outputs")
            case "--json": try reader.flag(option); options.json = true
            case "--primary": options.primary = try reader.name(for: option)
            case "--watch": try reader.flag(option); options.watch = true
            case "--duration": options.duration = try reader.seconds(for: option, allowZero: false)
            case "--wall-json": try reader.flag(option); options.wallJSON = true
            case "--machine": options.machine = try reader.machine(for: option)
            case "--bezel":
                let (name, request) = try reader.bezel(for: option)
                options.bezels[name] = request
            default: throw reader.unknown(option)
            }
        }
        if options.duration != nil && !options.watch {
            throw reader.error("--duration applies to --watch only")
        }
        if options.wallJSON && (options.json || options.watch) {
            throw reader.error("--wall-json prints the wall file; leave out \(options.json ? "--json" : "--watch")")
        }
        if !options.wallJSON, options.machine != nil || !options.bezels.isEmpty {
            throw reader.error("\(options.machine != nil ? "--machine" : "--bezel") applies to --wall-json only")
        }
        return .outputs(options)
    }

    private static func parseRun(_ arguments: [String], command: String) throws(UsageError) -> Command {
        var options = RunOptions()
        var reader = OptionReader(arguments, command: command)
        while let option = try reader.next() {
            switch option {
            case "--help", "-h": try reader.flag(option); return .help(topic: command)
            case "--duration": options.duration = try reader.seconds(for: option, allowZero: false)
            case "--stats-json": options.statsJSON = try reader.path(for: option)
            case "--landings-json": options.landingsJSON = try reader.path(for: option)
            case "--exit-when-no-outputs": try reader.flag(option); options.exitWhenNoOutputs = true
            default: try parseSceneOption(option, into: &options, reader: &reader)
            }
        }
        try checkSpan(options, reader: reader)
        return .run(options)
    }

    private static func parseBench(_ arguments: [String]) throws(UsageError) -> Command {
        var options = BenchOptions()
        var reader = OptionReader(arguments, command: "bench")
        while let option = try reader.next() {
            switch option {
            case "--help", "-h": try reader.flag(option); return .help(topic: "bench")
            case "--json": options.json = try reader.path(for: option)
            case "--plot":
                let path = try reader.path(for: option)
                guard path.lowercased().hasSuffix(".png") else { throw reader.error("--plot writes a PNG: give a file name ending in .png, not '\(path)'") }
                options.plot = path
            case "--pacing":
                let value = try reader.value(for: option)
                guard let pacing = PacingMode(rawValue: value) else {
                    throw reader.error("--pacing must be independent or coupled, not '\(value)'")
                }
                options.pacing = pacing
            case "--compare": try reader.flag(option); options.compare = true
            case "--duration": options.run.duration = try reader.seconds(for: option, allowZero: false)
            default: try parseSceneOption(option, into: &options.run, reader: &reader)
            }
        }
        if options.compare && options.pacing == .coupled {
            throw reader.error("--compare runs both pacings; leave out --pacing coupled")
        }
        try checkSpan(options.run, reader: reader)
        return .bench(options)
    }

    private static func parseSnapshot(_ arguments: [String]) throws(UsageError) -> Command {
        var run = RunOptions()
        var out: String?
        var canvas = false, canvasScale: Double?, layoutGiven = false
        var reader = OptionReader(arguments, command: "snapshot")
        while let option = try reader.next() {
            switch option {
            case "--help", "-h": try reader.flag(option); return .help(topic: "snapshot")
            case "--out": out = try reader.path(for: option)
            case "--canvas": try reader.flag(option); canvas = true
            case "--canvas-scale":
                let value = try reader.value(for: option)
                guard let scale = Double(value), scale.isFinite, scale >= 0.25, scale <= 8 else {
                    throw reader.error("--canvas-scale needs pixels per point, 0.25 to 8, not '\(value)'")
                }
                canvasScale = scale
            case "--layout":
                layoutGiven = true
                try parseSceneOption(option, into: &run, reader: &reader)
            default: try parseSceneOption(option, into: &run, reader: &reader)
            }
        }
        guard let out else { throw reader.error(canvas ? "snapshot --canvas needs --out FILE.png" : "snapshot needs --out DIR") }
        if canvas {
            if layoutGiven && run.layout != .span {
                throw reader.error("--canvas draws the span layout's canvas; leave out --layout \(run.layout.rawValue)")
            }
            guard out.lowercased().hasSuffix(".png") else {
                throw reader.error("--canvas writes one PNG: give --out a file name ending in .png, not '\(out)'")
            }
            if !run.contents.isEmpty {
                throw reader.error("--canvas draws the span's test pattern, not --content; "
                                   + "without --canvas, snapshot draws each output's part of the content")
            }
            run.layout = .span
        } else if canvasScale != nil {
            throw reader.error("--canvas-scale applies to --canvas only")
        }
        try checkSpan(run, reader: reader)
        return .snapshot(SnapshotOptions(run: run, out: out, canvas: canvas, canvasScale: canvasScale))
    }

    /// The span options that exclude each other: a wall file gives the bezels.
    private static func checkSpan(_ options: RunOptions, reader: OptionReader) throws(UsageError) {
        if options.wallFile != nil && !options.bezels.isEmpty {
            throw reader.error("--bezel: the wall file gives every output's bezels; set them there")
        }
        if options.videoSync == .speed && (options.clock == .realtime || options.wallFile != nil) {
            throw reader.error("--video-sync speed plays videos off the shared clock's time; it cannot go with "
                               + (options.wallFile != nil ? "--wall" : "--clock realtime"))
        }
    }

    /// The options run, bench and snapshot share.
    private static func parseSceneOption(_ option: String, into options: inout RunOptions,
                                         reader: inout OptionReader) throws(UsageError) {
            switch option {
            case "--layout":
                let value = try reader.value(for: option)
                guard let layout = LayoutMode(rawValue: value) else {
                    throw reader.error("--layout must be independent, mirror or span, not '\(value)'")
                }
                options.layout = layout
            case "--scene":
                let value = try reader.value(for: option)
                guard let scene = SceneKind(rawValue: value) else {
                    throw reader.error("--scene must be views, triangle or pacing, not '\(value)'")
                }
                options.scene = scene
            case "--primary": options.primary = try reader.name(for: option)
            case "--outputs": options.outputs = try reader.names(for: option)
            case "--frozen": options.frozen = try reader.seconds(for: option, allowZero: true)
            case "--shaders": options.shaderDirectory = try reader.path(for: option)
            case "--stall":
                let (name, milliseconds) = try reader.stall(for: option)
                options.stalls[name] = milliseconds
            case "--fps":
                let (name, rate) = try reader.rate(for: option)
                options.framesPerSecond[name] = rate
            case "--mode":
                let (name, value) = try reader.perOutput(for: option)
                guard let request = ModeRequest(value) else {
                    throw reader.error("--mode needs preferred, current, highest, lowest or WxH[@HZ] (1 to 16384 pixels, "
                                       + "above 0 and at most 1000 Hz), not '\(value)'")
                }
                options.renderModes[name] = request
            case "--targets":
                let value = try reader.value(for: option)
                guard value == "presented" || value == "estimated" else {
                    throw reader.error("--targets must be presented or estimated, not '\(value)'")
                }
                options.presentationTargets = value == "presented"
            case "--commit-timing": try reader.flag(option); options.commitTiming = true
            case "--frame-path":
                let value = try reader.value(for: option)
                let paths: [String: FullscreenSurface.Options.FramePath] = ["auto": .automatic, "egl": .eglWindow,
                                                                             "shm": .sharedMemory]
                guard let path = paths[value] else { throw reader.error("--frame-path must be auto, egl or shm, not '\(value)'") }
                options.framePath = path
            case "--scale-mode":
                let value = try reader.value(for: option)
                guard let mode = ScaleMode(rawValue: value) else {
                    throw reader.error("--scale-mode must be fit, fill or stretch, not '\(value)'")
                }
                options.scaleMode = mode
            case "--allow-custom": try reader.flag(option); options.allowCustom = true
            case "--set-mode":
                let (name, value) = try reader.perOutput(for: option)
                guard !name.isEmpty, let request = ModeRequest(value), case .size = request else {
                    throw reader.error("--set-mode needs NAME=WxH[@HZ] (1 to 16384 pixels, above 0 and at most 1000 Hz), "
                                       + "not '\(name.isEmpty ? value : name + "=" + value)'")
                }
                options.setModes[name] = request
            case "--overscan":
                let (name, value) = try reader.perOutput(for: option)
                options.overscan[name] = try reader.overscan(value)
            case "--safe-area":
                let (name, value) = try reader.perOutput(for: option)
                guard let insets = OptionReader.insets(value), [insets.top, insets.right, insets.bottom, insets.left].allSatisfy({ $0 <= 10_000 }) else {
                    throw reader.error("--safe-area needs [NAME=]T,R,B,L in points (0 to 10000 each), not '\(value)'")
                }
                options.safeAreas[name] = insets
            case "--no-live": try reader.flag(option); options.live = false
            case "--no-label": try reader.flag(option); options.label = false
            case "--flash-every":
                let value = try reader.value(for: option)
                guard let count = Int(value), (0...100_000).contains(count) else {
                    throw reader.error("--flash-every needs a number of refreshes from 0 (no flash) to 100000, not '\(value)'")
                }
                options.flashEvery = count
            case "--content":
                let (name, path) = try reader.content(for: option)
                options.contents[name] = path
            case "--identify": try reader.flag(option); options.identify = true
            case "--control":
                let value = try reader.value(for: option)
                guard value == "primary" || value == "none" else {
                    throw reader.error("--control must be primary or none, not '\(value)'")
                }
                options.showsControl = value == "primary"
            case "--bezel":
                let (name, request) = try reader.bezel(for: option)
                options.bezels[name] = request
            case "--wall": options.wallFile = try reader.path(for: option)
            case "--machine": options.machine = try reader.machine(for: option)
            case "--clock":
                let value = try reader.value(for: option)
                guard let clock = SceneClock(rawValue: value) else {
                    throw reader.error("--clock must be monotonic or realtime, not '\(value)'")
                }
                options.clock = clock
            case "--video-sync":
                let value = try reader.value(for: option)
                guard let sync = VideoSync(rawValue: value) else {
                    throw reader.error("--video-sync must be time or speed, not '\(value)'")
                }
                options.videoSync = sync
            case "--video-conversion":
                let value = try reader.value(for: option)
                guard let conversion = VideoConversion(rawValue: value) else {
                    throw reader.error("--video-conversion must be auto, shader or swscale, not '\(value)'")
                }
                options.videoConversion = conversion
            case "--video-decoder":
                let value = try reader.value(for: option)
                guard let decoding = VideoDecoding(rawValue: value) else {
                    throw reader.error("--video-decoder must be auto, software or vaapi, not '\(value)'")
                }
                options.videoDecoding = decoding
            default: throw reader.unknown(option)
            }
    }
}

/// Walks `--name value` and `--name=value` options one by one.
struct OptionReader {
    private var arguments: ArraySlice<String>
    private var inlineValue: String?
    let command: String

    init(_ arguments: [String], command: String) {
        self.arguments = arguments[...]
        self.command = command
    }

    /// The next option name, or nil at the end.
    mutating func next() throws(UsageError) -> String? {
        if let inlineValue { throw error("unexpected value '\(inlineValue)'") }
        guard let argument = arguments.popFirst() else { return nil }
        guard argument.hasPrefix("-"), argument.count > 1 else {
            throw error("unexpected argument '\(argument)' (options start with --)")
        }
        if argument.hasPrefix("--"), let eq = argument.firstIndex(of: "=") {
            inlineValue = String(argument[argument.index(after: eq)...])
            return String(argument[..<eq])
        }
        return argument
    }

    /// Rejects `--flag=value` for an option that takes no value.
    mutating func flag(_ option: String) throws(UsageError) {
        if let value = inlineValue { throw error("\(option) takes no value, not '\(value)'") }
    }

    /// The value of `option`, from `--option=value` or the next argument.
    mutating func value(for option: String) throws(UsageError) -> String {
        if let value = inlineValue {
            inlineValue = nil
            return value
        }
        guard let value = arguments.popFirst() else { throw error("\(option) needs a value") }
        return value
    }

    mutating func name(for option: String) throws(UsageError) -> String {
        let value = try value(for: option)
        guard !value.isEmpty, !value.contains(","), !value.contains(where: \.isWhitespace) else {
            throw error("\(option) needs one output name, not '\(value)'")
        }
        return value
    }

    mutating func names(for option: String) throws(UsageError) -> [String] {
        let value = try value(for: option)
        let names = value.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard !names.isEmpty, names.allSatisfy({ !$0.isEmpty && !$0.contains(where: \.isWhitespace) }) else {
            throw error("\(option) needs output names separated by commas, not '\(value)'")
        }
        var seen = Set<String>()
        for name in names where !seen.insert(name).inserted {
            throw error("\(option) names \(name) twice")
        }
        return names
    }

    /// The most seconds any option takes (about 31 years): a time this long, in
    /// nanoseconds, still adds to the monotonic clock without overflow.
    static let maximumSeconds: Double = 1_000_000_000

    mutating func seconds(for option: String, allowZero: Bool) throws(UsageError) -> Double {
        let value = try value(for: option)
        guard let seconds = Double(value), seconds.isFinite, allowZero ? seconds >= 0 : seconds > 0,
              seconds <= OptionReader.maximumSeconds else {
            let bound = allowZero ? "0 or more" : "more than 0"
            throw error("\(option) needs a number of seconds, \(bound) and at most 1000000000, not '\(value)'")
        }
        return seconds
    }

    mutating func path(for option: String) throws(UsageError) -> String {
        let value = try value(for: option)
        guard !value.isEmpty else { throw error("\(option) needs a path") }
        return value
    }

    /// NAME=MS: an output name and a number of milliseconds, 0 to 10000.
    mutating func stall(for option: String) throws(UsageError) -> (String, Double) {
        let value = try value(for: option)
        let parts = value.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty, !parts[0].contains(","),
              let milliseconds = Double(parts[1]), milliseconds.isFinite, milliseconds >= 0, milliseconds <= 10_000
        else { throw error("\(option) needs NAME=MS (an output and 0 to 10000 milliseconds), not '\(value)'") }
        return (parts[0], milliseconds)
    }

    /// [NAME=]FPS: an optional output name and a rate above 0 ("" for every output).
    mutating func rate(for option: String) throws(UsageError) -> (String, Double) {
        let value = try value(for: option)
        let parts = value.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let name = parts.count == 2 ? parts[0] : ""
        guard parts.count == 1 || !name.isEmpty, let rate = Double(parts.last!), rate.isFinite, rate > 0, rate <= 1000
        else { throw error("\(option) needs [NAME=]FPS (frames per second, above 0 and at most 1000), not '\(value)'") }
        return (name, rate)
    }

    /// [NAME=]VALUE: the output name ("" for every output) and the value.
    /// [NAME=]FILE: a NAME has no "/" in it, so a path with "=" stays a path.
    mutating func content(for option: String) throws(UsageError) -> (String, String) {
        let value = try value(for: option)
        if let eq = value.firstIndex(of: "="), !value[..<eq].contains("/") {
            let name = String(value[..<eq]), path = String(value[value.index(after: eq)...])
            guard !name.isEmpty, !path.isEmpty else { throw error("\(option) needs [NAME=]FILE, not '\(value)'") }
            return (name, path)
        }
        guard !value.isEmpty else { throw error("\(option) needs [NAME=]FILE") }
        return ("", value)
    }

    mutating func perOutput(for option: String) throws(UsageError) -> (String, String) {
        let value = try value(for: option)
        guard let eq = value.firstIndex(of: "=") else { return ("", value) }
        let name = String(value[..<eq]), rest = String(value[value.index(after: eq)...])
        guard !name.isEmpty, !rest.isEmpty else { throw error("\(option) needs [NAME=]VALUE, not '\(value)'") }
        return (name, rest)
    }

    /// none | scale[:PCT] | inset[:T,R,B,L] (or one percentage for every edge).
    func overscan(_ value: String) throws(UsageError) -> Overscan {
        let parts = value.split(separator: ":", maxSplits: 1).map(String.init)
        switch parts.first {
        case "none" where parts.count == 1:
            return .none
        case "scale":
            guard parts.count == 1 else {
                guard let percent = Double(parts[1]), percent >= 0, percent < 100 else { break }
                return .scale(percent: percent)
            }
            return .scale(percent: 10)
        case "inset":
            guard parts.count == 2 else { return .inset(Insets(all: 5)) }
            if let all = Double(parts[1]), all >= 0, all < 50 { return .inset(Insets(all: all)) }
            if let insets = OptionReader.insets(parts[1]), insets.left + insets.right < 100, insets.top + insets.bottom < 100 {
                return .inset(insets)
            }
        default:
            break
        }
        throw error("--overscan needs [NAME=]none, scale[:PCT] (0 to under 100 percent) or inset[:T,R,B,L] "
                    + "(percent, 0 or more, each pair of opposite edges under 100), not '\(value)'")
    }

    /// [NAME=]MM, [NAME=]T,R,B,L, each with an optional px suffix (points).
    mutating func bezel(for option: String) throws(UsageError) -> (String, BezelRequest) {
        let (name, value) = try perOutput(for: option)
        guard let request = BezelRequest(value) else {
            throw error("\(option) needs [NAME=]MM or [NAME=]T,R,B,L in millimetres, or in points with a px suffix "
                        + "(0 to \(Bezel.maximum) each), not '\(name.isEmpty ? value : name + "=" + value)'")
        }
        return (name, request)
    }

    /// A machine's name in a wall: 1 to 255 characters, no spaces or control characters.
    mutating func machine(for option: String) throws(UsageError) -> String {
        let value = try value(for: option)
        guard !value.isEmpty, value.utf8.count <= 255,
              !value.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F })
        else { throw error("\(option) needs a machine name (1 to 255 characters, no spaces), not '\(value)'") }
        return value
    }

    /// T,R,B,L as four numbers, 0 or more.
    static func insets(_ text: String) -> Insets? {
        let values = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
        guard values.count == 4, values.allSatisfy({ $0 != nil && $0!.isFinite && $0! >= 0 }) else { return nil }
        return Insets(top: values[0]!, right: values[1]!, bottom: values[2]!, left: values[3]!)
    }

    func unknown(_ option: String) -> UsageError {
        error("unknown option \(option) for 'glout \(command)'")
    }

    func error(_ message: String) -> UsageError {
        UsageError(message: message, command: command)
    }
}
