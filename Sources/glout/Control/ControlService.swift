import Foundation
import Glibc
import WaylandOutputs

/// The control API of one `glout run` (--http, --osc): the servers on their own threads,
/// files opened and decoded there, and every change made on the session's thread, where the outputs,
/// the scene and the windows are. Nothing here runs on a render thread: an output takes
/// new content at the start of its next frame (``ContentSlots``).
final class ControlService {
    private let stage: Stage
    private let log: Log
    private let started = MonotonicInstant.now
    private let bridge: SessionBridge
    private var server: HTTPServer?
    private var osc: OSCServer?
    /// The cues given, by id; those due are dropped as they are listed.
    private var cues: [Cue] = []
    private var nextCue = 1
    /// When refreshes missed were last looked for.
    private var missedChecked: MonotonicInstant?
    /// Each output's pacing as status last worked it out, and when.
    private var pacingCache: [UInt32: (at: MonotonicInstant, entry: [String: Any])] = [:]

    /// Starts listening as the options say; nil without --http and --osc.
    static func start(options: RunOptions, stage: Stage, log: Log) throws -> ControlService? {
        guard options.http != nil || options.osc != nil else { return nil }
        let token = try options.httpTokenFile.map { try BearerToken(file: $0) }
        let root = try ContentRoot(options.contentRoot)
        let service = ControlService(stage: stage, log: log)
        let commands = ControlCommands(loader: ContentLoader(stage: stage, root: root, log: log, bridge: service.bridge),
                                       bridge: service.bridge,
                                       service: SessionThreadOnly(service), screenshots: stage.screenshots,
                                       events: stage.events, show: stage.show)
        let files = root.path.map { ", files under \(Log.printable($0))" } ?? ""
        let reachable = SessionThreadOnly(service)
        stage.events.onPulse { [bridge = service.bridge] in
            bridge.send { reachable.value.publishMissedRefreshes() }
        }
        do {
            if var address = options.http {
                let server = try HTTPServer(address: address, token: token) { request in
                    do throws(ControlError) {
                        return commands.run(try ControlRoutes.command(method: request.method, path: request.path,
                                                                      query: request.query, body: request.body))
                    } catch {
                        return .error(error)
                    }
                }
                service.server = server
                address.port = server.port
                log.info("control API on http://\(address)/api/v1/" + (token == nil ? "" : " (bearer token)") + files)
            }
            if var address = options.osc {
                let osc = try OSCServer(address: address, allowed: options.oscAllow, events: stage.events, log: log) { message in
                    do throws(ControlError) {
                        return commands.run(try OSCRoutes.command(path: message.path, arguments: message.arguments))
                    } catch {
                        return .error(error)
                    }
                }
                service.osc = osc
                address.port = osc.port
                let allowed = options.oscAllow.isEmpty ? "" : " (from " + options.oscAllow.map(\.description).joined(separator: ", ") + ")"
                log.info("OSC on udp://\(address)\(OSCRoutes.prefix)/" + allowed + files)
            }
        } catch {
            service.stop()
            throw error
        }
        return service
    }

    private init(stage: Stage, log: Log) {
        self.stage = stage
        self.log = log
        let display = SessionThreadOnly(stage.display)
        bridge = SessionBridge { work in display.value.onSessionThread(work) }
    }

    /// Ends the event streams, answers the callers still waiting, then stops the servers
    /// and joins their threads. On the session's thread, before the stage goes.
    func stop() {
        stage.events.close()
        stage.events.onPulse(nil)
        bridge.close()
        server?.stop()
        server = nil
        osc?.stop()
        osc = nil
    }

