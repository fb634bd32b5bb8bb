/// The deterministic order of outputs (``PrimaryRole`` picks the first as primary).
package enum OutputOrder {
    /// Outputs sorted by logical x, then logical y, then name.
    package static func sorted(_ outputs: [Output]) -> [Output] {
        outputs.sorted { a, b in
            if a.logicalFrame.x != b.logicalFrame.x { return a.logicalFrame.x < b.logicalFrame.x }
            if a.logicalFrame.y != b.logicalFrame.y { return a.logicalFrame.y < b.logicalFrame.y }
            return a.name < b.name
        }
    }
}
