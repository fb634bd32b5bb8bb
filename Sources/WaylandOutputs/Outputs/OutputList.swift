/// The described outputs and the events their changes make: pure bookkeeping, so the
/// sequences the compositor can produce are unit-tested without one.
struct OutputList: Sendable {
    private var described: [UInt32: Output] = [:]

    init() {}

    /// The described outputs in ``OutputOrder`` order.
    var ordered: [Output] { OutputOrder.sorted(Array(described.values)) }

    /// Records a complete description: `connected` the first time, `changed` after.
    mutating func publish(_ output: Output) -> OutputEvent {
        let previous = described.updateValue(output, forKey: output.id)
        return previous.map { .changed(output, previous: $0) } ?? .connected(output)
    }

    /// Forgets an output whose global is gone: `disconnected` if the application was
    /// told of it, nil if it went before its first `done` (it never existed for the app).
    mutating func remove(id: UInt32) -> OutputEvent? {
        described.removeValue(forKey: id).map { .disconnected($0) }
    }
}
