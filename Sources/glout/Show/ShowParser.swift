import Foundation
import WaylandOutputs

/// A show file that cannot be played: where in it (a JSON path, `$` the whole) and why.
struct ShowError: Error, Equatable {
    var path: String
    var message: String
}

/// Reads a show file's JSON (docs/shows.md, docs/show.schema.json) into a ``Show``,
/// checking every member: an error names the JSON path and the reason. Files the items
/// name are resolved against the show file's folder; whether they can be read is the
/// loader's to say.
struct ShowParser {
    /// Where relative file names are taken from.
    var folder: String
    /// The zone's time zone where the show names none: the machine's.
    var defaultTimeZone = TimeZone.current
    /// What text is drawn over where its item names no background: the show's.
    var defaultBackground = RGB(r: 0, g: 0, b: 0)

    static let zoneLimit = 64
    static let playlistLimit = 64
    static let itemLimit = 10_000
    static let priorityRange = -1000...1000
    /// The longest crossfade: a minute.
    static let longestCrossfade = 60_000.0

    /// The members each object of a show may have (docs/show.schema.json names the same).
    static let members = (show: ["$schema", "timezone", "background", "outputs", "span"], output: ["zones", "off"], zone: ["name", "rect", "items", "playlists"],
                          playlist: ["name", "when", "priority", "items"],
                          item: ["image", "video", "shader", "color", "text", "clock", "ticker", "seconds", "transition", "fit", "when",
                                 "font", "size", "foreground", "background", "align", "speed", "timezone"],
                          daypart: ["days", "from", "until", "dates", "timezone"])

    /// The show in `text`, from the file `path`.
    static func parse(_ text: String, path: String, defaultTimeZone: TimeZone = .current) throws(ShowError) -> Show {
        let value: Any
        do {
            value = try JSONSerialization.jsonObject(with: Data(text.utf8))
        } catch {
            throw ShowError(path: "$", message: "not JSON (\((error as NSError).userInfo["NSDebugDescription"] ?? "unreadable"))")
        }
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
        let parser = ShowParser(folder: path.hasPrefix("/") && folder.isEmpty ? "/" : folder, defaultTimeZone: defaultTimeZone)
        return try parser.show(value, file: path)
    }

