import CGLES
import WaylandOutputs

/// What run, bench and snapshot set up before drawing: the display session (the outputs,
/// with the names the user gave checked, and the windows), EGL, the shader programs, the
/// scene and its telemetry.
final class Stage {
    let options: RunOptions
    let log: Log
    /// SIGINT and SIGTERM, which the display session watches.
    var signals: SignalWatch { display.signals! }
    let display: DisplaySession
    let graphics: Graphics
    let scene: Scene
    let programs: ScenePrograms
    /// What each output's renderer reports, for the dashboard.
    let telemetry = Telemetry()
    private let shaderPrograms: [ShaderProgram]

    /// The app ID and title of glout's windows.
    static let appID = "glout"

    init(options: RunOptions, log: Log, input: Bool) throws {
        self.options = options
        self.log = log
        // Files first: a shader folder that cannot be read fails before any connection.
        let library = try ShaderSource.library(directory: options.shaderDirectory)
        display = try DisplaySession(.init(appID: Stage.appID, outputs: options.outputs, preferredPrimary: options.primary,
                                           input: input, log: log))
        try Stage.checkNames(options, screens: display.screens)
        graphics = try display.graphics()
        shaderPrograms = try graphics.withSharedContext {
            [try ShaderProgram(vertex: "fullscreen.vert", fragment: "control.frag", library: library),
             try ShaderProgram(vertex: "fullscreen.vert", fragment: "content.frag", library: library),
             try ShaderProgram(vertex: "triangle.vert", fragment: "triangle.frag", library: library),
             try ShaderProgram(vertex: "text.vert", fragment: "text.frag", library: library),
             try ShaderProgram(vertex: "fullscreen.vert", fragment: "marker.frag", library: library)]
        }
        programs = ScenePrograms(control: shaderPrograms[0].program, content: shaderPrograms[1].program,
                                 triangle: shaderPrograms[2].program, text: shaderPrograms[3].program,
                                 marker: shaderPrograms[4].program)
        scene = Scene(.init(layout: options.layout, frozen: options.frozen, start: MonotonicInstant.now.nanoseconds))
        scene.setPrimary(display.primary)
        for output in display.outputs { telemetry.register(output) }
        // A --mode the outputs cannot show is a usage error now, not when a window opens.
        for output in display.outputs { _ = try renderSize(for: output) }
    }

    deinit {
        // The windows go first; the programs belong to the shared context: delete them
        // with it current.
        display.closeWindows()
        _ = try? graphics.withSharedContext { for program in shaderPrograms { program.delete() } }
    }

    /// The window glout opens on `output`: its render size and scale mode, --fps, and a
    /// renderer with its framing and --stall.
    func windowRequest(for output: Output, frameLogCapacity: Int? = 4096) throws -> DisplaySession.WindowRequest {
        let surface = FullscreenSurface.Options(appID: Stage.appID, renderSize: try renderSize(for: output),
                                                scaleMode: options.scaleMode)
        return DisplaySession.WindowRequest(
            options: OutputWindow.Options(surface: surface, frameLogCapacity: frameLogCapacity),
            displayLink: DisplayLinkSettings(preferredFramesPerSecond: options.framesPerSecond(for: output.name)),
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
        let screens = display.screens
        var management: OutputManagement?
        do {
            management = try screens.outputManagement()
        } catch {
            log.warning("--set-mode: \(error); drawing at the sizes asked for and letting the compositor scale them")
        }
        for (name, request) in options.setModes.sorted(by: { $0.key < $1.key }) {
            guard let output = screens.output(named: name) else { continue }
            let mode = try request.resolve(in: output, allowCustom: true)
            do {
                guard let management else { throw OutputManagementError.unavailable }
                try management.setMode(mode, on: name, connected: Set(screens.outputs.map(\.name)))
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
        guard modesChanged, let management = try? display.screens.outputManagement() else { return }
        modesChanged = false
        do {
            let restored = try management.restore()
            log.info("restored the original mode of \(restored.joined(separator: ", "))")
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
            throw UsageError(message: "--mode: \(error); --allow-custom draws at it anyway", command: "run")
        }
        return output.transform.swapsAxes ? mode.size.transposed : mode.size
    }

    /// A renderer for `output`, with its framing and --stall.
    func makeRenderer(for output: Output) -> @Sendable (RenderTarget) throws -> any OutputRenderer {
        let scene = scene, programs = programs, kind = options.scene, telemetry = telemetry
        let stall = options.stalls[output.name] ?? 0
        let framing = options.framing(for: output.name)
        // The description as it is when the window opens: a --set-mode switch changes it
        // after start-up, before glout listens for changes.
        telemetry.register(output)
        return { _ in
            switch kind {
            case .views: SceneRenderer(scene: scene, programs: programs, framing: framing, telemetry: telemetry,
                                       stallMilliseconds: stall)
            case .triangle: TriangleRenderer(scene: scene, program: programs.triangle, stallMilliseconds: stall)
            }
        }
    }

    /// One line about an output, for the log.
    static func describe(_ output: Output) -> String {
        "\(output.name): \(output.currentMode?.description ?? "no mode"), scale \(output.scale), "
            + "\(output.logicalFrame.size) at \(output.logicalFrame.origin)"
    }

    private static func checkNames(_ options: RunOptions, screens: Screens) throws {
        let available = screens.outputs.map(\.name)
        let list = available.isEmpty ? "there are none" : "the outputs are " + available.joined(separator: ", ")
        let command = "run"
        for name in options.outputs ?? [] where !available.contains(name) {
            throw UsageError(message: "--outputs: no output named \(name); \(list)", command: command)
        }
        let perOutput: [(String, [String])] = [
            ("--stall", Array(options.stalls.keys)),
            ("--fps", Array(options.framesPerSecond.keys)), ("--mode", Array(options.renderModes.keys)),
            ("--set-mode", Array(options.setModes.keys)), ("--overscan", Array(options.overscan.keys)),
            ("--safe-area", Array(options.safeAreas.keys)),
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
