import CGLES
import Foundation
import Glibc
import WaylandOutputs

/// What run, bench and snapshot set up before drawing: the display session (the outputs,
/// with the names the user gave checked, and the windows), EGL, the shader programs, the
/// scene and its telemetry.
final class Stage {
    let options: RunOptions
    /// The command this stage runs for (run, bench, snapshot), named in usage errors.
    let command: String
    let log: Log
    /// SIGINT and SIGTERM, which the display session watches.
    var signals: SignalWatch { display.signals! }
    let display: OutputSession
    let graphics: Graphics
    let scene: Scene
    let programs: ScenePrograms
    /// What each output's renderer reports, for the dashboard (and with --landings-json,
    /// what each refresh showed).
    let telemetry: Telemetry
    /// What the control API (--http, --osc) puts on the outputs, the screenshots it waits
    /// for, and the events it streams.
    let slots: ContentSlots
    let screenshots = Screenshots()
    let events: EventHub
    /// The threads that stop the videos the control API let go, waited for at the end.
    private let stoppers = DispatchGroup()
    /// --content's pictures by output name ("" for the rest).
    private let contentPictures: [String: ContentRendering]
    /// --content's videos, one decoder per file.
    private let videos: [VideoSource]
    /// --show, ready to draw, what reads its file again when it changes, and its --play-log.
    let show: ShowSource?
    private let showWatcher: ShowWatcher?
    let playLog: PlayLog?
    /// The span's wall (--wall), and this machine's name in it.
    let wall: Wall?
    let machine: String
    /// Outputs whose bezel in millimetres could not be used (warned once each).
    private var bezelWarnings: Set<String> = []

    /// How many of each output's last frames --landings-json writes: a minute at 240 Hz.
    static let landingFrames = 16_384

    /// The app ID and title of glout's windows.
    static let appID = "glout"

    /// - Parameter rests: whether still pictures stop drawing (bench keeps drawing).
    init(options: RunOptions, command: String, log: Log, input: Bool, rests: Bool = true,
         events: EventHub = EventHub()) throws {
        self.options = options
        self.command = command
        self.log = log
        self.events = events
        telemetry = Telemetry(framesKept: options.landingsJSON == nil ? nil : Stage.landingFrames)
        // Files first: a shader folder or wall that cannot be read fails before any connection.
        var library = try ShaderSource.library(directory: options.shaderDirectory)
        wall = try options.wallFile.map { try Stage.loadWall($0, command: command) }
        // A file named for several outputs or items is read once (a video: decoded once).
        var loaded: [String: ContentFile] = [:]
        let contents = try options.contents.mapValues { path in try ContentFile.load(path, log: log, decoding: options.videoDecoding, loaded: &loaded) }
        let files = loaded.sorted { $0.key < $1.key }.map(\.value)
        videos = files.compactMap { if case .video(let source) = $0 { source } else { nil } }
        // A content shader is compiled like glout's own, and its errors name its path.
        for case .shader(let path, let source) in files { library[path] = source }
        machine = options.machine ?? Stage.hostName
        display = try OutputSession(.init(appID: Stage.appID, outputs: options.outputs, preferredPrimary: options.primary,
                                           input: input, prepareGraphics: true, handlesSignals: true, log: log))
        try Stage.checkNames(options, tracker: display.tracker)
        // FreeType's part of the text, for the scales the outputs have, while EGL starts
        // and the shaders compile.
        if options.scene == .views {
            let scales = Set(display.outputs.map { Double(max(1, $0.scale)) })
            AtlasCache.shared.prepare(scales.map(Dashboard.fontSizes) + (options.label ? scales.map(Identification.labelSizes) : []))
        }
        graphics = try display.graphics()
        slots = ContentSlots(events: events, letGo: Stage.stopping(graphics: graphics, telemetry: telemetry, group: stoppers))
        // What the first frames draw with now, the rest when first drawn (ScenePrograms);
        // with --shaders DIR, every program the run may draw with, so that a shader of
        // the folder that does not compile stops glout before any window opens.
        let programs = ScenePrograms(library: library)
        let first = Stage.firstPrograms(options, outputs: display.outputs, primary: display.primary, files: files)
        contentPictures = try graphics.withSharedContext {
            try programs.compile(first)
            return try Stage.renderings(of: contents, programs: programs, options: options)
        }
        self.programs = programs
        let graphics = graphics
        let show = try options.show.map {
            try ShowSource(path: $0, log: log, programs: programs, graphics: graphics, decoding: options.videoDecoding)
        }
        self.show = show
        // A still show (--frozen) rests: a new one wakes the windows, from the session's thread.
        let session = SessionThreadOnly(display)
        show?.onReplace {
            session.value.onSessionThread { for window in session.value.windows.values { window.setNeedsDisplay() } }
        }
        showWatcher = try options.show.flatMap { path in try show.map { try ShowWatcher(path: path, source: $0, log: log) } }
        playLog = try options.playLog.map { try PlayLog(path: $0, limit: options.playLogSize << 20, log: log) }
        scene = Scene(.init(layout: options.layout, frozen: options.frozen, start: MonotonicInstant.now.nanoseconds,
                            machine: machine, showsControl: options.showsControl,
                            clock: options.show != nil ? .realtime : options.clock ?? (wall != nil ? .realtime : .monotonic),
                            playsShow: options.show != nil, rests: rests,
                            live: options.live, label: options.label))
        if options.identify { scene.toggleIdentify(now: .now) }
        // Decoding starts now, ahead of the first frames.
        try Stage.start(videos, conversion: options.videoConversion.resolved(rasterizesOnCPU: graphics.rasterizesOnCPU), log: log)
        for case .playlist(let list) in files {
            log.info("--content \(Log.printable(list.path)): \(list.items.count) items, looping every "
                     + "\(String(format: "%.3f", list.playlist.length)) s")
        }
        scene.setPrimary(display.primary)
        try refreshSpan(strict: true)
        for output in display.outputs { telemetry.register(output) }
        // A --mode the outputs cannot show is a usage error now, not when a window opens.
        for output in display.outputs { _ = try renderSize(for: output) }
    }

