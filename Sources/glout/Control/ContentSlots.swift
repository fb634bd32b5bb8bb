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
    }

    private let state = Locked(State())

    /// Puts `rendering` on the output named (nil: on every output) from the first refresh
    /// targeted at or after `due` (nil: now). Returns the assignment's generation.
    @discardableResult
    func assign(_ rendering: ContentRendering, file: String, to output: String?, requested: MonotonicInstant,
                ready: MonotonicInstant, due: MonotonicInstant? = nil, cue: Int? = nil) -> UInt64 {
        let now = MonotonicInstant.now
        return state.withLock { state in
            state.generation += 1
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
            return state.generation
        }
    }

    /// The newest content due on the output named by `target`, if the API gave any.
    func assignment(for output: String, at target: MonotonicInstant) -> Assignment? {
        state.withLock { state in
            let own = state.assigned[output]?.last { $0.due <= target }
            let every = state.assigned[""]?.last { $0.due <= target }
            guard let own, let every else { return own ?? every }
            return (own.due, own.generation) > (every.due, every.generation) ? own : every
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
        return state.withLock { state in
            var dropped: Set<Int> = []
            for key in state.assigned.keys {
                state.assigned[key]?.removeAll { assignment in
                    guard let id = assignment.cue, cue == nil || id == cue, assignment.due > now else { return false }
                    dropped.insert(id)
                    return true
                }
            }
            return dropped
        }
    }

    /// A renderer showed `assignment` on `output` from `frame`, meant for `target`.
    func showed(_ assignment: Assignment, on output: String, frame: UInt64, target: MonotonicInstant) {
        state.withLock {
            $0.shown[output] = Shown(generation: assignment.generation, file: assignment.file, frame: frame, target: target,
                                     requested: assignment.requested, ready: assignment.ready, cue: assignment.cue)
        }
    }

    /// What the output shows of the API's content, if anything.
    func shown(on output: String) -> Shown? {
        state.withLock { $0.shown[output] }
    }
}
