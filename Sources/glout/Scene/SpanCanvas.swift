import Foundation
import WaylandOutputs

/// The frame around a screen's picture, whole logical points per edge: canvas that
/// falls behind it is not shown, as on a video wall of real screens.
struct Bezel: Codable, Equatable, Sendable {
    var top: Int32, right: Int32, bottom: Int32, left: Int32

    static let zero = Bezel(top: 0, right: 0, bottom: 0, left: 0)
    /// The widest bezel glout takes, in points (far wider than any screen's frame).
    static let maximum: Int32 = 10_000

    init(top: Int32, right: Int32, bottom: Int32, left: Int32) {
        (self.top, self.right, self.bottom, self.left) = (top, right, bottom, left)
    }

    init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        let range = 0...Double(Bezel.maximum)
        top = try values.wholeNumber(.top, in: range)
        right = try values.wholeNumber(.right, in: range)
        bottom = try values.wholeNumber(.bottom, in: range)
        left = try values.wholeNumber(.left, in: range)
    }
}

/// One output's place in a wall: which machine drives it, its name there, its rectangle
/// in the wall's logical layout (points) and its bezels. The schema of
/// `glout outputs --wall-json` and of `--wall FILE` (docs/json.md).
struct WallEntry: Codable, Equatable, Sendable {
    var machine: String
    var name: String
    var x: Int32, y: Int32, width: Int32, height: Int32
    var bezel: Bezel

    var frame: Rect { Rect(x: x, y: y, width: width, height: height) }

    init(machine: String, name: String, x: Int32, y: Int32, width: Int32, height: Int32, bezel: Bezel) {
        (self.machine, self.name, self.bezel) = (machine, name, bezel)
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }

    /// Coordinates are read as numbers and checked here: JSONDecoder's own message for a
    /// number out of Int32's range does not say which.
    init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        machine = try values.decode(String.self, forKey: .machine)
        name = try values.decode(String.self, forKey: .name)
        let limit = Double(Wall.coordinateLimit)
        x = try values.wholeNumber(.x, in: -limit...limit)
        y = try values.wholeNumber(.y, in: -limit...limit)
        width = try values.wholeNumber(.width, in: 1...limit)
        height = try values.wholeNumber(.height, in: 1...limit)
        bezel = try values.decode(Bezel.self, forKey: .bezel)
    }
}

extension KeyedDecodingContainer {
    /// A whole number within `range`, or an error at `key` saying so.
    func wholeNumber(_ key: Key, in range: ClosedRange<Double>) throws -> Int32 {
        let value = try decode(Double.self, forKey: key)
        guard value.isFinite, value.rounded() == value, range.contains(value) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self,
                debugDescription: "must be a whole number from \(Int64(range.lowerBound)) to \(Int64(range.upperBound)), not \(value)")
        }
        return Int32(value)
    }
}

/// Every output of every machine in one canvas: what `--wall FILE` holds.
struct Wall: Codable, Equatable, Sendable {
    var outputs: [WallEntry]

    /// Positions and sizes glout takes, in points: far beyond any wall, small enough that
    /// sums of them never overflow.
    static let coordinateLimit: Int32 = 1_000_000