    /// The programs the first frames draw with, compiled before any window opens (the rest
    /// when first drawn): only the views the outputs show now, since on a cold shader cache
    /// each program is compiled, then linked by llvmpipe at its first draw; with --shaders
    /// DIR every program the run may draw with, so that a shader of the folder that does
    /// not compile stops glout first.
    private static func firstPrograms(_ options: RunOptions, outputs: [Output], primary: Output?,
                                      files: [ContentFile]) -> [String] {
        // A show draws images with image.frag; videos, text and colours with show-copy.
        if options.show != nil { return ["image.frag", "show-copy.frag"] }
        switch options.scene {
        case .triangle: return ["triangle.frag"]
        case .pacing: return ["pacing.frag", "text.frag"]
        case .views: break
        }
        var first: [String]
        switch options.layout {
        case .mirror:
            first = ["control.frag"]
        case .independent:
            let control = options.showsControl ? primary?.name : nil
            first = outputs.isEmpty ? ["control.frag"]
                : Array(Set(outputs.map { $0.name == control ? "control.frag" : "content.frag" })).sorted()
        case .span:
            first = ["control.frag", "content.frag", "span.frag"]
        }
        if options.shaderDirectory != nil { first += ["control.frag", "content.frag", "rings.frag", "text.frag", "marker.frag", "span.frag"] }
        // The control API's images draw with image.frag: compiled now, not on a frame.
        let controlled = options.http != nil || options.osc != nil
        if files.contains(where: { if case .image = $0 { true } else { false } }) || controlled {
            first.append("image.frag")
        }
        if files.contains(where: { if case .video = $0 { true } else { false } }) { first.append("video.frag") }
        for case .shader(let path, _) in files { first.append(path) }
        return first
    }

    /// How each output's --content is drawn: its pieces, each with its program. Runs with
    /// the shared context current.
    private static func renderings(of contents: [String: ContentFile], programs: ScenePrograms,
                                   options: RunOptions) throws -> [String: ContentRendering] {
        func piece(_ picture: ContentFile) throws -> ContentPiece {
            switch picture {
            case .image(let image): return ContentPiece(image: image, program: try programs.image)
            case .shader(let path, _): return ContentPiece(image: nil, program: try programs.program(path))
            case .video(let source): return ContentPiece(image: nil, video: source, program: try programs.video)
            case .playlist(let list): throw GloutError("--content \(Log.printable(list.path)): a list cannot be an item of a list")
            }
        }
        return try contents.mapValues { picture -> ContentRendering in
            guard case .playlist(let list) = picture else {
                return ContentRendering(try piece(picture), scaleMode: options.scaleMode, videoSync: options.videoSync)
            }
            return ContentRendering(pieces: try list.items.map(piece), playlist: list.playlist, scaleMode: options.scaleMode,
                                    videoSync: options.videoSync)
        }
    }

