import Foundation
import XCTest
@testable import glout

/// A show's `off` dayparts: when its outputs are off, the stretches off around an instant,
/// which outputs they are for, and the errors of a wrong one.
final class PowerScheduleTests: XCTestCase {
    private let utc = TimeZone(identifier: "UTC")!
    /// 2026-12-07 (a Monday) 00:00 UTC.
    private let monday: Double = 1_796_601_600

    private func show(_ outputs: String) throws(ShowError) -> Show {
        try ShowParser.parse(##"{"outputs": {\##(outputs)}}"##, path: "/s.json", defaultTimeZone: utc)
    }

    private let zones = ##""zones": [{"items": [{"color": "#ff0000", "seconds": 10}]}]"##

    func test_overnightOffHoldsAcrossMidnightAndItsStretchIsFound() throws {
        let parsed = try show(##""*": {\##(zones), "off": [{"from": "22:00", "until": "06:00"}]}"##)
        let schedule = try XCTUnwrap(parsed.power(for: "HDMI-A-1", primary: true))
        XCTAssertFalse(schedule.isOff(at: monday + 12 * 3600))
        XCTAssertTrue(schedule.isOff(at: monday + 23 * 3600))
        XCTAssertTrue(schedule.isOff(at: monday + 24 * 3600 + 5 * 3600))
        XCTAssertFalse(schedule.isOff(at: monday + 24 * 3600 + 6 * 3600))
        XCTAssertEqual(schedule.nextEdge(after: monday + 12 * 3600), monday + 22 * 3600)
        XCTAssertEqual(schedule.offWindow(around: monday + 12 * 3600),
                       PowerSchedule.OffWindow(start: monday + 22 * 3600, end: monday + 30 * 3600))
        XCTAssertEqual(schedule.offWindow(around: monday + 23 * 3600),
                       PowerSchedule.OffWindow(start: -.infinity, end: monday + 30 * 3600))
        // The end is not included: at 06:00 the next stretch is the evening's.
        XCTAssertEqual(schedule.offWindow(around: monday + 30 * 3600)?.start, monday + 46 * 3600)
    }

    func test_daypartsThatMeetMakeOneStretchAndDaysAndTimeZonesCount() throws {
        let parsed = try show(##""*": {\##(zones), "off": [{"from": "10:00", "until": "11:00"}, {"from": "11:00", "until": "12:00"}]},"##
                              + ##""HDMI-A-2": {\##(zones), "off": [{"days": ["sat", "sun"], "timezone": "Europe/Berlin"}]}"##)
        let star = try XCTUnwrap(parsed.power(for: "DP-1", primary: false))
        XCTAssertEqual(star.offWindow(around: monday + 9 * 3600),
                       PowerSchedule.OffWindow(start: monday + 10 * 3600, end: monday + 12 * 3600))
        // The weekend in Berlin (UTC+1 in December): Friday 23:00 UTC to Sunday 23:00 UTC.
        let weekend = try XCTUnwrap(parsed.power(for: "HDMI-A-2", primary: false))
        XCTAssertEqual(weekend.offWindow(around: monday),
                       PowerSchedule.OffWindow(start: monday + 4 * 86_400 + 23 * 3600, end: monday + 6 * 86_400 + 23 * 3600))
        XCTAssertTrue(weekend.isOff(at: monday + 5 * 86_400))
    }

    func test_anOutputTakesTheOffOfTheEntryItsZonesComeFrom() throws {
        let parsed = try show(##""primary": {\##(zones), "off": [{"from": "01:00", "until": "02:00"}]}, "*": {\##(zones)}"##)
        XCTAssertNotNil(parsed.power(for: "HDMI-A-1", primary: true))
        XCTAssertNil(parsed.power(for: "HDMI-A-1", primary: false))
        // Off for good: no edge within the horizon.
        let always = try XCTUnwrap(try show(##""*": {\##(zones), "off": [{}]}"##).power(for: "X", primary: true))
        XCTAssertEqual(always.offWindow(around: monday), PowerSchedule.OffWindow(start: -.infinity, end: .infinity))
        XCTAssertNil(try show(##""*": {\##(zones), "off": [{"dates": {"until": "2020-01-01"}}]}"##)
            .power(for: "X", primary: true)?.offWindow(around: monday))
    }

    func test_aWrongOffSaysWhereAndWhy() {
        func error(_ outputs: String) -> String {
            do { _ = try show(outputs); return "no error" } catch { return "\(error.path): \(error.message)" }
        }
        XCTAssertTrue(error(##""*": {\##(zones), "off": []}"##).hasPrefix(##"$.outputs["*"].off: "##), error(##""*": {\##(zones), "off": []}"##))
        XCTAssertTrue(error(##""*": {\##(zones), "off": {"from": "01:00"}}"##).hasPrefix(##"$.outputs["*"].off: "##))
        let day = error(##""*": {\##(zones), "off": [{"days": ["someday"]}]}"##)
        XCTAssertTrue(day.hasPrefix(##"$.outputs["*"].off[0].days[0]: "##), day)
        let member = error(##""*": {\##(zones), "power": "off"}"##)
        XCTAssertTrue(member.hasPrefix(##"$.outputs["*"]"##) && member.contains("power"), member)
    }
}

/// Dayparts where the clocks skip an hour (summer time begins): a boundary in the hour
/// that does not exist takes effect when the clocks have moved past it.
final class DaypartSummerTimeTests: XCTestCase {
    func test_aBoundaryInTheSkippedHourTakesEffectAtTheHoursEnd() throws {
        // Europe/Berlin, 2027-03-28: 02:00 CET becomes 03:00 CEST, at 01:00 UTC.
        let parsed = try ShowParser.parse(##"""
            {"timezone": "Europe/Berlin", "outputs": {"*": {"zones": [{"items": [{"color": "#000000", "seconds": 1}]}],
             "off": [{"from": "02:30", "until": "05:00"}]}}}
            """##, path: "/s.json")
        let schedule = try XCTUnwrap(parsed.power(for: "X", primary: true))
        let gapEnd: Double = 1_806_195_600  // 2027-03-28 01:00 UTC
        XCTAssertFalse(schedule.isOff(at: gapEnd - 1))
        XCTAssertTrue(schedule.isOff(at: gapEnd))
        let window = try XCTUnwrap(schedule.offWindow(around: gapEnd - 3600))
        XCTAssertEqual(window.start, gapEnd)
        XCTAssertEqual(window.end, gapEnd + 2 * 3600)
    }
}