    /// The wall in `text`, checked: at least one output, each once, named, sizes above
    /// zero, coordinates and bezels whole numbers within bounds. The message says what is
    /// wrong and where.
    static func parse(_ text: String) throws(WallError) -> Wall {
        let wall: Wall
        do {
            wall = try JSONDecoder().decode(Wall.self, from: Data(text.utf8))
        } catch let error as DecodingError {
            throw WallError(message: describe(error))
        } catch {
            throw WallError(message: "\(error)")
        }
        guard !wall.outputs.isEmpty else { throw WallError(message: "\"outputs\" is empty: a wall needs at least one output") }
        var seen = Set<String>()
        for (index, entry) in wall.outputs.enumerated() {
            let at = "outputs[\(index)] (\(entry.machine) \(entry.name))"
            guard !entry.machine.isEmpty, !entry.name.isEmpty else {
                throw WallError(message: "outputs[\(index)]: machine and name must not be empty")
            }
            guard seen.insert(entry.machine + "\u{0}" + entry.name).inserted else {
                throw WallError(message: "\(at) is listed twice")
            }
        }
        return wall
    }

    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingCharacters(in: ["."])
        }
        switch error {
        case .keyNotFound(let key, let context):
            let at = path(context.codingPath)
            return "\(at.isEmpty ? "" : at + ": ")missing \"\(key.stringValue)\""
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        case .dataCorrupted(let context) where !context.codingPath.isEmpty:
            return "\(path(context.codingPath)) \(context.debugDescription)"
        case .dataCorrupted(let context):
            let at = path(context.codingPath)
            // JSONDecoder puts the parser's own reason (line and column) underneath.
            let reason = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return (at.isEmpty ? "" : at + ": ") + (reason ?? context.debugDescription)
        @unknown default:
            return "\(error)"
        }
    }
}

/// A wall file that cannot be used, and why.
struct WallError: Error, Equatable {
    var message: String
}

/// The span layout's canvas: one picture across the outputs, with their logical layout
/// kept and their bezels added, so that what falls behind a screen's frame is not shown.
/// Pure, so every placement is unit-tested.
///
/// Between two screens side by side lie the right bezel of one and the left bezel of the
/// other: each output's place moves right by the bezels of every output left of it in
/// the same rows, and down likewise. The canvas's origin is the top left corner of the
/// outermost bezels.
struct SpanCanvas: Equatable, Sendable {
    struct Part: Equatable, Sendable {
        var machine: String
        var name: String
        /// Where the output's picture is in the canvas, in points from its top left.
        var frame: Rect
    }

    /// The canvas in points.
    var size: Size
    var parts: [Part]

    init(_ entries: [WallEntry]) {
        let shiftX = SpanCanvas.shifts(entries.map {
            Extent(start: $0.x, length: $0.width, crossStart: $0.y, crossLength: $0.height, before: $0.bezel.left,
                   after: $0.bezel.right)
        })
        let shiftY = SpanCanvas.shifts(entries.map {
            Extent(start: $0.y, length: $0.height, crossStart: $0.x, crossLength: $0.width, before: $0.bezel.top,
                   after: $0.bezel.bottom)
        })
        var minX = Int64.max, minY = Int64.max, maxX = Int64.min, maxY = Int64.min
        for (i, e) in entries.enumerated() {
            let x = Int64(e.x) + shiftX[i], y = Int64(e.y) + shiftY[i]
            minX = min(minX, x - Int64(e.bezel.left))
            minY = min(minY, y - Int64(e.bezel.top))
            maxX = max(maxX, x + Int64(e.width) + Int64(e.bezel.right))
            maxY = max(maxY, y + Int64(e.height) + Int64(e.bezel.bottom))
        }
        guard !entries.isEmpty else {
            size = .zero
            parts = []
            return
        }
        size = Size(width: Int32(clamping: maxX - minX), height: Int32(clamping: maxY - minY))
        parts = entries.enumerated().map { i, e in
            Part(machine: e.machine, name: e.name,
                 frame: Rect(x: Int32(clamping: Int64(e.x) + shiftX[i] - minX), y: Int32(clamping: Int64(e.y) + shiftY[i] - minY),
                             width: e.width, height: e.height))
        }
    }

    /// An output along one axis: where it starts and how long it is, the same across, and
    /// its bezels before and after it along the axis.
    private struct Extent {
        var start: Int32, length: Int32, crossStart: Int32, crossLength: Int32
        var before: Int32, after: Int32

        var end: Int64 { Int64(start) + Int64(length) }