    /// Starts each video's decoding thread, and says what it plays.
    private static func start(_ videos: [VideoSource], conversion: VideoConversion, log: Log) throws {
        for video in videos {
            try video.start(conversion: conversion)
            log.info("--content \(Log.printable(video.path)): \(video.codecName) video, \(video.width)x\(video.height), "
                     + "\(video.timeline.count) frames at \(String(format: "%.3f", video.timeline.framesPerSecond)) fps, "
                     + "looping every \(String(format: "%.3f", video.timeline.length)) s, decoded "
                     + (video.decodesWithVAAPI ? "by VA-API" : "in software") + ", converted to RGB by "
                     + (video.conversion == .swscale ? "libswscale" : "the shader"))
        }
    }

    /// Stops the videos the control API no longer shows and deletes their textures, on a
    /// thread of its own: joining a decoder must not hold up a frame.
    private static func stopping(graphics: Graphics, telemetry: Telemetry,
                                 group: DispatchGroup) -> @Sendable ([VideoSource]) -> Void {
        { videos in
            BackgroundWork.start(in: group) {
                VideoSource.release(videos, graphics: graphics)
                for video in videos { telemetry.forget(video: video) }
            }
        }
    }

    deinit {
        // The windows go first; the programs and the videos' textures belong to the share
        // group: delete them with the shared context current.
        display.closeWindows()
        let videos = videos + slots.close()
        stoppers.wait()
        for video in videos { video.stop() }
        showWatcher?.stop()
        show?.stopVideos()
        playLog?.flush()
        _ = try? graphics.withSharedContext {
            // What shows replaced while glout ran left (the last one's go with it).
            show?.deleteBuried()
            programs.delete()
            for video in videos { video.textures.delete() }
        }
    }

    /// The window glout opens on `output`: its render size and scale mode, --fps, and a
    /// renderer with its framing and --stall. On a CPU rasterizer its first frame is a
    /// draft at half the size (BENCHMARKS.md, "Time to the first frame").
    /// - Parameter keepsEveryFrame: whether its frame log keeps every frame (bench);
    ///   otherwise the last 4096, and with --landings-json the last ``landingFrames``.
    func windowRequest(for output: Output, keepsEveryFrame: Bool = false) throws -> OutputSession.WindowRequest {
        let frameLogCapacity = keepsEveryFrame ? nil : options.landingsJSON == nil ? 4096 : Stage.landingFrames
        let surface = FullscreenSurface.Options(appID: Stage.appID, renderSize: try renderSize(for: output),
                                                scaleMode: options.scaleMode, draftFirstFrame: graphics.rasterizesOnCPU,
                                                framePath: options.framePath)
        return OutputSession.WindowRequest(
            options: OutputWindow.Options(surface: surface, frameLogCapacity: frameLogCapacity),
            displayLink: DisplayLinkSettings(preferredFramesPerSecond: options.framesPerSecond(for: output.name),
                                             usesPresentationTimes: options.presentationTargets,
                                             usesCommitTiming: options.commitTiming),
            makeRenderer: makeRenderer(for: output))
    }

    /// Outputs whose mode switch (--set-mode) the compositor refused: drawn at that
    /// size and scaled by the compositor instead.
    private(set) var fallbackModes: [String: ModeRequest] = [:]
    private var modesChanged = false

    /// Switches the modes asked for with --set-mode (wlr-output-management), waiting
    /// for each. A mode that cannot be set is drawn at that size instead, with a warning.
    func applyModeSwitches() throws {
        guard !options.setModes.isEmpty else { return }
        let tracker = display.tracker
        var management: OutputManagement?
        do {
            management = try tracker.outputManagement()
        } catch {
            log.warning("--set-mode: \(error); drawing at the sizes asked for and letting the compositor scale them")
        }
        for (name, request) in options.setModes.sorted(by: { $0.key < $1.key }) {
            guard let output = tracker.output(named: name) else { continue }
            let mode = try request.resolve(in: output, allowCustom: true)
            do {
                guard let management else { throw OutputManagementError.unavailable }
                try management.setMode(mode, on: name, connected: Set(tracker.outputs.map(\.name)))
                modesChanged = true
                log.info("output \(name): mode set to \(mode); the original comes back when glout ends")
            } catch {
                if management != nil {
                    log.warning("--set-mode \(name)=\(request): \(error); drawing at that size and letting the compositor scale it")
                }
                fallbackModes[name] = request
            }
        }
    }

