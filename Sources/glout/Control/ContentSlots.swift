import WaylandOutputs

/// What the control API put on the outputs while glout runs, and what each output's
/// renderer has shown of it. The session's thread assigns content to an output (or to every
/// output), now or from an instant on (a cue); each renderer asks at every frame for the
/// newest assignment due by the frame's target time, takes it from that frame on when it is
/// new, and says from which frame it showed it.
final class ContentSlots: Sendable {
    /// Content the API set, and when.
    struct Assignment: Sendable {
        /// Bumped by every assignment: a renderer takes it when it differs from its own.
        var generation: UInt64
        var rendering: ContentRendering
        /// The file, as the request named it.
        var file: String
        /// CLOCK_MONOTONIC when the request arrived, and when its file was decoded.
        var requested: MonotonicInstant
        var ready: MonotonicInstant
        /// The first refresh target it is shown at (the request's arrival, for content
        /// set now), and the cue it belongs to.
        var due: MonotonicInstant
        var cue: Int?

        /// Where a video or playlist starts: a cue's instant (the same on every machine),
        /// else when its file was ready. Images and shaders keep the scene's clock.
        var origin: MonotonicInstant { cue != nil ? due : ready }
    }

    /// What an output shows of the API's content: which assignment, from which frame, and
    /// that frame's target.
    struct Shown: Sendable, Equatable {
        var generation: UInt64
        var file: String
        var frame: UInt64
        var target: MonotonicInstant
        var requested: MonotonicInstant
        var ready: MonotonicInstant
        var cue: Int?
    }

    private struct State: Sendable {
        var generation: UInt64 = 0
        /// By output name ("" for every output), oldest due first.
        var assigned: [String: [Assignment]] = [:]
        var shown: [String: Shown] = [:]
        /// The videos of the API's content, while an assignment or an output holds them.
        var videos: [ObjectIdentifier: VideoSource] = [:]
        var shownVideos: [String: [VideoSource]] = [:]
        var closed = false

        /// The videos nothing holds any more, forgotten here.
        mutating func videosLetGo() -> [VideoSource] {
            var held = Set<ObjectIdentifier>()
            for list in assigned.values { for assignment in list { held.formUnion(assignment.rendering.videos.map(ObjectIdentifier.init)) } }
            for list in shownVideos.values { held.formUnion(list.map(ObjectIdentifier.init)) }
            let gone = videos.filter { !held.contains($0.key) }
            for key in gone.keys { videos[key] = nil }
            return Array(gone.values)
        }
    }

    private let state = Locked(State())
    /// Where content-started, content-ended and cue-fired go.
    private let events: EventHub
    /// Stops the videos that no assignment and no output holds (off the render thread).
    private let letGo: @Sendable ([VideoSource]) -> Void

    init(events: EventHub = EventHub(), letGo: @escaping @Sendable ([VideoSource]) -> Void = { _ in }) {
        self.events = events
        self.letGo = letGo
    }

    /// Puts `rendering` on the output named (nil: on every output) from the first refresh
    /// targeted at or after `due` (nil: now). Returns the assignment's generation.
    @discardableResult
    func assign(_ rendering: ContentRendering, file: String, to output: String?, requested: MonotonicInstant,
                ready: MonotonicInstant, due: MonotonicInstant? = nil, cue: Int? = nil) -> UInt64 {
        let now = MonotonicInstant.now
        let (generation, gone) = state.withLock { state in
            state.generation += 1
            for video in rendering.videos { state.videos[ObjectIdentifier(video)] = video }
            let assignment = Assignment(generation: state.generation, rendering: rendering, file: file, requested: requested,
                                        ready: ready, due: due ?? requested, cue: cue)
            var list = state.assigned[output ?? "", default: []]
            list.append(assignment)
            list.sort { ($0.due, $0.generation) < ($1.due, $1.generation) }
            // Of what is due already, only the newest can still be shown.
            if let last = list.lastIndex(where: { $0.due <= now }), last > 0 { list.removeFirst(last) }
            state.assigned[output ?? ""] = list
            if output == nil {
                // Content for every output replaces each output's own from now on; their cues stay.
                for key in state.assigned.keys where !key.isEmpty {
                    state.assigned[key]?.removeAll { $0.due <= assignment.due && $0.cue == nil }
                }
            }
            return (state.generation, state.videosLetGo())
        }
        if !gone.isEmpty { letGo(gone) }
        return generation
    }

