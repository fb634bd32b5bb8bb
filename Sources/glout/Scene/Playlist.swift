/// --content LIST: a text file of `FILE [SECONDS]` lines (PNGs, shaders and videos),
/// played in order and looped on the content clock. Pure: parsing and which item a time
/// falls in; loading the files is ``ContentFile``'s.
struct Playlist: Sendable, Equatable {
    /// One line: the file (relative paths are the list's folder's) and how long it shows
    /// (nil: a video's own length).
    struct Line: Sendable, Equatable {
        var path: String
        var seconds: Double?
        /// Its line number in the list, for errors.
        var number: Int
    }

    /// Where content time `time` is in a list of items `durations` seconds long:
    /// the item, the pass through the list, and the time since the item began.
    struct Position: Sendable, Equatable {
        var item: Int
        var pass: Int
        var local: Double
    }

    let durations: [Double]
    /// One pass through the list.
    let length: Double

    /// `durations` must be positive and finite (``parse(_:folder:)`` and the loader see to it).
    init(durations: [Double]) {
        self.durations = durations
        length = durations.reduce(0, +)
    }

    /// The longest a list may be and the most an item may last (a day).
    static let itemLimit = 10_000
    static let longestItem = 86_400.0
    /// The least an item may last: a millisecond, less than any refresh.
    static let shortestItem = 0.001

    /// Whether a text file is a shader rather than a list: its first line that is not
    /// blank and not a comment (`//`, `/* */`) starts with GLSL's `#version`, which
    /// GLSL ES 3.00 requires first.
    static func isShader(_ text: String) -> Bool {
        var rest = Substring(text)
        while true {
            rest = rest.drop { $0.isWhitespace }
            if rest.hasPrefix("//") {
                rest = rest.drop { !$0.isNewline }
            } else if rest.hasPrefix("/*") {
                guard let end = rest.range(of: "*/") else { return false }
                rest = rest[end.upperBound...]
            } else {
                return rest.hasPrefix("#version")
            }
        }
    }

    /// The lines of a list: `FILE` or `FILE SECONDS`, blank lines and lines starting
    /// with `#` left out. A name with spaces is fine: SECONDS is the last word when it is
    /// a number. Errors say which line and why.
    static func parse(_ text: String, folder: String) throws(PlaylistError) -> [Line] {
        var lines: [Line] = []
        for (offset, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let number = offset + 1
            let line = raw.trimmedOfBlanks
            if line.isEmpty || line.hasPrefix("#") { continue }
            var path = line, seconds: Double?
            if let space = line.lastIndex(where: { $0 == " " || $0 == "\t" }) {
                let word = line[line.index(after: space)...]
                if let value = Double(word) {
                    guard value.isFinite, value >= shortestItem, value <= longestItem else {
                        throw PlaylistError(line: number, message: "\(word) is not a duration: give seconds from \(shortestItem) "
                                            + "to \(Int(longestItem))")
                    }
                    seconds = value
                    path = line[..<space].trimmedOfBlanks
                }
            }
            guard lines.count < itemLimit else { throw PlaylistError(line: number, message: "more than \(itemLimit) items") }
            let resolved = path.hasPrefix("/") || folder.isEmpty ? String(path) : folder + "/" + path
            lines.append(Line(path: resolved, seconds: seconds, number: number))
        }
        guard !lines.isEmpty else { throw PlaylistError(line: nil, message: "lists no file (each line: FILE [SECONDS])") }
        return lines
    }

    /// The item at content time `time` (before 0 or not finite: the start).
    func position(at time: Double) -> Position {
        let t = time.isFinite ? max(0, time) : 0
        let passes = (t / length).rounded(.down)
        var offset = min(max(0, t - passes * length), length)
        for (item, duration) in durations.enumerated() {
            if offset < duration || item == durations.count - 1 {
                return Position(item: item, pass: Int(passes), local: min(offset, duration))
            }
            offset -= duration
        }
        return Position(item: 0, pass: Int(passes), local: 0)
    }

    /// Content time at which `item` next begins at or after `time`.
    func nextStart(of item: Int, after time: Double) -> Double {
        let t = time.isFinite ? max(0, time) : 0
        let offset = durations[..<item].reduce(0, +)
        let passes = ((t - offset) / length).rounded(.up)
        return max(0, passes) * length + offset
    }
}

private extension StringProtocol {
    /// The text without spaces, tabs and carriage returns at either end.
    var trimmedOfBlanks: String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        return String(self.drop(while: blank).reversed().drop(while: blank).reversed())
    }
}

/// A list that cannot be played: the line (1-based, nil for the whole list) and why.
struct PlaylistError: Error, Equatable {
    var line: Int?
    var message: String
}