    /// Puts back every mode --set-mode changed. Called however the run ends.
    func restoreModes() {
        guard modesChanged, let management = try? display.tracker.outputManagement() else { return }
        modesChanged = false
        do {
            let restored = try management.restore()
            log.info("restored the original mode of \(restored.map(Log.printable).joined(separator: ", "))")
        } catch {
            log.error("could not restore the original modes: \(error)")
        }
    }

    /// The size glout draws at on `output` when --mode (or a refused --set-mode) asks
    /// for one: the mode's size, turned with the output's transform.
    func renderSize(for output: Output) throws -> Size? {
        guard let request = fallbackModes[output.name] ?? options.renderMode(for: output.name) else { return nil }
        let mode: OutputMode
        do {
            mode = try request.resolve(in: output, allowCustom: options.allowCustom || fallbackModes[output.name] != nil)
        } catch {
            throw UsageError(message: "--mode: \(error); --allow-custom draws at it anyway", command: command)
        }
        return output.transform.swapsAxes ? mode.size.transposed : mode.size
    }

    /// Asks the windows of `outputs` (nil: every window) for a frame: a picture that
    /// stood still may change now (those drawing anyway do not notice).
    func wakeWindows(_ outputs: Set<UInt32>? = nil) {
        for (id, window) in display.windows where outputs?.contains(id) ?? true { window.setNeedsDisplay() }
    }

    /// Works out the span canvas again, as the outputs are now: every output but the one
    /// with the control view, at its logical place, with its bezels; or the wall file's.
    /// `strict`: a bezel in millimetres on an output without a physical size is a usage
    /// error (at start-up); later it is a warning and no bezel.
    func refreshSpan(strict: Bool = false) throws {
        if let wall {
            scene.update { $0.span = SpanCanvas(wall.outputs) }
            return
        }
        // The control view keeps the primary out of the span; a show's span covers every output.
        let control = options.showsControl && options.show == nil ? display.primary?.name : nil
        var entries: [WallEntry] = []
        for output in display.outputs where output.name != control && !output.logicalFrame.size.isEmpty {
            let frame = output.logicalFrame
            entries.append(WallEntry(machine: machine, name: output.name, x: frame.x, y: frame.y, width: frame.width,
                                     height: frame.height, bezel: try bezel(for: output, strict: strict)))
        }
        scene.update { $0.span = SpanCanvas(entries) }
    }

    /// A wall must list an output of this machine for run and bench to draw its part;
    /// outputs it lists that are not here yet get a window when they connect.
    func checkWall() throws {
        guard let wall else { return }
        let own = wall.outputs.filter { $0.machine == machine }
        guard !own.isEmpty else {
            let machines = Array(Set(wall.outputs.map(\.machine))).sorted().joined(separator: ", ")
            throw UsageError(message: "--wall \(options.wallFile!) lists no output of machine '\(machine)' (it lists "
                             + "\(machines)); pass --machine NAME", command: command)
        }
        let present = Set(display.outputs.map(\.name))
        for entry in own where !present.contains(entry.name) {
            log.warning("--wall: output \(entry.name) of \(machine) is not connected; its part shows when it is")
        }
    }

    /// The bezels --bezel gives `output`, in points.
    func bezel(for output: Output, strict: Bool) throws -> Bezel {
        try Stage.bezel(for: output, requests: options.bezels, command: command, strict: strict) { [self] message in
            if bezelWarnings.insert(output.name).inserted { log.warning(message) }
        }
    }

    /// The bezels `requests` (by output name, "" for every output) give `output`.
    static func bezel(for output: Output, requests: [String: BezelRequest], command: String, strict: Bool,
                      warn: (String) -> Void) throws -> Bezel {
        guard let request = requests[output.name] ?? requests[""] else { return .zero }
        if let bezel = request.points(on: output) { return bezel }
        if [request.top, request.right, request.bottom, request.left].allSatisfy({ $0 == 0 }) { return .zero }
        let message = "--bezel: \(output.printableName) reports no physical size, so millimetres cannot be turned into points; "
            + "give the bezel in points with a px suffix (for example 12px)"
        if strict { throw UsageError(message: message, command: command) }
        warn(message + "; no bezel for now")
        return .zero
    }

