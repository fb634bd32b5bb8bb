extension String {
    /// The text with every control character written out (`\n`, `\t`, `\x1b`, `\u{85}`), so
    /// that text a compositor sent cannot move the cursor, change colours or forge lines
    /// on a terminal. Invalid UTF-8 was already replaced by U+FFFD when the text was read.
    var escapedForTerminal: String {
        guard unicodeScalars.contains(where: \.isControlLike) else { return self }
        var escaped = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7f:
                let hex = String(scalar.value, radix: 16)
                escaped += "\\x" + (hex.count < 2 ? "0" : "") + hex
            case _ where scalar.isControlLike:
                escaped += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}

private extension Unicode.Scalar {
    /// C0 and C1 controls, DEL, and the bidirectional overrides and isolates that can make
    /// a terminal show text in another order than it is.
    var isControlLike: Bool {
        properties.generalCategory == .control || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
    }
}
