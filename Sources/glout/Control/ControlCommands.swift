import WaylandOutputs

/// Runs a command from either transport, on the transport's thread: a file is loaded
/// there, and what changes the outputs or reads them runs on the session's thread.
struct ControlCommands: Sendable {
    /// How many files one cue may hold ready (each decoded, until it shows).
    static let maximumCueFiles = 16

    let loader: ContentLoader
    let bridge: SessionBridge
    let service: SessionThreadOnly<ControlService>
    let screenshots: Screenshots
    let events: EventHub
    /// The show glout plays (--show), which says what each output shows: content, cues and
    /// layouts are refused while it plays; PUT /api/v1/show replaces it.
    var show: ShowSource? = nil

    func run(_ command: ControlCommand) -> ControlReply {
        if let show {
            switch command {
            case .setContent, .addCue, .setLayout:
                return .error(ControlError(409, "glout plays the show \(ControlRoutes.quoted(show.show.show.path)) (--show): its "
                                           + "zones say what each output shows"))
            default: break
            }
        }
        switch command {
        case .setShow(let file):
            guard let show else {
                return .error(ControlError(409, "glout plays no show: start it with --show FILE to play shows"))
            }
            do throws(ControlError) {
                let loaded = try loader.replaceShow(file, in: show)
                let zones = loaded.show.outputs.reduce(loaded.show.span.count) { $0 + $1.zones.count }
                return .json(["show": loaded.show.path, "zones": zones])
            } catch {
                return .error(error)
            }
        case .openAPI:
            return ControlReply(status: 200, body: Array(EmbeddedDocuments.openAPI.utf8))
        case .events(let threshold):
            guard let stream = events.subscribe(missedThreshold: threshold) else {
                return .error(ControlError(503, "\(EventHub.maximumStreams) event streams are open already, the most glout serves"))
            }
            return ControlReply(status: 200, body: [], contentType: "text/event-stream", stream: stream)
        case .setContent(let output, let file):
            let requested = MonotonicInstant.now
            let rendering: ContentRendering
            do throws(ControlError) {
                rendering = try loader.load(file)
            } catch {
                return .error(error)
            }
            let ready = MonotonicInstant.now
            let reply = bridge.call { [service] in
                service.value.setContent(rendering, file: file, on: output, requested: requested, ready: ready)
            }
            if reply.status >= 300 { loader.discard([rendering]) }
            return reply
        case .addCue(let at, let actions, let changes):
            return addCue(at: at, actions: actions, changes: changes)
        case .screenshot(let name):
            let request = Screenshots.Request()
            let asked = bridge.call { [service] in service.value.requestScreenshot(of: name, request) }
            guard asked.status == 200 else { return asked }
            guard let picture = request.wait(seconds: 5) else {
                screenshots.cancel(request)
                return .error(ControlError(503, "\(ControlRoutes.quoted(name)) did not draw a frame within 5 s"))
            }
            do {
                return ControlReply(status: 200, body: try picture.pngData(bottomUp: true), contentType: "image/png")
            } catch {
                return .error(ControlError(500, GloutError(error).message))
            }
        default:
            return bridge.call { [service] in service.value.perform(command) }
        }
    }

    /// A cue: its files opened and decoded now (each once), then handed to the session's
    /// thread with its layout and primary; the files go again if it is refused.
    private func addCue(at: Double, actions: [CueAction], changes: CueChanges) -> ControlReply {
        let requested = MonotonicInstant.now
        var loaded: [String: ContentRendering] = [:]
        for action in actions where loaded[action.file] == nil {
            guard loaded.count < ControlCommands.maximumCueFiles else {
                loader.discard(Array(loaded.values))
                return .error(ControlError(400, "a cue shows at most \(ControlCommands.maximumCueFiles) different files"))
            }
            do throws(ControlError) {
                loaded[action.file] = try loader.load(action.file)
            } catch {
                loader.discard(Array(loaded.values))
                return .error(error)
            }
        }
        let ready = MonotonicInstant.now
        let pairs = actions.compactMap { action in loaded[action.file].map { (action, $0) } }
        let reply = bridge.call { [service] in
            service.value.addCue(at: at, actions: pairs, changes: changes, requested: requested, ready: ready)
        }
        if reply.status >= 300 { loader.discard(Array(loaded.values)) }
        return reply
    }
}