    /// Reads and checks a wall file.
    static func loadWall(_ path: String, command: String) throws -> Wall {
        let text = try FileSystem.readText(path, for: "--wall")
        do {
            return try Wall.parse(text)
        } catch {
            throw UsageError(message: "--wall \(path): \(error.message)", command: command)
        }
    }

    /// This machine's name: the host name.
    static var hostName: String {
        var bytes = [CChar](repeating: 0, count: 256)
        guard gethostname(&bytes, bytes.count - 1) == 0 else { return "localhost" }
        let name = String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "localhost" : name
    }

    /// A renderer for `output`, with its framing and --stall.
    func makeRenderer(for output: Output) -> @Sendable (RenderTarget) throws -> any OutputRenderer {
        let scene = scene, programs = programs, kind = options.scene, telemetry = telemetry, flashEvery = options.flashEvery
        // Without the control API nothing assigns content or waits for a picture: the
        // renderers need not ask.
        let controlled = options.http != nil || options.osc != nil
        let slots = controlled ? slots : nil, screenshots = controlled ? screenshots : nil
        let stall = FrameStall(milliseconds: options.stalls[output.name] ?? 0)
        let framing = options.framing(for: output.name)
        let content = contentPictures[output.name] ?? contentPictures[""]
        let show = show, playLog = playLog, framesPerSecond = options.framesPerSecond(for: output.name)
        // The description as it is when the window opens: a --set-mode switch changes it
        // after start-up, before glout listens for changes.
        telemetry.register(output)
        return { _ in
            if let show {
                return ShowRenderer(source: show, scene: scene, playLog: playLog, screenshots: screenshots, telemetry: telemetry,
                                    stall: stall, framesPerSecond: framesPerSecond)
            }
            return switch kind {
            case .views: SceneRenderer(scene: scene, programs: programs, framing: framing, content: content, slots: slots,
                                       screenshots: screenshots, telemetry: telemetry, stall: stall)
            case .triangle: TriangleRenderer(scene: scene, program: try programs.triangle, stall: stall)
            case .pacing: PacingRenderer(scene: scene, program: try programs.pacing, textProgram: try programs.text,
                                         flashEvery: flashEvery, stall: stall)
            }
        }
    }

    /// One line about an output, for the log.
    static func describe(_ output: Output) -> String {
        "\(output.printableName): \(output.currentMode?.description ?? "no mode"), scale \(output.scale), "
            + "\(output.logicalFrame.size) at \(output.logicalFrame.origin)"
    }

    private static func checkNames(_ options: RunOptions, tracker: OutputTracker) throws {
        let available = tracker.outputs.map(\.name)
        let list = available.isEmpty ? "there are none" : "the outputs are " + tracker.outputs.map(\.printableName).joined(separator: ", ")
        let command = "run"
        for name in options.outputs ?? [] where !available.contains(name) {
            throw UsageError(message: "--outputs: no output named \(name); \(list)", command: command)
        }
        let perOutput: [(String, [String])] = [
            ("--stall", Array(options.stalls.keys)),
            ("--fps", Array(options.framesPerSecond.keys)), ("--mode", Array(options.renderModes.keys)),
            ("--set-mode", Array(options.setModes.keys)), ("--overscan", Array(options.overscan.keys)),
            ("--safe-area", Array(options.safeAreas.keys)), ("--bezel", Array(options.bezels.keys)),
            ("--content", Array(options.contents.keys)),
        ]
        for (option, names) in perOutput {
            for name in names.sorted() where !name.isEmpty && !available.contains(name) {
                throw UsageError(message: "\(option): no output named \(name); \(list)", command: command)
            }
        }
        if let primary = options.primary {
            guard available.contains(primary) else {
                throw UsageError(message: "--primary: no output named \(primary); \(list)", command: command)
            }
            if let chosen = options.outputs, !chosen.contains(primary) {
                throw UsageError(message: "--primary \(primary) is not among --outputs \(chosen.joined(separator: ","))",
                                 command: command)
            }
        }
    }
}
