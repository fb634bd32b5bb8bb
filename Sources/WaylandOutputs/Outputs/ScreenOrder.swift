/// The deterministic order of outputs and the choice of the primary one.
public enum ScreenOrder {
    /// Outputs sorted by logical x, then logical y, then name.
    public static func sorted(_ outputs: [Output]) -> [Output] {
        outputs.sorted { a, b in
            if a.logicalX != b.logicalX { return a.logicalX < b.logicalX }
            if a.logicalY != b.logicalY { return a.logicalY < b.logicalY }
            return a.name < b.name
        }
    }

    /// The primary: the output named `preferred` when it is present, else the first
    /// in ``sorted(_:)`` order; nil when there are no outputs.
    public static func primary(of outputs: [Output], preferred: String?) -> Output? {
        if let preferred, let named = outputs.first(where: { $0.name == preferred }) { return named }
        return sorted(outputs).first
    }
}
