import Foundation
import Glibc
import WaylandOutputs

/// The control API of one `glout run` (--http): the server on its own threads, files opened
/// and decoded there, and every change made on the session's thread, where the outputs,
/// the scene and the windows are. Nothing here runs on a render thread: an output takes
/// new content at the start of its next frame (``ContentSlots``).
final class ControlService {
    private let stage: Stage
    private let log: Log
    private let started = MonotonicInstant.now
    private let bridge: SessionBridge
    private var server: HTTPServer?

    /// Starts listening as the options say; nil without --http.
    static func start(options: RunOptions, stage: Stage, log: Log) throws -> ControlService? {
        guard let address = options.http else { return nil }
        let token = try options.httpTokenFile.map { try BearerToken(file: $0) }
        let root = try ContentRoot(options.contentRoot)
        let service = ControlService(stage: stage, log: log)
        let loader = ContentLoader(stage: stage, root: root, log: log)
        let handler = SessionThreadOnly(service)
        let bridge = service.bridge
        service.server = try HTTPServer(address: address, token: token) { request in
            let command: ControlCommand
            do throws(ControlError) {
                command = try ControlRoutes.command(method: request.method, path: request.path, body: request.body)
            } catch {
                return .error(error)
            }
            switch command {
            case .openAPI:
                return ControlReply(status: 200, body: Array(EmbeddedDocuments.openAPI.utf8))
            case .setContent(let output, let file):
                let requested = MonotonicInstant.now
                let rendering: ContentRendering
                do throws(ControlError) {
                    rendering = try loader.load(file)
                } catch {
                    return .error(error)
                }
                let ready = MonotonicInstant.now
                return bridge.call {
                    handler.value.setContent(rendering, file: file, on: output, requested: requested, ready: ready)
                }
            default:
                return bridge.call { handler.value.perform(command) }
            }
        }
        var bound = address
        bound.port = service.server?.port ?? address.port
        log.info("control API on http://\(bound)/api/v1/" + (token == nil ? "" : " (bearer token)")
                 + (root.path.map { ", files under \(Log.printable($0))" } ?? ""))
        return service
    }

    private init(stage: Stage, log: Log) {
        self.stage = stage
        self.log = log
        let display = SessionThreadOnly(stage.display)
        bridge = SessionBridge { work in display.value.onSessionThread(work) }
    }

    /// Answers the callers still waiting, then stops the server and joins its threads. On
    /// the session's thread, before the stage goes.
    func stop() {
        bridge.close()
        server?.stop()
        server = nil
    }

    private func perform(_ command: ControlCommand) -> ControlReply {
        switch command {
        case .outputs:
            guard let text = try? OutputReport(outputs: stage.display.outputs, primary: stage.display.primary).json() else {
                return .error(ControlError(500, "the outputs could not be written as JSON"))
            }
            return .encoded(text)
        case .status:
            return .json(status())
        case .setLayout(let layout):
            stage.scene.update { $0.layout = layout }
            try? stage.refreshSpan()
            stage.wakeWindows()
            log.info("control: layout \(layout.rawValue)")
            return .json(["layout": layout.rawValue])
        case .setPrimary(let name):
            guard let output = stage.display.outputs.first(where: { $0.name == name }) else {
                return .error(ControlError(404, "no output named \(ControlRoutes.quoted(name)); \(outputList)"))
            }
            stage.display.setPreferredPrimary(output.name)
            log.info("control: primary \(output.printableName)")
            return .json(["primary": (stage.display.primary?.name).map { $0 as Any } ?? NSNull()])
        case .identify:
            stage.scene.update { $0.identifyUntil = MonotonicInstant.now.nanoseconds + UInt64(Scene.identifySeconds * 1e9) }
            stage.wakeWindows()
            return .json(["identify_s": Scene.identifySeconds])
        case .openAPI, .setContent:
            return .error(ControlError(500, "not a command of the session's thread"))
        }
    }

    /// Puts `rendering` on the output named (nil: every output), where a content view or a
    /// span part shows it.
    private func setContent(_ rendering: ContentRendering, file: String, on name: String?,
                            requested: MonotonicInstant, ready: MonotonicInstant) -> ControlReply {
        let state = stage.scene.snapshot
        let outputs = stage.display.outputs.filter { name == nil || $0.name == name }
        if let name, outputs.isEmpty {
            return .error(ControlError(404, "no output named \(ControlRoutes.quoted(name)); \(outputList)"))
        }
        let showing = outputs.filter { SceneRenderer.view(of: $0.name, state: state) != .control }
        if showing.isEmpty && !outputs.isEmpty {
            let why = state.layout == .mirror ? "the layout is mirror: every output shows the primary's control view"
                : "\(outputs[0].printableName) shows the control view (it is the primary)"
            return .error(ControlError(409, why + "; PUT /api/v1/layout or /api/v1/primary first"))
        }
        stage.slots.assign(rendering, file: file, to: name, requested: requested, ready: ready)
        stage.wakeWindows(Set(showing.map(\.id)))
        log.info("control: \(Log.printable(file)) on " + (name.map(Log.printable) ?? "every output"))
        return .json(["file": file, "outputs": showing.map(\.name)], status: 202)
    }

    private var outputList: String {
        let names = stage.display.outputs.map(\.name)
        return names.isEmpty ? "there are none" : "the outputs are " + names.joined(separator: ", ")
    }