        /// Whether the two share a point across the axis (are in the same rows, or columns).
        func sharesCross(with other: Extent) -> Bool {
            Int64(crossStart) < Int64(other.crossStart) + Int64(other.crossLength)
                && Int64(other.crossStart) < Int64(crossStart) + Int64(crossLength)
        }
    }

    /// How far each output moves along one axis: its own bezel before it, plus the
    /// largest move and bezel after it of the outputs wholly before it in the same rows.
    private static func shifts(_ extents: [Extent]) -> [Int64] {
        var shifts = [Int64](repeating: 0, count: extents.count)
        // In order along the axis: an output's shift needs those of the outputs before it.
        for i in extents.indices.sorted(by: { extents[$0].start < extents[$1].start }) {
            let p = extents[i]
            var before: Int64 = 0
            for (j, q) in extents.enumerated() where j != i && q.end <= Int64(p.start) && q.sharesCross(with: p) {
                before = max(before, shifts[j] + Int64(q.after))
            }
            shifts[i] = before + Int64(p.before)
        }
        return shifts
    }

    func part(machine: String, name: String) -> Part? {
        parts.first { $0.machine == machine && $0.name == name }
    }

    /// The canvas pixel where a part's top left pixel is, at `density` pixels per point.
    static func pixelOrigin(of frame: Rect, density: (x: Double, y: Double)) -> (x: Int32, y: Int32) {
        (Int32(clamping: Int64((Double(frame.x) * density.x).rounded())),
         Int32(clamping: Int64((Double(frame.y) * density.y).rounded())))
    }

    /// The canvas's size in pixels at `density` pixels per point.
    func pixelSize(density: Double) -> Size {
        Size(width: Int32(clamping: Int64((Double(size.width) * density).rounded())),
             height: Int32(clamping: Int64((Double(size.height) * density).rounded())))
    }
}

/// Bezels as the user gave them (--bezel): millimetres, turned into points through the
/// output's physical size, or points.
struct BezelRequest: Equatable, Sendable {
    enum Unit: Equatable, Sendable { case millimetres, points }
    var top: Double, right: Double, bottom: Double, left: Double
    var unit: Unit

    /// One value for every edge or T,R,B,L: millimetres (`4`, `3,12,3,12`), or logical
    /// points with a `px` suffix (`4px`, `3,12,3,12px`). Nil when the text is neither.
    init?(_ text: String) {
        var body = Substring(text)
        unit = .millimetres
        if body.hasSuffix("px") {
            unit = .points
            body = body.dropLast(2)
        }
        let values = body.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
        let limit = Double(Bezel.maximum)
        guard values.count == 1 || values.count == 4,
              values.allSatisfy({ $0 != nil && $0!.isFinite && $0! >= 0 && $0! <= limit }) else { return nil }
        let v = values.map { $0! }
        (top, right, bottom, left) = v.count == 1 ? (v[0], v[0], v[0], v[0]) : (v[0], v[1], v[2], v[3])
    }

    /// The bezels in whole points on `output`. Millimetres need the output's physical
    /// size (turned with its transform): nil when the compositor gives none.
    func points(on output: Output) -> Bezel? {
        switch unit {
        case .points:
            return Bezel(top: Int32(top.rounded()), right: Int32(right.rounded()), bottom: Int32(bottom.rounded()),
                         left: Int32(left.rounded()))
        case .millimetres:
            var physical = output.physicalSize
            if output.transform.swapsAxes { physical = physical.transposed }
            let logical = output.logicalFrame.size
            guard physical.width > 0, physical.height > 0, !logical.isEmpty else { return nil }
            let perMillimetre = (x: Double(logical.width) / Double(physical.width),
                                 y: Double(logical.height) / Double(physical.height))
            func clamp(_ value: Double) -> Int32 { Int32(min(value.rounded(), Double(Bezel.maximum))) }
            return Bezel(top: clamp(top * perMillimetre.y), right: clamp(right * perMillimetre.x),
                         bottom: clamp(bottom * perMillimetre.y), left: clamp(left * perMillimetre.x))
        }
    }
}
