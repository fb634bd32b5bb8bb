import CGLES
import WaylandOutputs

/// What run and bench both set up before drawing: the connection, the outputs (with
/// the names the user gave checked), EGL, the shader programs and the scene.
final class Session {
    let options: RunOptions
    let log: Log
    let signals: SignalWatch
    let connection: Connection
    let screens: Screens
    let graphics: Graphics
    let scene: Scene
    let programs: ScenePrograms
    private let shaderPrograms: [ShaderProgram]

    init(options: RunOptions, log: Log) throws {
        self.options = options
        self.log = log
        signals = try SignalWatch()
        connection = try Connection(log: log)
        screens = Screens(connection: connection, preferredPrimary: options.primary)
        try screens.start()
        try Session.checkNames(options, screens: screens)
        try screens.requireWindowing()
        graphics = try Graphics(connection: connection)
        let library = try ShaderSource.library(directory: options.shaderDirectory)
        shaderPrograms = try graphics.withSharedContext {
            [try ShaderProgram(vertex: "fullscreen.vert", fragment: "control.frag", library: library),
             try ShaderProgram(vertex: "fullscreen.vert", fragment: "content.frag", library: library),
             try ShaderProgram(vertex: "triangle.vert", fragment: "triangle.frag", library: library),
             try ShaderProgram(vertex: "fullscreen.vert", fragment: "still.frag", library: library)]
        }
        programs = ScenePrograms(control: shaderPrograms[0].program, content: shaderPrograms[1].program,
                                 triangle: shaderPrograms[2].program, still: shaderPrograms[3].program)
        scene = Scene(.init(layout: options.layout, frozen: options.frozen, start: MonotonicClock.now()))
        scene.setPrimary(primary)
    }

    deinit {
        // The programs belong to the shared context: delete them with it current.
        _ = try? graphics.withSharedContext { for program in shaderPrograms { program.delete() } }
    }

    /// Whether glout draws on this output (--outputs).
    func isChosen(_ output: Output) -> Bool {
        options.outputs.map { $0.contains(output.name) } ?? true
    }

    /// The outputs glout draws on, in order.
    var chosenOutputs: [Output] { screens.outputs.filter(isChosen) }

    /// The primary among the outputs glout drives.
    var primary: Output? { ScreenOrder.primary(of: chosenOutputs, preferred: options.primary) }

    /// A renderer for `output`, with its --stall.
    func makeRenderer(for output: Output) -> @Sendable (RenderTarget) throws -> any OutputRenderer {
        let scene = scene, programs = programs, kind = options.scene
        let stall = options.stalls[output.name] ?? 0
        return { _ in
            switch kind {
            case .views: SceneRenderer(scene: scene, programs: programs, stallMilliseconds: stall)
            case .triangle: TriangleRenderer(scene: scene, program: programs.triangle, stallMilliseconds: stall)
            }
        }
    }

    /// The display link settings for an output (--fps).
    func linkSettings(for output: Output) -> DisplayLinkSettings {
        DisplayLinkSettings(preferredFramesPerSecond: options.framesPerSecond(for: output.name))
    }

    /// One line about an output, for the log.
    static func describe(_ output: Output) -> String {
        "\(output.name): \(output.currentMode?.description ?? "no mode"), scale \(output.scale), "
            + "\(output.logicalWidth)x\(output.logicalHeight) at \(output.logicalX),\(output.logicalY)"
    }

    private static func checkNames(_ options: RunOptions, screens: Screens) throws {
        let available = screens.outputs.map(\.name)
        let list = available.isEmpty ? "there are none" : "the outputs are " + available.joined(separator: ", ")
        let command = "run"
        for name in options.outputs ?? [] where !available.contains(name) {
            throw UsageError(message: "--outputs: no output named \(name); \(list)", command: command)
        }
        for name in options.stalls.keys.sorted() where !available.contains(name) {
            throw UsageError(message: "--stall: no output named \(name); \(list)", command: command)
        }
        for name in options.framesPerSecond.keys.sorted() where !name.isEmpty && !available.contains(name) {
            throw UsageError(message: "--fps: no output named \(name); \(list)", command: command)
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