    /// Recent pacing, over the last 10 s of each output's frames.
    private func status() -> [String: Any] {
        let state = stage.scene.snapshot
        let now = MonotonicInstant.now
        let since = MonotonicInstant(nanoseconds: now.nanoseconds &- min(now.nanoseconds, 10_000_000_000))
        var outputs: [[String: Any]] = []
        for output in stage.display.outputs {
            var entry: [String: Any] = ["name": output.name, "primary": output.name == stage.display.primary?.name,
                                        "view": "\(SceneRenderer.view(of: output.name, state: state))",
                                        "refresh_mhz": output.currentMode?.refreshMilliHertz ?? 0]
            if let window = stage.display.windows[output.id] {
                let statistics = window.statistics
                let log = window.frameLog
                let period = output.currentMode?.refreshPeriod ?? statistics.refreshPeriod
                let samples = log.samples.filter { $0.commit >= since }
                let pacing = OutputPacing(samples: samples, period: UInt64(max(1, period.inNanoseconds)))
                entry["frames"] = statistics.frames
                entry["fps"] = pacing.framesPerSecond
                entry["on_time_pct"] = pacing.onTimePercent
                entry["missed"] = pacing.missed
                if let landing = LandingSummary(log.landings.filter { $0.commit >= since }) {
                    entry["landing_p50_ms"] = landing.p50_ms
                    entry["landing_p99_ms"] = landing.p99_ms
                }
            }
            if let shown = stage.slots.shown(on: output.name) {
                entry["content"] = ["file": shown.file, "since_frame": shown.frame,
                                    "load_ms": (shown.ready - shown.requested).inSeconds * 1e3,
                                    "shown_after_ms": max(0, (shown.target - shown.requested).inSeconds * 1e3)] as [String: Any]
            } else {
                entry["content"] = NSNull()
            }
            outputs.append(entry)
        }
        return ["version": Help.version, "uptime_s": (now - started).inSeconds, "layout": state.layout.rawValue,
                "primary": state.primary ?? NSNull(), "outputs": outputs]
    }
}

/// A value only the session's thread uses, carried through the server's threads to get
/// there (``SessionBridge`` runs the work that touches it on that thread).
struct SessionThreadOnly<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Opens, decodes and readies what PUT .../content names, on the request's thread: a
/// PNG, JPEG or WebP image, or a fragment shader (compiled in the shared context). One
/// file at a time, so that clients cannot make glout hold many large pictures at once.
struct ContentLoader: Sendable {
    private let programs: ScenePrograms
    private let graphics: Graphics
    private let root: ContentRoot
    private let log: Log
    private let scaleMode: ScaleMode
    private let videoSync: VideoSync
    private let turn = Locked(())
    private let graveyard = TextureGraveyard()

    init(stage: Stage, root: ContentRoot, log: Log) {
        (programs, graphics, self.root, self.log) = (stage.programs, stage.graphics, root, log)
        (scaleMode, videoSync) = (stage.options.scaleMode, stage.options.videoSync)
    }

    func load(_ name: String) throws(ControlError) -> ContentRendering {
        let path = try root.resolve(name)
        // Decoding takes a core for a while (a quarter of a second for a 12-megapixel PNG):
        // the render threads come first. The thread is the connection's own.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(threadID()), 10)
        do {
            return try turn.withLock { _ in try rendering(of: path) }
        } catch let error as ControlError {
            throw error
        } catch {
            var message = GloutError(error).message
            if message.hasPrefix("--content ") { message.removeFirst("--content ".count) }
            throw ControlError(422, message)
        }
    }

    private func rendering(of path: String) throws -> ContentRendering {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw ControlError(404, "\(ControlRoutes.quoted(path)): \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFREG else { throw ControlError(422, "\(ControlRoutes.quoted(path)): not a file") }
        // What the file is, before anything opens a decoder for it.
        let start = try FileSystem.readStart(path, for: "--content", count: 4097)
        switch ContentFile.kind(of: Array(start.prefix(4096)), cut: start.count > 4096) {
        case .other:
            throw ControlError(415, "\(ControlRoutes.quoted(path)): not an image or a shader; the API switches to PNG, JPEG "
                               + "and WebP images and fragment shaders (videos and playlists: --content at start)")
        case .text where !Playlist.isShader(try FileSystem.readText(path, for: "--content")):
            throw ControlError(415, "\(ControlRoutes.quoted(path)): a playlist; the API switches to images and shaders "
                               + "(playlists: --content at start)")
        default:
            break
        }
        var loaded: [String: ContentFile] = [:]
        let file = try ContentFile.load(path, log: log, loaded: &loaded)
        let piece: ContentPiece
        switch file {
        case .image(let image):
            // Uploaded here, so that no output's frame waits for it (image.frag was
            // compiled at start-up with --http).
            piece = ContentPiece(image: try image.uploaded(graphics: graphics, graveyard: graveyard),
                                 program: try programs.image)
        case .shader(_, let source):
            let program = try graphics.withSharedContext { try programs.contentShader(path: path, source: source) }
            piece = ContentPiece(image: nil, program: program)
        case .video:
            throw ControlError(415, "\(ControlRoutes.quoted(path)): an animated WebP; the API switches to still images and "
                               + "shaders (animations: --content at start)")
        case .playlist:
            throw ControlError(415, "\(ControlRoutes.quoted(path)): a playlist; the API switches to images and shaders "
                               + "(playlists: --content at start)")
        }
        return ContentRendering(piece, scaleMode: scaleMode, videoSync: videoSync)
    }
}

/// glibc's gettid (2.30), which the Glibc module does not import.
@_silgen_name("gettid")
private func threadID() -> pid_t