    /// The newest content due on the output named by `target`, when it is not the
    /// generation the output shows: the output shows it from `frame` on. Says so to the
    /// event streams, with what it replaced (on the render thread: the hub does not wait).
    func take(for output: String, at target: MonotonicInstant, frame: UInt64, showing generation: UInt64) -> Assignment? {
        let taken: (Assignment, Shown, before: Shown?, gone: [VideoSource])? = state.withLock { state in
            let own = state.assigned[output]?.last { $0.due <= target }
            let every = state.assigned[""]?.last { $0.due <= target }
            let newest: Assignment?
            if let own, let every {
                newest = (own.due, own.generation) > (every.due, every.generation) ? own : every
            } else {
                newest = own ?? every
            }
            guard !state.closed, let newest, newest.generation != generation else { return nil }
            let shown = Shown(generation: newest.generation, file: newest.file, frame: frame, target: target,
                              requested: newest.requested, ready: newest.ready, cue: newest.cue)
            let before = state.shown[output]
            state.shown[output] = shown
            state.shownVideos[output] = newest.rendering.videos
            return (newest, shown, before, state.videosLetGo())
        }
        guard let (assignment, shown, before, gone) = taken else { return nil }
        if !gone.isEmpty { letGo(gone) }
        guard events.hasStreams else { return assignment }
        if let before {
            events.publish("content-ended") {
                ["output": output, "file": before.file, "frames": frame >= before.frame ? frame - before.frame : 0]
            }
        }
        events.publish("content-started") {
            var data: [String: Any] = ["output": output, "file": shown.file, "frame": frame,
                                       "target": RealtimeClock.seconds(at: target),
                                       "shown_after_ms": max(0, (target - shown.requested).inSeconds * 1e3)]
            if let cue = shown.cue { data["cue"] = cue }
            return data
        }
        if let cue = shown.cue {
            events.publish("cue-fired") {
                ["cue": cue, "output": output, "frame": frame, "target": RealtimeClock.seconds(at: target)]
            }
        }
        return assignment
    }

    /// The output named went: it shows nothing of the API's (an output of that name that
    /// comes back starts afresh), and no longer holds its videos.
    func outputLeft(_ output: String) {
        let gone = state.withLock { state in
            state.shown[output] = nil
            state.shownVideos[output] = nil
            return state.videosLetGo()
        }
        if !gone.isEmpty { letGo(gone) }
    }

    /// Takes no more content and hands back every video the API's content holds, for
    /// glout to stop as it ends.
    func close() -> [VideoSource] {
        state.withLock { state in
            state.closed = true
            state.assigned = [:]
            state.shownVideos = [:]
            defer { state.videos = [:] }
            return Array(state.videos.values)
        }
    }

    /// Whether content is due on the output named after `target` and within `seconds` of it.
    func isDue(for output: String, after target: MonotonicInstant, within seconds: Double) -> Bool {
        let end = MonotonicInstant(nanoseconds: target.nanoseconds &+ UInt64(seconds * 1e9))
        return state.withLock { state in
            [state.assigned[output], state.assigned[""]].contains { list in
                list?.contains { $0.due > target && $0.due <= end } ?? false
            }
        }
    }

    /// Drops what the cue named (nil: every cue) has not yet shown; returns the cues dropped.
    @discardableResult
    func cancel(cue: Int?) -> Set<Int> {
        let now = MonotonicInstant.now
        let (dropped, gone) = state.withLock { state in
            var dropped: Set<Int> = []
            for key in state.assigned.keys {
                state.assigned[key]?.removeAll { assignment in
                    guard let id = assignment.cue, cue == nil || id == cue, assignment.due > now else { return false }
                    dropped.insert(id)
                    return true
                }
            }
            return (dropped, state.videosLetGo())
        }
        if !gone.isEmpty { letGo(gone) }
        return dropped
    }

    /// What the output shows of the API's content, if anything.
    func shown(on output: String) -> Shown? {
        state.withLock { $0.shown[output] }
    }
}
