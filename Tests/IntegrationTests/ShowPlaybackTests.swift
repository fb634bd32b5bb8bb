import Foundation
import XCTest
@testable import glout

/// --show on headless sway: each zone's content where the show puts it, a crossfade's
/// mix, gapless item changes in the play log, a daypart boundary on two compositors at
/// the same refresh, and clear errors for show files glout cannot play.
final class ShowPlaybackTests: IntegrationTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        folder = Paths.temporaryFolder()
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }

    private func write(_ name: String, _ text: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func near(_ p: (r: Int, g: Int, b: Int), _ r: Int, _ g: Int, _ b: Int, within: Int = 4) -> Bool {
        abs(p.r - r) <= within && abs(p.g - g) <= within && abs(p.b - b) <= within
    }

    /// The play log's lines.
    private func playLog(_ path: String) throws -> [[String: Any]] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], String(line))
        }
    }

    /// Zones in percent and in points, an output's own zones over "*", a photo-sized PNG
    /// fitted in its zone, the background where no zone is: on a scale-1 and a scale-2
    /// output, held still by --frozen.
    func test_eachZoneShowsItsContentWhereTheShowPutsIt() throws {
        let sway = try Compositor.sway(["1280x720@60", "800x600@60"])
        _ = try sway.swaymsg("output HEADLESS-2 scale 2")
        // 1920x1080: red on the left half, blue on the right.
        var pixels: [UInt8] = []
        pixels.reserveCapacity(1920 * 1080 * 4)
        for _ in 0..<1080 { for x in 0..<1920 { pixels += x < 960 ? [255, 0, 0, 255] : [0, 0, 255, 255] } }
        try Bitmap(width: 1920, height: 1080, pixels: pixels).writePNG(to: folder.appendingPathComponent("photo.png").path)
        let show = try write("zones.json", """
            {"background": "#202020", "outputs": {
              "*": {"zones": [
                {"name": "left", "rect": {"width": "50%", "height": "50%"}, "items": [{"color": "#00ff00", "seconds": 60}]},
                {"name": "photo", "rect": {"x": "50%", "width": "50%", "height": "50%"},
                 "items": [{"image": "photo.png", "seconds": 60, "fit": "stretch"}]}]},
              "HEADLESS-2": {"zones": [
                {"name": "corner", "rect": {"x": 100, "y": 50, "width": 100, "height": 100},
                 "items": [{"color": "#ffff00", "seconds": 60}]}]}}}
            """)
        let glout = try sway.glout(["run", "--show", show, "--frozen", "1800000000", "--duration", "60"])
        try sway.waitForGlout(on: ["HEADLESS-1", "HEADLESS-2"])
        let first = try sway.screenshot("HEADLESS-1")
        XCTAssertTrue(near(first.pixel(10, 10), 0, 255, 0) && near(first.pixel(630, 350), 0, 255, 0), "the left zone")
        XCTAssertTrue(near(first.pixel(650, 10), 255, 0, 0) && near(first.pixel(955, 350), 255, 0, 0), "the photo's left half")
        XCTAssertTrue(near(first.pixel(965, 10), 0, 0, 255) && near(first.pixel(1270, 350), 0, 0, 255), "the photo's right half")
        XCTAssertTrue(near(first.pixel(10, 370), 32, 32, 32) && near(first.pixel(1270, 710), 32, 32, 32), "the background")
        // HEADLESS-2 (scale 2: 400x300 points) has its own zone: 100 points are 200 pixels.
        let second = try sway.screenshot("HEADLESS-2")
        XCTAssertEqual(second.width, 800)
        XCTAssertTrue(near(second.pixel(205, 105), 255, 255, 0) && near(second.pixel(395, 295), 255, 255, 0), "the corner zone")
        XCTAssertTrue(near(second.pixel(195, 105), 32, 32, 32) && near(second.pixel(405, 305), 32, 32, 32), "around it")
        glout.signal(SIGTERM)
        let finished = glout.wait()
        XCTAssertEqual(finished.status, 0, finished.stderr)
    }

    /// A crossfade from red to blue over a second, held at a quarter, half and the whole of
    /// it: the two items mixed in the proportion the time says.
    func test_aCrossfadeMixesTheTwoItemsAsTheTimeSays() throws {
        let sway = try Compositor.sway(["800x600@60"])
        let show = try write("fade.json", """
            {"outputs": {"*": {"zones": [{"items": [
              {"color": "#ff0000", "seconds": 10},
              {"color": "#0000ff", "seconds": 10, "transition": {"crossfade_ms": 1000}}]},
              {"rect": {"height": 20}, "items": [{"color": "#ffffff", "seconds": 60}]}]}}}
            """)
        // The list loops every 20 s from 1970: at 1800000010 s the blue item begins.
        for (offset, red, blue) in [(0.25, 191, 64), (0.5, 128, 128), (1.0, 0, 255), (-0.5, 255, 0)] {
            let glout = try sway.glout(["run", "--show", show, "--frozen", String(1_800_000_010 + offset), "--duration", "60"])
            try sway.waitForGlout(on: ["HEADLESS-1"])
            let pixel = try sway.screenshot("HEADLESS-1").pixel(400, 300)
            XCTAssertTrue(near(pixel, red, 0, blue, within: 3), "\(offset) s into the crossfade: \(pixel)")
            glout.signal(SIGTERM)
            let finished = glout.wait()
            XCTAssertEqual(finished.status, 0, finished.stderr)
        }
    }

    /// Items of half a second in turn: each is on the screen, and the play log has each
    /// showing, the next starting at the refresh the last ended, with the frames shown,
    /// for every zone; the last lines are written when glout stops.
    func test_itemsChangeWithNoGapAndThePlayLogSaysWhatShowed() throws {
        let sway = try Compositor.sway(["800x600@60"])
        let show = try write("turns.json", """
            {"outputs": {"*": {"zones": [
              {"name": "turns", "items": [{"color": "#ff0000", "seconds": 0.5}, {"color": "#00ff00", "seconds": 0.5},
                                          {"color": "#0000ff", "seconds": 0.5}]},
              {"name": "still", "rect": {"y": "90%", "height": "10%"}, "items": [{"color": "#ffffff", "seconds": 3600}]}]}}}
            """)
        let log = folder.appendingPathComponent("play.jsonl").path
        let glout = try sway.glout(["run", "--show", show, "--play-log", log, "--duration", "60"])
        try sway.waitForGlout(on: ["HEADLESS-1"], frozen: false)
        var seen = Set<String>()
        try waitUntil("each colour on the screen (seen: \(seen.sorted()))") {
            let pixel = try sway.screenshot("HEADLESS-1").pixel(400, 200)
            for (name, colour) in [("red", (255, 0, 0)), ("green", (0, 255, 0)), ("blue", (0, 0, 255))]
            where near(pixel, colour.0, colour.1, colour.2) { seen.insert(name) }
            return seen.count == 3
        }
        // Lines come as items end: wait for two passes of the list.
        try waitUntil("six lines in the play log") { ((try? playLog(log)) ?? []).count >= 6 }
        glout.signal(SIGTERM)
        let finished = glout.wait()
        XCTAssertEqual(finished.status, 0, finished.stderr)
        let lines = try playLog(log)
        let turns = lines.filter { $0["zone"] as? String == "turns" }
        XCTAssertGreaterThanOrEqual(turns.count, 6)
        let order = ["#ff0000", "#00ff00", "#0000ff"]
        for (before, after) in zip(turns, turns.dropFirst()) {
            let (item, next) = (before["item"] as! String, after["item"] as! String)
            XCTAssertEqual(order[(order.firstIndex(of: item)! + 1) % 3], next, "the list's order")
            XCTAssertEqual(before["end"] as! Double, after["start"] as! Double, "\(item) ends at the refresh \(next) starts")
            XCTAssertEqual(before["output"] as? String, "HEADLESS-1")
        }
        // Whole showings (not the first, which began with glout): half a second each,
        // within the refreshes they missed and one more.
        for line in turns.dropFirst().dropLast() {
            let length = (line["end"] as! Double) - (line["start"] as! Double)
            let missed = line["missed"] as! Int, frames = line["frames"] as! Int
            XCTAssertGreaterThan(frames, 0)
            XCTAssertEqual(length, 0.5, accuracy: Double(missed + 2) / 60, "\(line)")
            XCTAssertEqual(line["complete"] as? Bool, true)
        }
        // The still zone showed one item all along: written when glout stopped.
        let still = lines.filter { $0["zone"] as? String == "still" }
        XCTAssertEqual(still.count, 1)
        XCTAssertEqual(still.first?["complete"] as? Bool, false)
        XCTAssertEqual(turns.last?["complete"] as? Bool, false)
    }

    /// Two glouts on two sways play a show whose daypart begins a few seconds from now:
    /// each switches at its first refresh targeted at or after the boundary, so both at
    /// the same refresh of the clock they share; the play logs say when.
    func test_aDaypartBoundaryTakesEffectAtTheSameRefreshOnTwoCompositors() throws {
        let swayA = try Compositor.sway(["800x600@60"]), swayB = try Compositor.sway(["640x480@60"])
        let boundary = (Date().timeIntervalSince1970 + 8).rounded(.up)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        func clock(_ seconds: Double) -> String {
            let parts = calendar.dateComponents([.hour, .minute, .second], from: Date(timeIntervalSince1970: seconds))
            return String(format: "%02d:%02d:%02d", parts.hour!, parts.minute!, parts.second!)
        }
        let show = try write("daypart.json", """
            {"timezone": "UTC", "outputs": {"*": {"zones": [{"name": "menu", "playlists": [
              {"name": "after", "priority": 1, "when": {"from": "\(clock(boundary))", "until": "\(clock(boundary + 3600))"},
               "items": [{"color": "#0000ff", "seconds": 60}]},
              {"name": "before", "items": [{"color": "#ff0000", "seconds": 60}]}]},
              {"name": "band", "rect": {"height": 20}, "items": [{"color": "#ffffff", "seconds": 60}]}]}}}
            """)
        let logs = ["a", "b"].map { folder.appendingPathComponent("\($0).jsonl").path }
        let gloutA = try swayA.glout(["run", "--show", show, "--play-log", logs[0], "--duration", "60"])
        let gloutB = try swayB.glout(["run", "--show", show, "--play-log", logs[1], "--duration", "60"])
        try swayA.waitForGlout(on: ["HEADLESS-1"], frozen: false)
        try swayB.waitForGlout(on: ["HEADLESS-1"], frozen: false)
        XCTAssertLessThan(Date().timeIntervalSince1970, boundary, "glout took too long to start for this test")
        XCTAssertTrue(near(try swayA.screenshot("HEADLESS-1").pixel(400, 300), 255, 0, 0), "before the boundary")
        for sway in [swayA, swayB] {
            try waitUntil("the daypart's picture after the boundary") {
                near(try sway.screenshot("HEADLESS-1").pixel(300, 200), 0, 0, 255)
            }
        }
        for glout in [gloutA, gloutB] {
            glout.signal(SIGTERM)
            let finished = glout.wait()
            XCTAssertEqual(finished.status, 0, finished.stderr)
        }
        var starts: [Double] = []
        for log in logs {
            let lines = try playLog(log)
            let before = try XCTUnwrap(lines.first { $0["playlist"] as? String == "before" }, "\(lines)")
            let after = try XCTUnwrap(lines.first { $0["playlist"] as? String == "after" })
            let start = after["start"] as! Double
            XCTAssertEqual(before["end"] as! Double, start)
            // The first refresh targeted at or after the boundary: never before it, and
            // (a generous bound for a loaded machine) soon after.
            XCTAssertGreaterThanOrEqual(start, boundary, "\(log)")
            XCTAssertLessThan(start - boundary, 0.25, "\(log)")
            starts.append(start)
        }
        print("daypart boundary: first refreshes \(String(format: "%.2f", (starts[0] - boundary) * 1000)) and "
              + "\(String(format: "%.2f", (starts[1] - boundary) * 1000)) ms after it")
    }

    /// Show files glout cannot play: a clear error naming the file, the place in it and
    /// the reason, status 1, and no window; a usage error for options that do not go with
    /// --show.
    func test_aShowFileGloutCannotPlayIsRefusedWithWhereAndWhy() throws {
        let sway = try Compositor.sway(["800x600@60"])
        try "#version 300 es\nthis is not GLSL\n".write(to: folder.appendingPathComponent("broken.frag"), atomically: true,
                                                         encoding: .utf8)
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]).write(to: folder.appendingPathComponent("cut.png"))
        let cases: [(String, String, [String])] = [
            ("not json", "{\"outputs\":", ["not JSON"]),
            ("a bad member", ##"{"outputs": {"*": {"zones": [{"items": [{"color": "#ff0000", "seconds": -1}]}]}}}"##,
             ["$.outputs[\"*\"].zones[0].items[0].seconds", "not a duration"]),
            ("a missing image", ##"{"outputs": {"*": {"zones": [{"items": [{"image": "nowhere.png", "seconds": 1}]}]}}}"##,
             ["$.outputs[\"*\"].zones[0].items[0]", "nowhere.png", "No such file"]),
            ("a broken image", ##"{"outputs": {"*": {"zones": [{"items": [{"image": "cut.png", "seconds": 1}]}]}}}"##,
             ["$.outputs[\"*\"].zones[0].items[0]", "cut.png"]),
            ("a shader that does not compile", ##"{"outputs": {"*": {"zones": [{"items": [{"shader": "broken.frag", "seconds": 1}]}]}}}"##,
             ["$.outputs[\"*\"].zones[0].items[0]", "broken.frag", "compile"]),
            ("a video item", ##"{"outputs": {"*": {"zones": [{"items": [{"video": "a.mp4", "seconds": 1}]}]}}}"##,
             ["$.outputs[\"*\"].zones[0].items[0].video", "not among them yet"]),
        ]
        for (what, text, expected) in cases {
            let show = try write("show.json", text)
            let finished = try sway.glout(["run", "--show", show, "--duration", "5"]).wait()
            XCTAssertEqual(finished.status, 1, "\(what): \(finished.stderr)")
            XCTAssertTrue(finished.stderr.contains("--show \(show)"), "\(what): \(finished.stderr)")
            for part in expected { XCTAssertTrue(finished.stderr.contains(part), "\(what): \(part) in \(finished.stderr)") }
            XCTAssertFalse(finished.signaled, what)
        }
        let missing = try sway.glout(["run", "--show", folder.appendingPathComponent("none.json").path, "--duration", "5"]).wait()
        XCTAssertEqual(missing.status, 1, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("cannot read the file"), missing.stderr)
        let both = try sway.glout(["run", "--show", "a.json", "--content", "b.png"]).wait()
        XCTAssertEqual(both.status, 2, both.stderr)
        XCTAssertTrue(both.stderr.contains("--show"), both.stderr)
    }
}