    func perform(_ command: ControlCommand) -> ControlReply {
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
        case .listCues:
            return .json(["cues": pendingCues.map(\.json)])
        case .cancelCues(let id):
            // A cue's layout and primary not yet due go with its files.
            let now = MonotonicInstant.now.nanoseconds
            var unscheduled: [Int] = []
            stage.scene.update { state in
                unscheduled = state.scheduled.filter { (id == nil || $0.cue == id) && $0.due > now }.map(\.cue)
                state.scheduled.removeAll { unscheduled.contains($0.cue) }
            }
            let dropped = stage.slots.cancel(cue: id).union(unscheduled)
            cues.removeAll { dropped.contains($0.id) }
            if let id, !dropped.contains(id) {
                return .error(ControlError(404, "no cue \(id) waits: it fired, was cancelled or never was"))
            }
            if !dropped.isEmpty { log.info("control: cancelled cue " + dropped.sorted().map(String.init).joined(separator: ", ")) }
            return .json(["cancelled": dropped.sorted()])
        case .openAPI, .setContent, .screenshot, .addCue, .events, .setShow:
            return .error(ControlError(500, "not a command of the session's thread"))
        }
    }

    /// A cue: its files on the outputs its actions name, and its layout and primary, from
    /// the first refresh targeted at or after `at` (CLOCK_REALTIME seconds) on each. Every
    /// output is woken a little before, so that one resting draws on until it takes the cue.
    func addCue(at: Double, actions: [(CueAction, ContentRendering)], changes: CueChanges = CueChanges(),
                requested: MonotonicInstant, ready: MonotonicInstant) -> ControlReply {
        guard let due = RealtimeClock.instant(at: at) else {
            return .error(ControlError(400, "at \(at) is before this machine started"))
        }
        let names = Set(stage.display.outputs.map(\.name))
        if let unknown = actions.first(where: { $0.0.output.map { !names.contains($0) } ?? false }) {
            return .error(ControlError(404, "no output named \(ControlRoutes.quoted(unknown.0.output ?? "")); \(outputList)"))
        }
        if let primary = changes.primary, !names.contains(primary) {
            return .error(ControlError(404, "no output named \(ControlRoutes.quoted(primary)); \(outputList)"))
        }
        let id = nextCue
        nextCue += 1
        for (action, rendering) in actions {
            stage.slots.assign(rendering, file: action.file, to: action.output, requested: requested, ready: ready, due: due, cue: id)
        }
        if !changes.isEmpty { schedule(changes, cue: id, due: due) }
        let cue = Cue(id: id, at: at, due: due, actions: actions.map(\.0), changes: changes)
        cues.append(cue)
        let stage = SessionThreadOnly(stage)
        let lead = max(0, (due - MonotonicInstant.now).inSeconds - 0.25)
        DispatchQueue.global().asyncAfter(deadline: .now() + lead) { [bridge] in
            bridge.send { stage.value.wakeWindows() }
        }
        log.info("control: cue \(id) at \(String(format: "%.3f", at)), in \(String(format: "%.3f", (due - MonotonicInstant.now).inSeconds)) s: "
                 + (actions.map { "\(Log.printable($0.0.file)) on \($0.0.output.map(Log.printable) ?? "every output")" }
                    + (changes.layout.map { ["layout \($0.rawValue)"] } ?? []) + (changes.primary.map { ["primary \(Log.printable($0))"] } ?? []))
                    .joined(separator: ", "))
        return .json(cue.json, status: 201)
    }

    /// A cue's layout and primary: in the scene's schedule now, so that each output draws
    /// them from its first frame targeted at or after `due`; made the scene's and the
    /// session's own on the session's thread once due (unless cancelled before).
    private func schedule(_ changes: CueChanges, cue: Int, due: MonotonicInstant) {
        stage.scene.update {
            $0.scheduled.append(.init(cue: cue, due: due.nanoseconds, layout: changes.layout, primary: changes.primary))
        }
        // Weak: a cue may be due long after glout has stopped.
        let service = WeakSessionReference(self)
        DispatchQueue.global().asyncAfter(deadline: .now() + max(0, (due - MonotonicInstant.now).inSeconds)) { [bridge] in
            bridge.send { service.value?.applyScheduled(cue: cue) }
        }
    }

    /// Makes a due cue's layout and primary the scene's and the session's own.
    private func applyScheduled(cue: Int) {
        guard let change = stage.scene.snapshot.scheduled.first(where: { $0.cue == cue }) else { return }
        if let layout = change.layout {
            stage.scene.update { $0.layout = layout }
            try? stage.refreshSpan()
        }
        if let name = change.primary, let output = stage.display.outputs.first(where: { $0.name == name }) {
            stage.display.setPreferredPrimary(output.name)
        }
        stage.scene.update { $0.scheduled.removeAll { $0.cue == cue } }
        stage.wakeWindows()
        log.info("control: cue \(cue) fired: " + ((change.layout.map { ["layout \($0.rawValue)"] } ?? [])
                                                  + (change.primary.map { ["primary \(Log.printable($0))"] } ?? [])).joined(separator: ", "))
        stage.events.publish("cue-fired") {
            var data: [String: Any] = ["cue": cue, "target": RealtimeClock.seconds(at: MonotonicInstant(nanoseconds: change.due))]
            if let layout = change.layout { data["layout"] = layout.rawValue }
            if let primary = change.primary { data["primary"] = primary }
            return data
        }
    }

    /// The cues not yet due; those that are are forgotten.
    private var pendingCues: [Cue] {
        let now = MonotonicInstant.now
        cues.removeAll { $0.due <= now }
        return cues
    }

    /// A cue as GET /cues lists it.
    private struct Cue {
        var id: Int
        var at: Double
        var due: MonotonicInstant
        var actions: [CueAction]
        var changes: CueChanges

        var json: [String: Any] {
            ["id": id, "at": at, "due_in_s": max(0, (due - MonotonicInstant.now).inSeconds),
             "actions": actions.map { action -> [String: Any] in
                 var entry: [String: Any] = ["file": action.file]
                 if let output = action.output { entry["output"] = output }
                 return entry
             } + changes.json]
        }
    }

    /// Has the output named read its next frame for `request`, and wakes it (a resting
    /// output draws its picture again).
    func requestScreenshot(of name: String, _ request: Screenshots.Request) -> ControlReply {
        guard let output = stage.display.outputs.first(where: { $0.name == name }) else {
            return .error(ControlError(404, "no output named \(ControlRoutes.quoted(name)); \(outputList)"))
        }
        guard stage.options.scene == .views else {
            return .error(ControlError(409, "screenshots come from the views scene; this glout runs --scene \(stage.options.scene.rawValue)"))
        }
        guard stage.display.windows[output.id] != nil else {
            return .error(ControlError(409, "\(output.printableName) has no window (--outputs leaves it out)"))
        }
        stage.screenshots.add(request, for: output.name)
        stage.wakeWindows([output.id])
        return .json(["output": output.name])
    }

    /// Puts `rendering` on the output named (nil: every output), where a content view or a
    /// span part shows it.
    func setContent(_ rendering: ContentRendering, file: String, on name: String?,
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

    /// Publishes, per output, the refreshes since the last look that got no frame of
    /// glout's (a frame's target more than one refresh after the one before), where there
    /// were any. A pause where the picture stood still is not one.
    func publishMissedRefreshes() {
        let now = MonotonicInstant.now
        let since = missedChecked.flatMap { (now - $0).inSeconds < 3 ? $0 : nil }
            ?? MonotonicInstant(nanoseconds: now.nanoseconds &- min(now.nanoseconds, 1_000_000_000))
        missedChecked = now
        for output in stage.display.outputs {
            guard let window = stage.display.windows[output.id] else { continue }
            // A frame every refresh, or every few where --fps asks for fewer.
            let refresh = (output.currentMode?.refreshPeriod ?? window.statistics.refreshPeriod).inNanoseconds
            let asked = stage.options.framesPerSecond(for: output.name).map { $0 > 0 ? Int64(1e9 / $0) : 0 } ?? 0
            let period = max(refresh, asked)
            guard period > 0 else { continue }
            let samples = window.frameLog.samples
            var missed = 0, frames = 0
            for (before, sample) in zip(samples, samples.dropFirst()) where sample.commit > since && sample.commit <= now {
                frames += 1
                guard !before.restsAfter, let from = before.target, let to = sample.target, to > from else { continue }
                let refreshes = (Double((to - from).inNanoseconds) / Double(period)).rounded()
                missed += refreshes.isFinite && refreshes > 1 ? Int(min(refreshes, 1e9)) - 1 : 0
            }
            guard missed > 0 else { continue }
            stage.events.publish("refreshes-missed", missed: missed) {
                ["output": output.name, "missed": missed, "frames": frames, "seconds": (now - since).inSeconds]
            }
        }
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
                // Worked out again at most once a second (of a 10 s window): each time
                // copies the output's frame log, which its render thread then copies again
                // at its next frame; ten times a second that cost 7% of a core.
                if let cached = pacingCache[output.id], (now - cached.at).inSeconds < 1 {
                    entry.merge(cached.entry) { _, new in new }
                } else {
                    var pacingEntry: [String: Any] = [:]
                    let statistics = window.statistics
                    let log = window.frameLog
                    let period = output.currentMode?.refreshPeriod ?? statistics.refreshPeriod
                    let samples = log.samples.filter { $0.commit >= since }
                    let pacing = OutputPacing(samples: samples, period: UInt64(max(1, period.inNanoseconds)))
                    pacingEntry["frames"] = statistics.frames
                    pacingEntry["fps"] = pacing.framesPerSecond
                    pacingEntry["on_time_pct"] = pacing.onTimePercent
                    pacingEntry["missed"] = pacing.missed
                    if let landing = LandingSummary(log.landings.filter { $0.commit >= since }) {
                        pacingEntry["landing_p50_ms"] = landing.p50_ms
                        pacingEntry["landing_p99_ms"] = landing.p99_ms
                    }
                    pacingCache[output.id] = (now, pacingEntry)
                    entry.merge(pacingEntry) { _, new in new }
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
