import Foundation
import XCTest
@testable import glout
import WaylandOutputs

/// Show files: what they may say and the errors for what they may not (each naming the
/// JSON path); dayparts in a named time zone; what a zone plays when, and how a crossfade
/// mixes.
final class ShowTests: XCTestCase {
    private let utc = TimeZone(identifier: "UTC")!

    private func parse(_ text: String) throws(ShowError) -> Show {
        try ShowParser.parse(text, path: "/shows/lobby.json", defaultTimeZone: utc)
    }

    private func error(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> ShowError? {
        do {
            _ = try parse(text)
            XCTFail("accepted: \(text)", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    /// Seconds since 1970 of a UTC date and time.
    private func utcSeconds(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Double = 0) -> Double {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = utc
        return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))!
            .timeIntervalSince1970 + second
    }

    /// A video item lasts its video's length unless it gives seconds (0 until the file is
    /// read), takes fit, and may crossfade in however long it is.
    func test_aVideoItemTakesItsOwnLengthUnlessItGivesSeconds() throws {
        let show = try parse("""
            {"outputs": {"*": {"zones": [{"items": [
              {"video": "clip.mp4", "fit": "fill", "transition": {"crossfade_ms": 9000}},
              {"video": "/abs/loop.webm", "seconds": 20}]}]}}}
            """)
        let items = show.zones(for: "DP-1", primary: true)[0].playlists[0].items
        XCTAssertEqual(items[0].source, .video("/shows/clip.mp4"))
        XCTAssertEqual(items[0].seconds, 0, "its video's length, once read")
        XCTAssertEqual(items[0].fit, .fill)
        XCTAssertEqual(items[0].transition, .crossfade(9))
        XCTAssertEqual(items[1].seconds, 20)
        XCTAssertEqual(show.files, [.video("/shows/clip.mp4"), .video("/abs/loop.webm")], "both count for --content-root")
    }

    /// A video's frame numbers: from its start in each showing, looped within a longer item,
    /// held at the item's end, and each showing's numbers after the last one's, so a video
    /// that follows itself plays on; no overflow for any showing.
    func test_aZoneVideoNumbersItsFramesByShowing() throws {
        // 48 frames of 1/24 s: 2 s.
        let timeline = try XCTUnwrap(VideoTimeline(starts: (0..<48).map { Int64($0) }, end: 48, tick: 1.0 / 24))
        XCTAssertEqual(ZoneVideos.frameNumber(timeline, seconds: 2, showing: 0, local: 0), 0)
        XCTAssertEqual(ZoneVideos.frameNumber(timeline, seconds: 2, showing: 0, local: 1.01), 24)
        XCTAssertEqual(ZoneVideos.frameNumber(timeline, seconds: 2, showing: 0, local: 5), 47, "held at the item's end")
        XCTAssertEqual(ZoneVideos.frameNumber(timeline, seconds: 2, showing: 3, local: 0), 3 * 48, "after the last showing's")
        XCTAssertEqual(ZoneVideos.frameNumber(timeline, seconds: 5, showing: 0, local: 2.5), 60, "looped in a 5 s item")
        XCTAssertEqual(ZoneVideos.frameNumber(timeline, seconds: 5, showing: 1, local: 0), 3 * 48, "three passes a showing")
        XCTAssertEqual(ZoneVideos.frameNumber(timeline, seconds: 1, showing: 1, local: 0.5), 48 + 12, "cut short")
        XCTAssertEqual(ZoneVideos.frameNumber(timeline, seconds: 86_400, showing: Int.max / 2, local: 0.5), 12,
                       "past Int's range: the frame within the item")
    }

    func test_aShowGivesEachOutputItsZonesAndItsItems() throws {
        let show = try parse("""
            {"background": "#102030", "outputs": {
              "*": {"zones": [{"name": "main", "items": [{"image": "a.png", "seconds": 5}]}]},
              "HDMI-A-1": {"zones": [
                {"name": "video", "rect": {"width": "70%"}, "items": [
                  {"image": "/abs/b.jpg", "seconds": 8, "fit": "fill", "transition": {"crossfade_ms": 500}},
                  {"shader": "waves.frag", "seconds": 10, "transition": "cut"}]},
                {"name": "side", "rect": {"x": "70%", "width": "30%", "height": 200}, "items": [{"color": "#ff0000", "seconds": 1}]}
              ]}}}
            """)
        XCTAssertEqual(show.background, RGB(r: Float(0x10) / 255, g: Float(0x20) / 255, b: Float(0x30) / 255))
        let zones = show.zones(for: "HDMI-A-1", primary: false)
        XCTAssertEqual(zones.map(\.name), ["video", "side"])
        let items = zones[0].playlists[0].items
        XCTAssertEqual(items[0].source, .image("/abs/b.jpg"))
        XCTAssertEqual(items[0].fit, .fill)
        XCTAssertEqual(items[0].transition, .crossfade(0.5))
        XCTAssertEqual(items[1].source, .shader("/shows/waves.frag"))
        XCTAssertEqual(zones[1].playlists[0].items[0].source, .color(RGB(r: 1, g: 0, b: 0)))
        XCTAssertEqual(show.zones(for: "DP-1", primary: true).map(\.name), ["main"], "\"*\" for every other output")
        // 70% of 1000 is 700; a height of 200 points at 2 pixels a point is 400 pixels.
        XCTAssertEqual(zones[1].rect.pixels(in: Size(width: 1000, height: 1000), pixelsPerPoint: 2),
                       Rect(x: 700, y: 0, width: 300, height: 400))
        XCTAssertEqual(zones[0].rect.pixels(in: Size(width: 1000, height: 500), pixelsPerPoint: 1),
                       Rect(x: 0, y: 0, width: 700, height: 500))
    }

    func test_anOutputTakesItsOwnZonesThenItsRolesThenEveryOutputs() throws {
        let show = try parse("""
            {"outputs": {"*": {"zones": [{"name": "every", "items": [{"color": "#000000", "seconds": 1}]}]},
                         "primary": {"zones": [{"name": "primary", "items": [{"color": "#000000", "seconds": 1}]}]},
                         "DP-2": {"zones": [{"name": "own", "items": [{"color": "#000000", "seconds": 1}]}]}}}
            """)
        XCTAssertEqual(show.zones(for: "DP-2", primary: true).map(\.name), ["own"])
        XCTAssertEqual(show.zones(for: "DP-1", primary: true).map(\.name), ["primary"])
        XCTAssertEqual(show.zones(for: "DP-1", primary: false).map(\.name), ["every"])
    }

    func test_everyErrorNamesTheJSONPathAndTheReason() {
        let item = ##"{"color": "#000000", "seconds": 1}"##
        func zones(_ zone: String) -> String { ##"{"outputs": {"*": {"zones": [\##(zone)]}}}"## }
        let cases: [(String, String, String)] = [
            ("[1]", "$", "must be an object"),
            ("{\"outputs\": {}", "$", "not JSON"),
            ("{}", "$", "outputs is missing"),
            (##"{"outputs": {}}"##, "$.outputs", "names no output"),
            (##"{"outputs": {"*": {"zones": []}}}"##, "$.outputs[\"*\"].zones", "holds 0"),
            (##"{"extra": 1, "outputs": {}}"##, "$.extra", "unknown member"),
            (##"{"timezone": "Mars/Olympus", "outputs": {}}"##, "$.timezone", "not a time zone"),
            (##"{"background": "red", "outputs": {}}"##, "$.background", "not a colour"),
            (zones(##"{"items": [{"seconds": 1}]}"##), "$.outputs[\"*\"].zones[0].items[0]", "give one of image"),
            (zones(##"{"items": [{"color": "#000000"}]}"##), "$.outputs[\"*\"].zones[0].items[0]", "seconds is missing"),
            (zones(##"{"items": [{"color": "#000000", "seconds": true}]}"##), "$.outputs[\"*\"].zones[0].items[0].seconds",
             "must be a number, not true"),
            (zones(##"{"items": [{"color": "#000000", "seconds": 0}]}"##), "$.outputs[\"*\"].zones[0].items[0].seconds",
             "not a duration"),
            (zones(##"{"items": [{"image": "a.png", "color": "#000000", "seconds": 1}]}"##),
             "$.outputs[\"*\"].zones[0].items[0]", "not image and color"),
            (zones(##"{"items": [{"playlist": "a.txt", "seconds": 1}]}"##), "$.outputs[\"*\"].zones[0].items[0].playlist",
             "not among them yet"),
            (zones(##"{"items": [{"video": "a.mp4", "font": "Sans"}]}"##), "$.outputs[\"*\"].zones[0].items[0].font",
             "only text, clock or ticker items take font"),
            (zones(##"{"items": [{"video": "a.mp4", "seconds": 0}]}"##), "$.outputs[\"*\"].zones[0].items[0].seconds",
             "not a duration"),
            (zones(##"{"items": [{"color": "#000000", "seconds": 1, "transition": {"crossfade_ms": 2000}}]}"##),
             "$.outputs[\"*\"].zones[0].items[0].transition.crossfade_ms", "longer than the item's"),
            (zones(##"{"items": [{"color": "#000000", "seconds": 1, "transition": "wipe"}]}"##),
             "$.outputs[\"*\"].zones[0].items[0].transition", "is not \"cut\""),
            (zones(##"{"items": [{"color": "#000000", "seconds": 1, "fit": "fill"}]}"##),
             "$.outputs[\"*\"].zones[0].items[0].fit", "only image or video items take fit"),
            (zones(##"{"rect": {"width": "0%"}, "items": [\##(item)]}"##), "$.outputs[\"*\"].zones[0].rect.width", "more than 0"),
            (zones(##"{"rect": {"x": -5}, "items": [\##(item)]}"##), "$.outputs[\"*\"].zones[0].rect.x", "points"),
            (zones(##"{"items": [\##(item)], "playlists": []}"##), "$.outputs[\"*\"].zones[0]", "not both"),
            (zones(##"{"name": "a", "items": [\##(item)]}, {"name": "a", "items": [\##(item)]}"##),
             "$.outputs[\"*\"].zones[1].name", "names another zone"),
            (zones(##"{"playlists": [{"priority": 1.5, "items": [\##(item)]}]}"##),
             "$.outputs[\"*\"].zones[0].playlists[0].priority", "whole number"),
            (zones(##"{"playlists": [{"when": {"days": ["mo"]}, "items": [\##(item)]}]}"##),
             "$.outputs[\"*\"].zones[0].playlists[0].when.days[0]", "is not a day"),
            (zones(##"{"playlists": [{"when": {"from": "25:00"}, "items": [\##(item)]}]}"##),
             "$.outputs[\"*\"].zones[0].playlists[0].when.from", "not a time of day"),
            (zones(##"{"playlists": [{"when": {"until": "-1:00"}, "items": [\##(item)]}]}"##),
             "$.outputs[\"*\"].zones[0].playlists[0].when.until", "not a time of day"),
            (zones(##"{"playlists": [{"when": {"from": "7:00"}, "items": [\##(item)]}]}"##),
             "$.outputs[\"*\"].zones[0].playlists[0].when.from", "HH:MM"),
            (zones(##"{"playlists": [{"when": {"from": "08:00", "until": "08:00"}, "items": [\##(item)]}]}"##),
             "$.outputs[\"*\"].zones[0].playlists[0].when", "the same time"),
            (zones(##"{"playlists": [{"when": {"dates": {"from": "2026-02-30"}}, "items": [\##(item)]}]}"##),
             "$.outputs[\"*\"].zones[0].playlists[0].when.dates.from", "not a date"),
            (zones(##"{"playlists": [{"when": {"dates": {"from": "2026-03-02", "until": "2026-03-01"}}, "items": [\##(item)]}]}"##),
             "$.outputs[\"*\"].zones[0].playlists[0].when.dates", "before from"),
            (##"{"outputs": {"a\u0001": {"zones": []}}}"##, "$.outputs[\"a\\x01\"]", "not an output name"),
        ]
        for (text, path, reason) in cases {
            guard let error = error(text) else { continue }
            XCTAssertEqual(error.path, path, text)
            XCTAssertTrue(error.message.contains(reason), "\(text): \(error.message)")
        }
    }

    func test_24IsTheEndOfTheDay() throws {
        for (when, from, until) in [(##"{"from": "18:00", "until": "24:00"}"##, 18 * 3600, 86_400),
                                    (##"{"from": "00:00", "until": "24:00"}"##, 0, nil), (##"{"until": "24:00"}"##, nil, nil)] {
            let show = try parse(##"{"outputs": {"*": {"zones": [{"playlists": [{"when": \##(when), "items": [{"color": "#000000", "seconds": 1}]}]}]}}}"##)
            let daypart = try XCTUnwrap(show.outputs[0].zones[0].playlists[0].when)
            XCTAssertEqual(daypart.from, from, when)
            XCTAssertEqual(daypart.until, until, when)
        }
        let evening = Daypart(from: 18 * 3600, until: 86_400, timeZone: utc)
        XCTAssertTrue(evening.holds(at: utcSeconds(2026, 12, 7, 23, 59, 59)))
        XCTAssertFalse(evening.holds(at: utcSeconds(2026, 12, 8)))
    }

    func test_aDaypartHoldsOnItsDaysTimesAndDatesInItsTimeZone() throws {
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        // Monday to Friday, 06:00 to 11:00 Berlin time, in December 2026.
        let breakfast = Daypart(days: [2, 3, 4, 5, 6], from: 6 * 3600, until: 11 * 3600,
                                firstDate: .init(year: 2026, month: 12, day: 1), lastDate: .init(year: 2026, month: 12, day: 31),
                                timeZone: berlin)
        // 2026-12-07 is a Monday; Berlin is UTC+1 in December.
        XCTAssertFalse(breakfast.holds(at: utcSeconds(2026, 12, 7, 4, 59, 59)))
        XCTAssertTrue(breakfast.holds(at: utcSeconds(2026, 12, 7, 5)))
        XCTAssertTrue(breakfast.holds(at: utcSeconds(2026, 12, 7, 9, 59, 59)))
        XCTAssertFalse(breakfast.holds(at: utcSeconds(2026, 12, 7, 10)))
        XCTAssertFalse(breakfast.holds(at: utcSeconds(2026, 12, 6, 6)), "a Sunday")
        XCTAssertFalse(breakfast.holds(at: utcSeconds(2027, 1, 4, 6)), "past the dates")
        // 22:00 to 02:00 on Fridays: the early hours of Saturday belong to Friday's window.
        let late = Daypart(days: [6], from: 22 * 3600, until: 2 * 3600, timeZone: utc)
        XCTAssertTrue(late.holds(at: utcSeconds(2026, 12, 11, 23)))
        XCTAssertTrue(late.holds(at: utcSeconds(2026, 12, 12, 1, 59)))
        XCTAssertFalse(late.holds(at: utcSeconds(2026, 12, 12, 2)))
        XCTAssertFalse(late.holds(at: utcSeconds(2026, 12, 11, 1)), "Friday's early hours are Thursday's window")
        XCTAssertFalse(late.holds(at: .nan))
        // The instants around one at which it may change include its edges.
        let changes = Set(breakfast.changes(from: utcSeconds(2026, 12, 7, 8), to: utcSeconds(2026, 12, 7, 8)))
        XCTAssertTrue(changes.contains(utcSeconds(2026, 12, 7, 5)) && changes.contains(utcSeconds(2026, 12, 7, 10)))
        XCTAssertTrue(changes.contains(utcSeconds(2026, 12, 31, 23)), "the day after the last date, in Berlin")
    }

    private func menu() throws -> Show.Zone {
        try parse("""
            {"outputs": {"*": {"zones": [{"name": "menu", "playlists": [
              {"name": "breakfast", "priority": 1, "when": {"from": "06:00", "until": "11:00"}, "items": [
                {"color": "#ff0000", "seconds": 10}, {"color": "#00ff00", "seconds": 5, "transition": {"crossfade_ms": 1000}}]},
              {"name": "all day", "items": [
                {"color": "#0000ff", "seconds": 4}, {"color": "#ffffff", "seconds": 4, "when": {"days": ["sat", "sun"]}}]}
            ]}]}}}
            """).outputs[0].zones[0]
    }

    func test_aZonePlaysThePlaylistOfItsDaypartFromItsBoundary() throws {
        let timeline = ZoneTimeline(zone: try menu())
        let boundary = utcSeconds(2026, 12, 7, 6)  // a Monday
        // Before 06:00 the fallback plays its weekday item alone.
        let before = try XCTUnwrap(timeline.position(at: boundary - 1))
        XCTAssertEqual(before.current, .init(playlist: 1, item: 0))
        // From 06:00 breakfast plays from its first item, however long the fallback ran.
        let first = try XCTUnwrap(timeline.position(at: boundary))
        XCTAssertEqual(first.current, .init(playlist: 0, item: 0))
        XCTAssertEqual(first.local, 0)
        XCTAssertEqual(first.began, boundary)
        XCTAssertEqual(timeline.segment(at: boundary).start, boundary)
        XCTAssertEqual(timeline.segment(at: boundary).end, utcSeconds(2026, 12, 7, 11))
        XCTAssertEqual(try XCTUnwrap(timeline.position(at: boundary + 12)).current, .init(playlist: 0, item: 1))
        // Looped: the third pass starts at 30 s.
        let loop = try XCTUnwrap(timeline.position(at: boundary + 31))
        XCTAssertEqual(loop.current, .init(playlist: 0, item: 0))
        XCTAssertEqual(loop.local, 1, accuracy: 1e-6)
        XCTAssertEqual(loop.previous, .init(playlist: 0, item: 1))
        // On a Saturday the fallback has both items.
        let saturday = utcSeconds(2026, 12, 12, 12)
        XCTAssertEqual(timeline.segment(at: saturday).items, [0, 1])
        // The same instant gives the same item whenever it is first asked (another machine).
        XCTAssertEqual(ZoneTimeline(zone: try menu()).position(at: boundary + 31), loop)
    }

    /// Whenever a machine first asks, and however long ago the choice changed, an instant
    /// gives the same item: a choice that has held since a date range ended weeks ago
    /// still starts where it changed.
    func test_everyMachineAgreesOnAnInstantWheneverItAsks() throws {
        let zone = try parse("""
            {"outputs": {"*": {"zones": [{"items": [
              {"color": "#ff0000", "seconds": 10},
              {"color": "#00ff00", "seconds": 7, "when": {"days": ["mon"], "dates": {"until": "2026-12-24"}}}]}]}}}
            """).outputs[0].zones[0]
        let instant = utcSeconds(2027, 1, 20, 12, 0, 3.5)
        // One machine has run since December, and asked on the way; another starts now.
        let running = ZoneTimeline(zone: zone)
        for day in stride(from: utcSeconds(2026, 12, 20), to: instant, by: 86_400 / 3) { _ = running.position(at: day) }
        let fresh = ZoneTimeline(zone: zone)
        // The last change: Tuesday 2026-12-22, when the last Monday with the green item ended.
        XCTAssertEqual(fresh.segment(at: instant).start, utcSeconds(2026, 12, 22))
        XCTAssertEqual(running.segment(at: instant).start, utcSeconds(2026, 12, 22))
        XCTAssertEqual(running.position(at: instant), fresh.position(at: instant))
        // A zone whose choice never changes loops from 1970 on every machine.
        let plain = try parse(##"{"outputs": {"*": {"zones": [{"items": [{"color": "#ff0000", "seconds": 7}]}]}}}"##)
        XCTAssertEqual(ZoneTimeline(zone: plain.outputs[0].zones[0]).segment(at: instant).start, 0)
    }

    /// One item alone loops without fading in over nothing each time round.
    func test_aListOfOneItemLoopsWithoutAFade() throws {
        let zone = try parse(##"{"outputs": {"*": {"zones": [{"items": [{"color": "#ff0000", "seconds": 5, "transition": {"crossfade_ms": 1000}}]}]}}}"##)
            .outputs[0].zones[0]
        XCTAssertEqual(try XCTUnwrap(ZoneTimeline(zone: zone).position(at: 1_800_000_000.2)).mix, 1)
    }

    func test_aCrossfadeMixesInTheProportionTheTimeSays() throws {
        let timeline = ZoneTimeline(zone: try menu())
        let start = utcSeconds(2026, 12, 7, 6) + 10  // the crossfaded item begins
        for fraction in [0.0, 0.25, 0.5, 0.999] {
            let position = try XCTUnwrap(timeline.position(at: start + fraction))
            XCTAssertEqual(position.current, .init(playlist: 0, item: 1))
            XCTAssertEqual(position.previous, .init(playlist: 0, item: 0))
            XCTAssertEqual(position.mix, fraction, accuracy: 1e-6)
        }
        XCTAssertEqual(try XCTUnwrap(timeline.position(at: start + 1)).mix, 1)
        // A cut shows all of the new item from its first refresh.
        XCTAssertEqual(try XCTUnwrap(timeline.position(at: start + 5)).mix, 1)
    }

    func test_aZoneWithNothingScheduledShowsTheBackground() throws {
        let zone = try parse("""
            {"outputs": {"*": {"zones": [{"playlists": [
              {"when": {"days": ["mon"]}, "items": [{"color": "#ff0000", "seconds": 10}]}]}]}}}
            """).outputs[0].zones[0]
        let timeline = ZoneTimeline(zone: zone)
        XCTAssertNil(timeline.position(at: utcSeconds(2026, 12, 8, 12)))
        XCTAssertNotNil(timeline.position(at: utcSeconds(2026, 12, 7, 12)))
        XCTAssertEqual(timeline.segment(at: utcSeconds(2026, 12, 7, 12)).start, utcSeconds(2026, 12, 7))
    }

    func test_aPlayLogLineIsOneJSONObject() throws {
        let entry = PlayLog.Entry(output: "HDMI-A-1", zone: "main", playlist: "p", item: "a \"b\".png", start: 1.5, end: 2.5,
                                  frames: 60, missed: 1)
        let line = entry.json
        XCTAssertEqual(line.last, 10)
        XCTAssertEqual(line.filter { $0 == 10 }.count, 1)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
        XCTAssertEqual(object["item"] as? String, "a \"b\".png")
        XCTAssertEqual(object["frames"] as? Int, 60)
        XCTAssertEqual(object["complete"] as? Bool, true)
    }

    func test_thePlayLogRotatesBySizeAndLosesNoLine() throws {
        let folder = NSTemporaryDirectory() + "playlog-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/play.jsonl"
        let log = try PlayLog(path: path, limit: 1000, log: Log { _, _ in })
        for index in 0..<40 {
            log.record(PlayLog.Entry(output: "o", zone: "z", playlist: "p", item: "\(index)", start: 0, end: 1, frames: 1, missed: 0))
        }
        log.flush()
        var items: [Int] = []
        for name in ["play.jsonl.4", "play.jsonl.3", "play.jsonl.2", "play.jsonl.1", "play.jsonl"] {
            guard let text = try? String(contentsOfFile: folder + "/" + name, encoding: .utf8) else { continue }
            XCTAssertLessThanOrEqual(text.utf8.count, 1000, name)
            for line in text.split(separator: "\n") {
                let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                items.append(Int(object["item"] as! String)!)
            }
        }
        // Four older files and the current one keep the newest lines, in order, with no gap.
        XCTAssertEqual(items, Array(items.first!..<40))
        XCTAssertGreaterThan(items.count, 20)
    }
}

/// The show files of Examples/Shows and the JSON Schema in docs/ are what glout reads.
final class ShowExampleTests: XCTestCase {
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func test_theExamplesAreShowsGloutPlays() throws {
        let folder = root.appendingPathComponent("Examples/Shows")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        XCTAssertEqual(names, ["lobby.json", "menu-board.json", "wall.json"])
        for name in names {
            let path = folder.appendingPathComponent(name).path
            let show = try ShowParser.parse(try String(contentsOfFile: path, encoding: .utf8), path: path)
            XCTAssertFalse(show.outputs.isEmpty && show.span.isEmpty, name)
            for file in show.files.compactMap(\.file) { XCTAssertTrue(FileManager.default.fileExists(atPath: file), file) }
        }
    }

    func test_theSchemaNamesTheMembersTheParserTakes() throws {
        let data = try Data(contentsOf: root.appendingPathComponent("docs/show.schema.json"))
        let schema = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let definitions = try XCTUnwrap(schema["$defs"] as? [String: Any])
        func members(_ name: String) -> [String] {
            (((definitions[name] as? [String: Any])?["properties"] as? [String: Any])?.keys.sorted()) ?? []
        }
        XCTAssertEqual(members("zone"), ShowParser.members.zone.sorted())
        XCTAssertEqual(members("playlist"), ShowParser.members.playlist.sorted())
        XCTAssertEqual(members("item"), ShowParser.members.item.sorted())
        XCTAssertEqual(members("daypart"), ShowParser.members.daypart.sorted())
        XCTAssertEqual(((schema["properties"] as? [String: Any])?.keys.sorted()) ?? [], ShowParser.members.show.sorted())
        let outputs = (schema["properties"] as? [String: Any])?["outputs"] as? [String: Any]
        let output = outputs?["additionalProperties"] as? [String: Any]
        XCTAssertEqual(((output?["properties"] as? [String: Any])?.keys.sorted()) ?? [], ShowParser.members.output.sorted())
    }
}

/// A show's text items: what they may say, what a clock writes, where a ticker is.
final class ShowTextTests: XCTestCase {
    private let utc = TimeZone(identifier: "UTC")!

    private func item(_ json: String) throws(ShowError) -> Show.ShowItem {
        try ShowParser.parse(##"{"background": "#102030", "outputs": {"*": {"zones": [{"items": [\##(json)]}]}}}"##,
                             path: "/s.json", defaultTimeZone: utc).outputs[0].zones[0].playlists[0].items[0]
    }

    func test_textItemsTakeTheirFontSizeColoursAndSpeed() throws {
        guard case .text(let label) = try item(##"{"text": "Welcome", "seconds": 5, "font": "DejaVu Sans:bold", "size": 64, "foreground": "#ff0000", "align": "left"}"##).source else {
            return XCTFail("not text")
        }
        XCTAssertEqual(label.kind, .label("Welcome"))
        XCTAssertEqual(label.font, "DejaVu Sans:bold")
        XCTAssertEqual(label.size, 64)
        XCTAssertEqual(label.colour, RGB(r: 1, g: 0, b: 0))
        XCTAssertEqual(label.background, RGB(r: Float(0x10) / 255, g: Float(0x20) / 255, b: Float(0x30) / 255), "the show's")
        XCTAssertEqual(label.alignment, .left)
        guard case .text(let ticker) = try item(##"{"ticker": "News", "seconds": 60, "speed": 120}"##).source else {
            return XCTFail("not text")
        }
        XCTAssertEqual(ticker.kind, .ticker("News", speed: 120))
        XCTAssertEqual(ticker.font, TextItem.defaultFont)
        let clock = try item(##"{"clock": "%H:%M", "seconds": 60, "timezone": "Asia/Tokyo"}"##)
        XCTAssertEqual(clock.name, "clock %H:%M")
        guard case .text(let text) = clock.source else { return XCTFail("not text") }
        XCTAssertEqual(text.kind, .clock(format: "%H:%M", timeZone: TimeZone(identifier: "Asia/Tokyo")!))
    }

    func test_textItemErrorsNameTheMember() {
        let cases: [(String, String, String)] = [
            (##"{"text": "", "seconds": 1}"##, ".text", "1 to 4096"),
            (##"{"clock": "%H:%Q", "seconds": 1}"##, ".clock", "\"%Q\" is not a conversion"),
            (##"{"ticker": "x", "seconds": 1, "speed": 0}"##, ".speed", "1 to 10000"),
            (##"{"ticker": "x", "seconds": 1, "align": "left"}"##, ".align", "only text or clock items take align"),
            (##"{"text": "x", "seconds": 1, "size": 2}"##, ".size", "4 to 1000"),
            (##"{"text": "x", "seconds": 1, "speed": 10}"##, ".speed", "only ticker items take speed"),
            (##"{"color": "#000000", "seconds": 1, "font": "Sans"}"##, ".font", "only text, clock or ticker items take font"),
            (##"{"text": "x", "clock": "%H", "seconds": 1}"##, "", "not text and clock"),
            (##"{"text": "x", "seconds": 1, "align": "middle"}"##, ".align", "not left, center or right"),
        ]
        for (json, member, reason) in cases {
            do {
                _ = try item(json)
                XCTFail("accepted \(json)")
            } catch {
                XCTAssertEqual(error.path, "$.outputs[\"*\"].zones[0].items[0]" + member, json)
                XCTAssertTrue(error.message.contains(reason), "\(json): \(error.message)")
            }
        }
    }

    func test_aClockWritesTheTimeInItsZone() {
        // 2026-12-07 05:04:03 UTC, a Monday.
        let instant = 1_796_619_843.75
        XCTAssertEqual(ClockFormat.write("%H:%M:%S", at: instant, in: utc), "05:04:03")
        XCTAssertEqual(ClockFormat.write("%a %d %b %Y, %I:%M %p %%", at: instant, in: utc), "Mon 07 Dec 2026, 05:04 AM %")
        XCTAssertEqual(ClockFormat.write("%A %e %B, %H:%M", at: instant, in: TimeZone(identifier: "Asia/Tokyo")!),
                       "Monday  7 December, 14:04")
        XCTAssertFalse(ClockFormat.write("%Z", at: instant, in: utc).isEmpty)
        XCTAssertEqual(ClockFormat.write("%j %y %m", at: instant, in: utc), "341 26 12")
        XCTAssertNil(ClockFormat.unknown(in: "%H:%M %% %Z"))
        XCTAssertEqual(ClockFormat.unknown(in: "%H %"), "%")
    }

    func test_aTickerMovesItsSpeedTimesTheTimeBetweenRefreshes() {
        // 120 points a second at scale 1, in an 800-pixel zone: in at the right edge.
        XCTAssertEqual(TextItem.tickerX(elapsed: 0, pixelsPerSecond: 120, lineWidth: 400, zoneWidth: 800), 800)
        XCTAssertEqual(TextItem.tickerX(elapsed: 2, pixelsPerSecond: 120, lineWidth: 400, zoneWidth: 800), 560)
        // Gone at the left after (800 + 400) / 120 = 10 s, then in again.
        XCTAssertEqual(TextItem.tickerX(elapsed: 10.5, pixelsPerSecond: 120, lineWidth: 400, zoneWidth: 800), 740, accuracy: 1e-9)
        // Each refresh of a 60 Hz and a 144 Hz output moves it speed / rate.
        for rate in [60.0, 144.0] {
            var last = TextItem.tickerX(elapsed: 1, pixelsPerSecond: 120, lineWidth: 400, zoneWidth: 800)
            for refresh in 1...Int(rate) {
                let x = TextItem.tickerX(elapsed: 1 + Double(refresh) / rate, pixelsPerSecond: 120, lineWidth: 400, zoneWidth: 800)
                XCTAssertEqual(last - x, 120 / rate, accuracy: 1e-6)
                last = x
            }
        }
    }
}
