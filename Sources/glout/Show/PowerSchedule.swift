/// When a show's outputs are off: the dayparts of an output entry's `off` (docs/shows.md),
/// any one of which holding turns the outputs off. Pure: whether they are off at an
/// instant, and the stretch of time off around or after one.
struct PowerSchedule: Sendable, Equatable {
    var dayparts: [Daypart]

    /// A stretch of time the outputs are off: from `start` (included) to `end` (not), each
    /// possibly infinite (off since before anyone looked, or for good).
    struct OffWindow: Sendable, Equatable {
        var start: Double
        var end: Double

        func contains(_ seconds: Double) -> Bool { seconds >= start && seconds < end }
    }

    /// How far ahead an edge is looked for: past it, the outputs are taken to stay as they are
    /// (looked at again when that time comes).
    static let horizon: Double = 8 * 86_400

    /// Whether the outputs are off at `seconds` since 1970.
    func isOff(at seconds: Double) -> Bool { dayparts.contains { $0.holds(at: seconds) } }

    /// The first instant after `seconds` (within ``horizon``) at which the outputs go from
    /// off to on or back; nil: none.
    func nextEdge(after seconds: Double) -> Double? {
        guard seconds.isFinite else { return nil }
        let now = isOff(at: seconds)
        let instants = Set(dayparts.flatMap { $0.changes(from: seconds, to: seconds + PowerSchedule.horizon) })
        return instants.filter { $0 > seconds && $0 <= seconds + PowerSchedule.horizon }.sorted()
            .first { isOff(at: $0) != now }
    }

    /// The stretch off that holds `seconds` (its start unknown: -infinity), else the next one
    /// within ``horizon``; nil: none.
    func offWindow(around seconds: Double) -> OffWindow? {
        if isOff(at: seconds) { return OffWindow(start: -.infinity, end: nextEdge(after: seconds) ?? .infinity) }
        guard let start = nextEdge(after: seconds) else { return nil }
        return OffWindow(start: start, end: nextEdge(after: start) ?? .infinity)
    }
}
