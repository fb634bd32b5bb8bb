import Foundation

/// A show's item of text (docs/shows.md): a label, a clock or a ticker, in a font
/// fontconfig finds by name, over a colour of its own. Pure: what it reads at an instant,
/// and where a ticker's line is.
struct TextItem: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// Static text.
        case label(String)
        /// The time and date at each instant, as `format` writes them (``ClockFormat``), in
        /// `timeZone`.
        case clock(format: String, timeZone: TimeZone)
        /// A line scrolling from right to left at `speed` points a second, entering again
        /// once it has left.
        case ticker(String, speed: Double)
    }

    enum Alignment: String, Sendable, Equatable, CaseIterable {
        case left, center, right
    }

    var kind: Kind
    /// The font's name as fontconfig matches it ("DejaVu Sans", "Noto Sans:bold").
    var font: String
    /// The type's size in points (an output of scale 2 draws it at twice the pixels).
    var size: Double
    var colour: RGB
    var background: RGB
    var alignment: Alignment

    static let defaultFont = "DejaVu Sans"
    static let defaultSize = 48.0
    /// The most characters a label or a ticker may have.
    static let maximumLength = 4096

    /// The text it shows at `seconds` since 1970.
    func text(at seconds: Double) -> String {
        switch kind {
        case .label(let text), .ticker(let text, _): text
        case .clock(let format, let zone): ClockFormat.write(format, at: seconds, in: zone)
        }
    }

    /// Where a ticker's line of `lineWidth` pixels starts (its left edge, from the zone's
    /// left) in a zone `zoneWidth` pixels wide, `elapsed` seconds into the item, moving
    /// `pixelsPerSecond`: in at the right edge, out at the left, then in again. Every
    /// refresh moves it by the speed times the time between the times it is drawn at
    /// (``TickerPace``).
    static func tickerX(elapsed: Double, pixelsPerSecond: Double, lineWidth: Double, zoneWidth: Double) -> Double {
        let loop = lineWidth + zoneWidth
        guard loop > 0, elapsed.isFinite, pixelsPerSecond.isFinite else { return zoneWidth }
        let travelled = (max(0, elapsed) * pixelsPerSecond).truncatingRemainder(dividingBy: loop)
        return zoneWidth - travelled
    }
}

/// A clock's format: strftime's conversions that a sign shows (%H %I %M %S %p %Y %y %m %d
/// %e %a %A %b %B %j %Z %%), in English, in a named time zone; any other character is
/// written as it is. Pure.
enum ClockFormat {
    static let conversions: Set<Character> = ["H", "I", "M", "S", "p", "Y", "y", "m", "d", "e", "a", "A", "b", "B", "j", "Z", "%"]

    /// The first conversion `format` uses that is not one of ``conversions``, if any.
    static func unknown(in format: String) -> String? {
        var rest = Substring(format)
        while let percent = rest.firstIndex(of: "%") {
            let next = rest.index(after: percent)
            guard next < rest.endIndex else { return "%" }
            if !conversions.contains(rest[next]) { return "%" + String(rest[next]) }
            rest = rest[rest.index(after: next)...]
        }
        return nil
    }

    private static let days = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    private static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                                 "October", "November", "December"]

    /// `format` written for the instant `seconds` since 1970 in `zone`.
    static func write(_ format: String, at seconds: Double, in zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let date = Date(timeIntervalSince1970: seconds.isFinite ? seconds.rounded(.down) : 0)
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        let (year, month, day) = (parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
        let (hour, minute, second) = (parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
        let weekday = max(1, min(7, parts.weekday ?? 1)) - 1
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        var out = ""
        var percent = false
        for character in format {
            guard percent else {
                if character == "%" { percent = true } else { out.append(character) }
                continue
            }
            percent = false
            switch character {
            case "H": out += two(hour)
            case "I": out += two(hour % 12 == 0 ? 12 : hour % 12)
            case "M": out += two(minute)
            case "S": out += two(second)
            case "p": out += hour < 12 ? "AM" : "PM"
            case "Y": out += String(year)
            case "y": out += two(year % 100)
            case "m": out += two(month)
            case "d": out += two(day)
            case "e": out += day < 10 ? " \(day)" : "\(day)"
            case "a": out += String(days[weekday].prefix(3))
            case "A": out += days[weekday]
            case "b": out += String(months[max(1, min(12, month)) - 1].prefix(3))
            case "B": out += months[max(1, min(12, month)) - 1]
            case "j":
                let ordinal = calendar.ordinality(of: .day, in: .year, for: date) ?? 1
                out += ordinal < 10 ? "00\(ordinal)" : ordinal < 100 ? "0\(ordinal)" : "\(ordinal)"
            case "Z": out += zone.abbreviation(for: date) ?? zone.identifier
            case "%": out += "%"
            default: out += "%" + String(character)
            }
        }
        return out
    }
}
