import Foundation

/// When a playlist or an item of a show plays: days of the week, a time of day range and a
/// date range, all in one named time zone (each left out: no limit). A time range whose end
/// is before its start runs over midnight and belongs to the day it starts on. Pure: which
/// instants it holds, and the instants around one where that can change.
struct Daypart: Sendable, Equatable {
    /// Weekdays as Calendar numbers them (1 Sunday to 7 Saturday); nil: every day.
    var days: Set<Int>?
    /// Seconds into the day, the end not included; nil: the day's start, its end.
    var from: Int?
    var until: Int?
    /// The first and last day (inclusive) on which a window may start; nil: no limit.
    var firstDate: DayDate?
    var lastDate: DayDate?
    var timeZone: TimeZone {
        didSet { calendar.timeZone = timeZone }
    }
    /// The Gregorian calendar in `timeZone`, made once.
    private var calendar: Calendar

    init(days: Set<Int>? = nil, from: Int? = nil, until: Int? = nil, firstDate: DayDate? = nil, lastDate: DayDate? = nil,
         timeZone: TimeZone) {
        (self.days, self.from, self.until, self.firstDate, self.lastDate) = (days, from, until, firstDate, lastDate)
        self.timeZone = timeZone
        calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
    }

    /// A day of the calendar.
    struct DayDate: Sendable, Equatable, Comparable {
        var year: Int, month: Int, day: Int

        static func < (a: DayDate, b: DayDate) -> Bool { (a.year, a.month, a.day) < (b.year, b.month, b.day) }
    }

    /// Whether the daypart holds at `seconds` since 1970 (CLOCK_REALTIME).
    func holds(at seconds: Double) -> Bool {
        guard seconds.isFinite, abs(seconds) < 1e11 else { return false }
        let calendar = calendar
        let date = Date(timeIntervalSince1970: seconds)
        let parts = calendar.dateComponents([.year, .month, .day, .weekday, .hour, .minute, .second], from: date)
        guard let hour = parts.hour, let minute = parts.minute, let second = parts.second, let weekday = parts.weekday,
              let year = parts.year, let month = parts.month, let day = parts.day else { return false }
        let time = hour * 3600 + minute * 60 + second
        let start = from ?? 0, end = until ?? 86_400
        var windowDay = DayDate(year: year, month: month, day: day), windowWeekday = weekday
        if start < end {
            guard time >= start, time < end else { return false }
        } else if time < end {
            // The window began yesterday.
            guard let yesterday = calendar.date(byAdding: .day, value: -1, to: date) else { return false }
            let before = calendar.dateComponents([.year, .month, .day], from: yesterday)
            windowDay = DayDate(year: before.year ?? year, month: before.month ?? month, day: before.day ?? day)
            windowWeekday = (weekday + 5) % 7 + 1
        } else if time < start {
            return false
        }
        if let days, !days.contains(windowWeekday) { return false }
        if let firstDate, windowDay < firstDate { return false }
        if let lastDate, lastDate < windowDay { return false }
        return true
    }

    /// The instants from `start` to `end` at which whether it holds may change: each
    /// day's start, `from` and `until` (one day more either side, so none is missed at an
    /// edge); with ``dateEdges``.
    func changes(from start: Double, to end: Double) -> [Double] {
        guard start.isFinite, end.isFinite, abs(start) < 1e11, abs(end) < 1e11, start <= end else { return [] }
        var instants: [Double] = []
        let first = calendar.startOfDay(for: Date(timeIntervalSince1970: start))
        let days = Int(((end - start) / 86_400).rounded(.up)) + 1
        for offset in -1...days {
            guard let day = calendar.date(byAdding: .day, value: offset, to: first) else { continue }
            instants.append(day.timeIntervalSince1970)
            for time in [from, until].compactMap({ $0 }) where time > 0 && time < 86_400 {
                if let instant = calendar.date(bySettingHour: time / 3600, minute: time / 60 % 60, second: time % 60, of: day) {
                    instants.append(instant.timeIntervalSince1970)
                }
            }
        }
        return instants + dateEdges
    }

    /// The instants its date range begins and ends (and where a window that starts on its
    /// last day runs past midnight, that window's end): between two of these, of every
    /// daypart of a zone, what holds repeats week after week.
    var dateEdges: [Double] {
        var instants: [Double] = []
        for (date, after) in [(firstDate, 0), (lastDate, 1)] {
            guard let date, let day = calendar.date(from: DateComponents(year: date.year, month: date.month, day: date.day)),
                  let edge = calendar.date(byAdding: .day, value: after, to: day) else { continue }
            instants.append(edge.timeIntervalSince1970)
            // A window that starts on the last day may run past midnight into the next.
            if after == 1, let until, let from, from > until,
               let end = calendar.date(bySettingHour: until / 3600, minute: until / 60 % 60, second: until % 60, of: edge) {
                instants.append(end.timeIntervalSince1970)
            }
        }
        return instants
    }
}