    private func show(_ value: Any, file: String) throws(ShowError) -> Show {
        let object = try Self.object(value, at: "$", allowed: Self.members.show)
        var zone = defaultTimeZone
        if let name = object["timezone"] { zone = try Self.timeZone(name, at: "$.timezone") }
        var show = Show(path: file, outputs: [])
        if let background = object["background"] { show.background = try Self.colour(background, at: "$.background") }
        guard object["outputs"] != nil || object["span"] != nil else {
            throw ShowError(path: "$", message: "outputs is missing: give each output's zones (or the span's)")
        }
        let entries = try object["outputs"].map { v throws(ShowError) in try Self.object(v, at: "$.outputs", allowed: nil) } ?? [:]
        guard object["outputs"] == nil || !entries.isEmpty else {
            throw ShowError(path: "$.outputs", message: "names no output (\"*\" is every output)")
        }
        var withTimeZone = self
        withTimeZone.defaultTimeZone = zone
        withTimeZone.defaultBackground = show.background
        for key in entries.keys.sorted() {
            let at = Self.member("$.outputs", key)
            let selector: Show.OutputSelector
            switch key {
            case "*": selector = .every
            case "primary": selector = .primary
            case "secondaries": selector = .secondaries
            default:
                guard !key.isEmpty, key.utf8.count <= 255, !key.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                    throw ShowError(path: at, message: "not an output name: 1 to 255 bytes, no control character")
                }
                selector = .name(key)
            }
            let member = try Self.object(entries[key]!, at: at, allowed: Self.members.output)
            guard let list = member["zones"] else { throw ShowError(path: at, message: "zones is missing") }
            let zones = try Self.array(list, at: at + ".zones", count: 1...Self.zoneLimit)
            var names = Set<String>()
            var parsed: [Show.Zone] = []
            for (index, zone) in zones.enumerated() {
                let zoneAt = "\(at).zones[\(index)]"
                let made = try withTimeZone.zone(zone, at: zoneAt, index: index)
                guard names.insert(made.name).inserted else {
                    throw ShowError(path: zoneAt + ".name", message: "\(ControlRoutes.quoted(made.name)) names another zone of this output too")
                }
                parsed.append(made)
            }
            var off: PowerSchedule?
            if let list = member["off"] {
                let dayparts = try Self.array(list, at: at + ".off", count: 1...Self.playlistLimit)
                var parsedDayparts: [Daypart] = []
                for (index, daypart) in dayparts.enumerated() {
                    parsedDayparts.append(try withTimeZone.daypart(daypart, at: "\(at).off[\(index)]"))
                }
                off = PowerSchedule(dayparts: parsedDayparts)
            }
            show.outputs.append(Show.OutputZones(selector: selector, zones: parsed, off: off))
        }
        if let span = object["span"] { show.span = try withTimeZone.spanZones(span, besides: show.outputs) }
        return show
    }

    /// The span's zones (`$.span`): placed on the canvas of every output (of every machine,
    /// with --wall), named apart from every output's zones.
    private func spanZones(_ value: Any, besides outputs: [Show.OutputZones]) throws(ShowError) -> [Show.Zone] {
        let member = try Self.object(value, at: "$.span", allowed: ["zones"])
        guard let list = member["zones"] else { throw ShowError(path: "$.span", message: "zones is missing") }
        var names = Set(outputs.flatMap { $0.zones.map(\.name) })
        var zones: [Show.Zone] = []
        for (index, zone) in try Self.array(list, at: "$.span.zones", count: 1...Self.zoneLimit).enumerated() {
            let at = "$.span.zones[\(index)]"
            let made = try self.zone(zone, at: at, index: index, defaultName: "span zone \(index + 1)")
            guard names.insert(made.name).inserted else {
                throw ShowError(path: at + ".name", message: "\(ControlRoutes.quoted(made.name)) names another zone of the span or of an output too")
            }
            zones.append(made)
        }
        return zones
    }

    private func zone(_ value: Any, at: String, index: Int, defaultName: String? = nil) throws(ShowError) -> Show.Zone {
        let object = try Self.object(value, at: at, allowed: Self.members.zone)
        let name = try object["name"].map { v throws(ShowError) in try Self.name(v, at: at + ".name") } ?? defaultName ?? "zone \(index + 1)"
        let rect = try object["rect"].map { v throws(ShowError) in try Self.rect(v, at: at + ".rect") } ?? ZoneRect()
        let playlists: [Show.ShowPlaylist]
        switch (object["items"], object["playlists"]) {
        case (let items?, nil):
            playlists = [Show.ShowPlaylist(name: name, when: nil, priority: 0, items: try self.items(items, at: at + ".items"))]
        case (nil, let lists?):
            var made: [Show.ShowPlaylist] = []
            for (index, list) in try Self.array(lists, at: at + ".playlists", count: 1...Self.playlistLimit).enumerated() {
                made.append(try playlist(list, at: "\(at).playlists[\(index)]", index: index))
            }
            playlists = made
        default:
            throw ShowError(path: at, message: "give items (one playlist) or playlists (chosen by their dayparts), not both or neither")
        }
        return Show.Zone(name: name, rect: rect, playlists: playlists, itemsAtTop: object["items"] != nil)
    }

    private func playlist(_ value: Any, at: String, index: Int) throws(ShowError) -> Show.ShowPlaylist {
        let object = try Self.object(value, at: at, allowed: Self.members.playlist)
        let name = try object["name"].map { v throws(ShowError) in try Self.name(v, at: at + ".name") } ?? "playlist \(index + 1)"
        let when = try object["when"].map { v throws(ShowError) in try daypart(v, at: at + ".when") }
        var priority = 0
        if let value = object["priority"] {
            let number = try Self.number(value, at: at + ".priority")
            guard number == number.rounded(), Double(Self.priorityRange.lowerBound) <= number,
                  number <= Double(Self.priorityRange.upperBound) else {
                throw ShowError(path: at + ".priority", message: "must be a whole number from -1000 to 1000")
            }
            priority = Int(number)
        }
        guard let items = object["items"] else { throw ShowError(path: at, message: "items is missing") }
        return Show.ShowPlaylist(name: name, when: when, priority: priority, items: try self.items(items, at: at + ".items"))
    }

    private func items(_ value: Any, at: String) throws(ShowError) -> [Show.ShowItem] {
        var items: [Show.ShowItem] = []
        for (index, item) in try Self.array(value, at: at, count: 1...Self.itemLimit).enumerated() {
            items.append(try self.item(item, at: "\(at)[\(index)]"))
        }
        return items
    }

    /// The kinds of item a later version may play: named in the error, not taken for a typo.
    private static let kindsToCome: Set<String> = ["playlist"]
    /// What an item may be: one of these members.
    static let kinds = ["image", "video", "shader", "color", "text", "clock", "ticker"]
    /// The members only some kinds take.
    private static let only: [(member: String, kinds: [String])] = [
        ("fit", ["image", "video"]), ("font", ["text", "clock", "ticker"]), ("size", ["text", "clock", "ticker"]),
        ("foreground", ["text", "clock", "ticker"]), ("background", ["text", "clock", "ticker"]),
        ("align", ["text", "clock"]), ("speed", ["ticker"]), ("timezone", ["clock"]),
    ]

    private func item(_ value: Any, at: String) throws(ShowError) -> Show.ShowItem {
        let object = try Self.object(value, at: at, allowed: nil)
        if let coming = Self.kindsToCome.sorted().first(where: { object[$0] != nil }) {
            throw ShowError(path: at + "." + coming, message: "this glout's shows play images, videos, shaders, colours and "
                            + "text; \(coming) items are not among them yet (give the playlist's items in the zone)")
        }
        _ = try Self.object(value, at: at, allowed: Self.members.item)
        let kinds = Self.kinds.filter { object[$0] != nil }
        guard kinds.count == 1 else {
            throw ShowError(path: at, message: "give one of image (FILE), video (FILE), shader (FILE), color (\"#RRGGBB\"), text, clock "
                            + "(FORMAT) or ticker" + (kinds.isEmpty ? "" : ", not \(kinds.joined(separator: " and "))"))
        }
        for (member, takers) in Self.only where object[member] != nil && !takers.contains(kinds[0]) {
            let kinds = takers.count == 1 ? takers[0] : takers.dropLast().joined(separator: ", ") + " or " + takers.last!
            throw ShowError(path: at + "." + member, message: "only \(kinds) items take \(member)")
        }
        let source: Show.ItemSource, name: String
        switch kinds[0] {
        case "text", "clock", "ticker":
            let text = try textItem(object, kind: kinds[0], at: at)
            source = .text(text)
            let words = text.text(at: 0)
            name = kinds[0] == "clock" ? "clock \(object["clock"] as? String ?? "")"
                : words.unicodeScalars.count > 80 ? String(String.UnicodeScalarView(words.unicodeScalars.prefix(80))) + "..." : words
        case "color":
            let text = try Self.string(object["color"]!, at: at + ".color")
            source = .color(try Self.colour(text, at: at + ".color"))
            name = text
        default:
            let file = try Self.name(object[kinds[0]]!, at: "\(at).\(kinds[0])", limit: 4096)
            let path = file.hasPrefix("/") || folder.isEmpty ? file : folder + "/" + file
            source = switch kinds[0] {
            case "image": .image(path)
            case "video": .video(path)
            default: .shader(path)
            }
            name = file
        }
        // A video's length is its own unless the item says: 0 until its file is read.
        var seconds = 0.0
        if let secondsValue = object["seconds"] {
            seconds = try Self.number(secondsValue, at: at + ".seconds")
            guard seconds >= Playlist.shortestItem, seconds <= Playlist.longestItem else {
                throw ShowError(path: at + ".seconds", message: "\(Self.format(seconds)) is not a duration: give seconds from "
                                + "\(Playlist.shortestItem) to \(Int(Playlist.longestItem))")
            }
        } else if kinds[0] != "video" {
            throw ShowError(path: at, message: "seconds is missing: how long the item shows, \(Playlist.shortestItem) to "
                            + "\(Int(Playlist.longestItem))")
        }
        // A video of its own length has its crossfade checked against it once it is read.
        let transition = try object["transition"].map { v throws(ShowError) in
            try Self.transition(v, at: at + ".transition", seconds: seconds > 0 ? seconds : .infinity)
        } ?? .cut
        var fit = ScaleMode.fit
        if let value = object["fit"] {
            let text = try Self.string(value, at: at + ".fit")
            guard let mode = ScaleMode(rawValue: text) else {
                throw ShowError(path: at + ".fit", message: "\(ControlRoutes.quoted(text)) is not fit, fill or stretch")
            }
            fit = mode
        }
        let when = try object["when"].map { v throws(ShowError) in try daypart(v, at: at + ".when") }
        return Show.ShowItem(source: source, seconds: seconds, transition: transition, fit: fit, when: when, name: name)
    }

    /// A label, clock or ticker: its text, font, size, colours and (a ticker) speed.
    private func textItem(_ object: [String: Any], kind: String, at: String) throws(ShowError) -> TextItem {
        let value = try Self.string(object[kind]!, at: "\(at).\(kind)")
        guard !value.isEmpty, value.unicodeScalars.count <= TextItem.maximumLength, !value.utf8.contains(0) else {
            throw ShowError(path: "\(at).\(kind)", message: "must be 1 to \(TextItem.maximumLength) characters with no NUL")
        }
        var item = TextItem(kind: .label(value), font: TextItem.defaultFont, size: TextItem.defaultSize,
                            colour: RGB(r: 1, g: 1, b: 1), background: defaultBackground, alignment: .center)
        switch kind {
        case "clock":
            if let unknown = ClockFormat.unknown(in: value) {
                throw ShowError(path: at + ".clock", message: "\(ControlRoutes.quoted(unknown)) is not a conversion glout's clock "
                                + "writes: " + ClockFormat.conversions.sorted().map { "%\($0)" }.joined(separator: " "))
            }
            let zone = try object["timezone"].map { v throws(ShowError) in try Self.timeZone(v, at: at + ".timezone") }
            item.kind = .clock(format: value, timeZone: zone ?? defaultTimeZone)
        case "ticker":
            var speed = 100.0
            if let given = object["speed"] {
                speed = try Self.number(given, at: at + ".speed")
                guard speed >= 1, speed <= 10_000 else {
                    throw ShowError(path: at + ".speed", message: "give 1 to 10000 points a second")
                }
            }
            item.kind = .ticker(value, speed: speed)
        default:
            break
        }
        if let font = object["font"] { item.font = try Self.name(font, at: at + ".font") }
        if let size = object["size"] {
            item.size = try Self.number(size, at: at + ".size")
            guard item.size >= 4, item.size <= 1000 else { throw ShowError(path: at + ".size", message: "give 4 to 1000 points") }
        }
        if let colour = object["foreground"] { item.colour = try Self.colour(colour, at: at + ".foreground") }
        if let colour = object["background"] { item.background = try Self.colour(colour, at: at + ".background") }
        if let align = object["align"] {
            let text = try Self.string(align, at: at + ".align")
            guard let alignment = TextItem.Alignment(rawValue: text) else {
                throw ShowError(path: at + ".align", message: "\(ControlRoutes.quoted(text)) is not left, center or right")
            }
            item.alignment = alignment
        }
        return item
    }

    private static func transition(_ value: Any, at: String, seconds: Double) throws(ShowError) -> Show.Transition {
        if let text = value as? String {
            guard text == "cut" else { throw ShowError(path: at, message: "\(ControlRoutes.quoted(text)) is not \"cut\"; a crossfade is {\"crossfade_ms\": N}") }
            return .cut
        }
        let object = try Self.object(value, at: at, allowed: ["crossfade_ms"])
        guard let length = object["crossfade_ms"] else { throw ShowError(path: at, message: "crossfade_ms is missing") }
        let milliseconds = try Self.number(length, at: at + ".crossfade_ms")
        guard milliseconds >= 1, milliseconds <= longestCrossfade else {
            throw ShowError(path: at + ".crossfade_ms", message: "give 1 to \(Int(longestCrossfade)) milliseconds")
        }
        guard milliseconds / 1000 <= seconds else {
            throw ShowError(path: at + ".crossfade_ms", message: "\(Self.format(milliseconds)) ms is longer than the item's \(Self.format(seconds)) s")
        }
        return .crossfade(milliseconds / 1000)
    }

    private static let weekdays = ["sun": 1, "mon": 2, "tue": 3, "wed": 4, "thu": 5, "fri": 6, "sat": 7]

    private func daypart(_ value: Any, at: String) throws(ShowError) -> Daypart {
        let object = try Self.object(value, at: at, allowed: Self.members.daypart)
        var daypart = Daypart(timeZone: defaultTimeZone)
        if let zone = object["timezone"] { daypart.timeZone = try Self.timeZone(zone, at: at + ".timezone") }
        if let list = object["days"] {
            var days = Set<Int>()
            for (index, day) in try Self.array(list, at: at + ".days", count: 1...7).enumerated() {
                let text = try Self.string(day, at: "\(at).days[\(index)]")
                guard let number = Self.weekdays[text.lowercased()] else {
                    throw ShowError(path: "\(at).days[\(index)]", message: "\(ControlRoutes.quoted(text)) is not a day: mon, tue, wed, "
                                    + "thu, fri, sat or sun")
                }
                days.insert(number)
            }
            daypart.days = days
        }
        // 24:00 starts nothing (it is the next day's 00:00), and ends the day.
        if let from = object["from"] { daypart.from = try Self.timeOfDay(from, at: at + ".from") % 86_400 }
        if let until = object["until"] { daypart.until = try Self.timeOfDay(until, at: at + ".until") }
        if (daypart.from ?? 0) == 0 && daypart.until == 86_400 { daypart.until = nil }
        if daypart.from == nil && daypart.until == 0 {
            throw ShowError(path: at + ".until", message: "00:00 with no from holds never; leave both out for the whole day")
        }
        if let from = daypart.from, let until = daypart.until, from == until {
            throw ShowError(path: at, message: "from and until are the same time; leave both out for the whole day")
        }
        if let dates = object["dates"] {
            let range = try Self.object(dates, at: at + ".dates", allowed: ["from", "until"])
            guard !range.isEmpty else { throw ShowError(path: at + ".dates", message: "give from, until or both (YYYY-MM-DD)") }
            if let first = range["from"] { daypart.firstDate = try Self.date(first, at: at + ".dates.from") }
            if let last = range["until"] { daypart.lastDate = try Self.date(last, at: at + ".dates.until") }
            if let first = daypart.firstDate, let last = daypart.lastDate, last < first {
                throw ShowError(path: at + ".dates", message: "until is before from")
            }
        }
        return daypart
    }

    // MARK: Values

    /// `$.a.b` for a plain key, `$.a["b c"]` for any other.
    static func member(_ at: String, _ key: String) -> String {
        let plain = !key.isEmpty && key.unicodeScalars.allSatisfy { ($0.properties.isAlphabetic && $0.isASCII) || ("0"..."9").contains($0) || $0 == "_" }
        return plain ? at + "." + key : at + "[" + ControlRoutes.quoted(key) + "]"
    }

    private static func object(_ value: Any, at: String, allowed: [String]?) throws(ShowError) -> [String: Any] {
        guard let object = value as? [String: Any] else { throw ShowError(path: at, message: "must be an object, not \(kind(of: value))") }
        if let allowed, let unknown = object.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw ShowError(path: member(at, unknown), message: "unknown member; \(at) takes " + allowed.filter { $0 != "$schema" }
                            .joined(separator: ", "))
        }
        return object
    }

    private static func array(_ value: Any, at: String, count: ClosedRange<Int>) throws(ShowError) -> [Any] {
        guard let array = value as? [Any] else { throw ShowError(path: at, message: "must be an array, not \(kind(of: value))") }
        guard count.contains(array.count) else {
            throw ShowError(path: at, message: "holds \(array.count); give \(count.lowerBound) to \(count.upperBound)")
        }
        return array
    }

    private static func string(_ value: Any, at: String) throws(ShowError) -> String {
        guard let text = value as? String else { throw ShowError(path: at, message: "must be a string, not \(kind(of: value))") }
        return text
    }

    /// A name or a file: 1 to `limit` bytes with no NUL.
    private static func name(_ value: Any, at: String, limit: Int = 255) throws(ShowError) -> String {
        let text = try string(value, at: at)
        guard !text.isEmpty, text.utf8.count <= limit, !text.utf8.contains(0) else {
            throw ShowError(path: at, message: "must be 1 to \(limit) bytes with no NUL")
        }
        return text
    }

    /// A finite number (JSON's true and false are not numbers).
    private static func number(_ value: Any, at: String) throws(ShowError) -> Double {
        guard let number = value as? NSNumber, String(cString: number.objCType) != "c", number.doubleValue.isFinite else {
            throw ShowError(path: at, message: "must be a number, not \(kind(of: value))")
        }
        return number.doubleValue
    }

    /// A number as the file would write it: 0, -1, 0.5, 1e+20.
    static func format(_ value: Double) -> String { String(format: "%g", value) }

    private static func kind(of value: Any) -> String {
        switch value {
        case is String: "a string"
        case let number as NSNumber: String(cString: number.objCType) == "c" ? "\(number.boolValue)" : "a number"
        case is [Any]: "an array"
        case is [String: Any]: "an object"
        default: "null"
        }
    }

    /// `#RRGGBB`.
    static func colour(_ value: Any, at: String) throws(ShowError) -> RGB {
        let text = try string(value, at: at)
        let digits = text.dropFirst()
        guard text.hasPrefix("#"), digits.count == 6, let number = UInt32(digits, radix: 16) else {
            throw ShowError(path: at, message: "\(ControlRoutes.quoted(text)) is not a colour: give \"#RRGGBB\"")
        }
        func channel(_ shift: UInt32) -> Float { Float((number >> shift) & 0xFF) / 255 }
        return RGB(r: channel(16), g: channel(8), b: channel(0))
    }

    private static func timeZone(_ value: Any, at: String) throws(ShowError) -> TimeZone {
        let name = try string(value, at: at)
        guard name.utf8.count <= 64, let zone = TimeZone(identifier: name) else {
            throw ShowError(path: at, message: "\(ControlRoutes.quoted(name)) is not a time zone: give a name of the tz "
                            + "database, such as \"Europe/Berlin\" or \"UTC\"")
        }
        return zone
    }

    /// `HH:MM` or `HH:MM:SS`, 00:00 to 24:00, as seconds into the day (24:00: 86400).
    static func timeOfDay(_ value: Any, at: String) throws(ShowError) -> Int {
        let text = try string(value, at: at)
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        let numbers = parts.map { $0.count == 2 && $0.allSatisfy({ ("0"..."9").contains($0) }) ? Int($0) : nil }
        guard (2...3).contains(parts.count), numbers.allSatisfy({ $0 != nil }) else {
            throw ShowError(path: at, message: "\(ControlRoutes.quoted(text)) is not a time of day: give \"HH:MM\" or \"HH:MM:SS\"")
        }
        let (hour, minute, second) = (numbers[0]!, numbers[1]!, parts.count == 3 ? numbers[2]! : 0)
        let seconds = hour * 3600 + minute * 60 + second
        guard minute < 60, second < 60, seconds <= 86_400 else {
            throw ShowError(path: at, message: "\(ControlRoutes.quoted(text)) is not a time of day from 00:00 to 24:00")
        }
        return seconds
    }

    /// `YYYY-MM-DD`, a day that exists.
    static func date(_ value: Any, at: String) throws(ShowError) -> Daypart.DayDate {
        let text = try string(value, at: at)
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              year >= 1970, (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day) else {
            throw ShowError(path: at, message: "\(ControlRoutes.quoted(text)) is not a date: give \"YYYY-MM-DD\", 1970 or later")
        }
        return Daypart.DayDate(year: year, month: month, day: day)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// A side of a zone: points (a number) or percent of the output ("N%").
    private static func length(_ value: Any, at: String, positive: Bool) throws(ShowError) -> ZoneRect.Length {
        if let text = value as? String {
            guard text.hasSuffix("%"), let percent = Double(text.dropLast()), percent.isFinite, percent >= 0, percent <= 100,
                  !positive || percent > 0 else {
                throw ShowError(path: at, message: "\(ControlRoutes.quoted(text)) is not a share of the output: give \"N%\", "
                                + (positive ? "more than 0" : "0") + " to 100, or a number of points")
            }
            return .percent(percent)
        }
        let points = try number(value, at: at)
        guard points >= 0, points <= 100_000, !positive || points > 0 else {
            throw ShowError(path: at, message: "\(Self.format(points)) points: give " + (positive ? "more than 0" : "0") + " to 100000")
        }
        return .points(points)
    }

    private static func rect(_ value: Any, at: String) throws(ShowError) -> ZoneRect {
        let object = try object(value, at: at, allowed: ["x", "y", "width", "height"])
        var rect = ZoneRect()
        if let x = object["x"] { rect.x = try length(x, at: at + ".x", positive: false) }
        if let y = object["y"] { rect.y = try length(y, at: at + ".y", positive: false) }
        if let width = object["width"] { rect.width = try length(width, at: at + ".width", positive: true) }
        if let height = object["height"] { rect.height = try length(height, at: at + ".height", positive: true) }
        return rect
    }
}
