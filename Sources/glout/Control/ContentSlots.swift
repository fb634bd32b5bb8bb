import WaylandOutputs

/// What the control API put on the outputs while glout runs, and what each output's
/// renderer has shown of it. The session's thread sets an output's content (or every
/// output's); each renderer asks at every frame, takes a new one from that frame on, and
/// says from which frame it showed it.
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
    }

    private struct State: Sendable {
        var generation: UInt64 = 0
        /// By output name; "" for every output not named.
        var assigned: [String: Assignment] = [:]
        var shown: [String: Shown] = [:]
    }

    private let state = Locked(State())

    /// Puts `rendering` on the output named (nil: on every output, replacing what each was
    /// given by name). Returns the assignment's generation.
    @discardableResult
    func assign(_ rendering: ContentRendering, file: String, to output: String?, requested: MonotonicInstant,
                ready: MonotonicInstant) -> UInt64 {
        state.withLock { state in
            state.generation += 1
            let assignment = Assignment(generation: state.generation, rendering: rendering, file: file, requested: requested,
                                        ready: ready)
            if let output {
                state.assigned[output] = assignment
            } else {
                state.assigned = ["": assignment]
            }
            return state.generation
        }
    }

    /// The content the API gave the output named, if it gave any.
    func assignment(for output: String) -> Assignment? {
        state.withLock { $0.assigned[output] ?? $0.assigned[""] }
    }

    /// The generation of the output's assignment: cheap enough for every frame.
    func generation(for output: String) -> UInt64? {
        state.withLock { ($0.assigned[output] ?? $0.assigned[""])?.generation }
    }

    /// A renderer showed `assignment` on `output` from `frame`, meant for `target`.
    func showed(_ assignment: Assignment, on output: String, frame: UInt64, target: MonotonicInstant) {
        state.withLock {
            $0.shown[output] = Shown(generation: assignment.generation, file: assignment.file, frame: frame, target: target,
                                     requested: assignment.requested, ready: assignment.ready)
        }
    }

    /// What the output shows of the API's content, if anything.
    func shown(on output: String) -> Shown? {
        state.withLock { $0.shown[output] }
    }
}
