/// Touches tracked by id through down, motion, up, cancel and frame, as wl_touch
/// delivers them. Pure, so recorded sequences are unit-tested.
///
/// Changes gather until `frame`, which publishes them together (several fingers may
/// move in one frame). A touch belongs to the output it went down on for its whole
/// life. An `up` or `motion` for an id that is not down is ignored; `cancel` drops every
/// touch (the compositor took the sequence over).
struct TouchTracker: Sendable {
    /// Touches down, as of the last frame.
    private(set) var points: [TouchPoint] = []
    private var pending: [TouchPoint] = []
    private var changed = false

    init() {}

    /// The most touches tracked at once: hands have ten fingers, and a compositor that sends
    /// downs without ups must not make the list grow without end.
    static let maximumTouches = 32

    mutating func down(id: Int32, outputID: UInt32, x: Double, y: Double) {
        pending.removeAll { $0.id == id }
        guard pending.count < TouchTracker.maximumTouches else { return }
        pending.append(TouchPoint(id: id, outputID: outputID, x: x, y: y))
        changed = true
    }

    mutating func motion(id: Int32, x: Double, y: Double) {
        guard let i = pending.firstIndex(where: { $0.id == id }) else { return }
        pending[i].x = x
        pending[i].y = y
        changed = true
    }

    mutating func up(id: Int32) {
        let before = pending.count
        pending.removeAll { $0.id == id }
        changed = changed || pending.count != before
    }

    /// Publishes the changes since the last frame; returns the touches now down, or nil
    /// when nothing changed.
    mutating func frame() -> [TouchPoint]? {
        guard changed else { return nil }
        changed = false
        points = pending
        return points
    }

    /// Drops every touch (wl_touch.cancel) and returns the now empty set.
    mutating func cancel() -> [TouchPoint] {
        pending.removeAll()
        points.removeAll()
        changed = false
        return points
    }
}
