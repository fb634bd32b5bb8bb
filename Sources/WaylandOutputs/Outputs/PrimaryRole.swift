/// Which output is the primary as outputs come and go. Pure, so recorded sequences are
/// unit-tested.
///
/// The primary keeps its role while it is connected, even when an output that sorts
/// before it appears. When it leaves, the next output in order takes the role; when it
/// comes back (an output with the same name), it gets the role back.
package struct PrimaryRole: Sendable, Equatable {
    /// The output the application asked for: wins whenever it is connected.
    package var requested: String?
    /// The primary now.
    package private(set) var current: String?
    /// A primary that left, to be restored when it returns.
    package private(set) var displaced: String?

    package init(requested: String? = nil) {
        self.requested = requested
    }

    /// The primary among `outputs` (those the application covers), updating the memory.
    @discardableResult
    package mutating func update(_ outputs: [Output]) -> Output? {
        let names = Set(outputs.map(\.name))
        let chosen: String?
        if let requested, names.contains(requested) {
            chosen = requested
        } else if let displaced, names.contains(displaced) {
            chosen = displaced
        } else if let current, names.contains(current) {
            chosen = current
        } else {
            chosen = OutputOrder.sorted(outputs).first?.name
        }
        if let current, current != chosen, !names.contains(current) {
            displaced = current
        }
        if chosen == displaced { displaced = nil }
        current = chosen
        return outputs.first { $0.name == chosen }
    }
}
