import WaylandOutputs

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
    /// --http: where the control API listens; the bearer token's file and the folder its
    /// files resolve under, which an address off loopback needs.
    var http: ListenAddress?
    var httpTokenFile: String?
    var contentRoot: String?
    /// --osc: where the control API listens for OSC, and the senders it answers (none
    /// listed: any, which loopback keeps to this machine).
    var osc: ListenAddress?
    var oscAllow: [AddressPrefix] = []
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
    /// --show: a show file, which every output plays instead of the views; --play-log: its
    /// proof of play, rotated past --play-log-size MiB.
    var show: String?
    var playLog: String?
    var playLogSize = 16
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
    /// glout(1), in roff (`help --man`).
    case manual
    /// A shell's completion script (`help --completion SHELL`).
    case completion(Completions.Shell)
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
