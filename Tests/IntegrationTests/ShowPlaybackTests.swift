import Foundation
import XCTest
@testable import glout

/// --show on headless sway: each zone's content where the show puts it, a crossfade's
/// mix, gapless item changes in the play log, a daypart boundary on two compositors at
/// the same refresh, and clear errors for show files glout cannot play (video items:
/// ShowVideoTests.swift).
final class ShowPlaybackTests: IntegrationTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        folder = Paths.temporaryFolder()
    }

    override func tearDown() {
        // Nil where the harness's own set-up threw before this test's.
        if let folder { try? FileManager.default.removeItem(at: folder) }
        super.tearDown()
    }

    func write(_ name: String, _ text: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func near(_ p: (r: Int, g: Int, b: Int), _ r: Int, _ g: Int, _ b: Int, within: Int = 4) -> Bool {
        abs(p.r - r) <= within && abs(p.g - g) <= within && abs(p.b - b) <= within
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
        // Text into a colour and back (one pass, show-fade.frag): half way, the label's
        // background and the colour half and half, its white line over the mix.
        let text = try write("fade-text.json", """
            {"outputs": {"*": {"zones": [{"items": [
              {"text": "MMMMMMMMMMMM", "size": 120, "foreground": "#ffffff", "background": "#00ff00", "seconds": 10,
               "transition": {"crossfade_ms": 1000}},
              {"color": "#0000ff", "seconds": 10, "transition": {"crossfade_ms": 1000}}]},
              {"rect": {"height": 20}, "items": [{"color": "#ffffff", "seconds": 60}]}]}}}
            """)
        for (offset, expected) in [(1_800_000_010.5, (0, 128, 128)), (1_800_000_020.5, (0, 128, 128)), (1_800_000_021.5, (0, 255, 0))] {
            let glout = try sway.glout(["run", "--show", text, "--frozen", String(offset), "--duration", "60"])
            try sway.waitForGlout(on: ["HEADLESS-1"])
            let picture = try sway.screenshot("HEADLESS-1")
            let corner = picture.pixel(20, 580)
            XCTAssertTrue(near(corner, expected.0, expected.1, expected.2, within: 3), "at \(offset), the background: \(corner)")
            // Somewhere on the line's middle row, a glyph: white, or half white over blue.
            let row = (0..<800).map { picture.pixel($0, 300) }
            let glyph = offset == 1_800_000_021.5 ? (255, 255, 255) : (128, 128, 255)
            XCTAssertTrue(row.contains { near($0, glyph.0, glyph.1, glyph.2, within: 4) }, "at \(offset), no glyph \(glyph) in \(Set(row.map { "\($0)" }).prefix(12))")
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
        // Counted without parsing: a line may be half written while the test looks.
        try waitUntil("six lines in the play log") {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").filter { $0 == "\n" }.count >= 6
        }
        glout.signal(SIGTERM)
        let finished = glout.wait()
        XCTAssertEqual(finished.status, 0, finished.stderr)
        let lines = try playLogLines(log)
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
        for (before, line) in zip(turns, turns.dropFirst()).dropLast() {
            let length = (line["end"] as! Double) - (line["start"] as! Double)
            // A late first frame shortens an item by the refreshes missed before it (the
            // last item's); a late next item's lengthens it by its own.
            let missed = (line["missed"] as! Int) + (before["missed"] as! Int), frames = line["frames"] as! Int
            XCTAssertGreaterThan(frames, 0)
            XCTAssertEqual(length, 0.5, accuracy: Double(missed + 2) / 60, "\(line)")
            XCTAssertEqual(line["complete"] as? Bool, true)
        }
        // The still zone showed one item all along: written when glout stopped.
        // (It loops at each whole hour since 1970, which may fall in the test.)
        let still = joiningLoops(lines, every: 3600).filter { $0["zone"] as? String == "still" }
        XCTAssertEqual(still.count, 1)
        XCTAssertEqual(still.first?["complete"] as? Bool, false)
        XCTAssertEqual(turns.last?["complete"] as? Bool, false)
    }

    /// Two glouts on two sways play a show whose daypart begins a few seconds from now:
    /// each switches at its first refresh targeted at or after the boundary, so both at
    /// the same refresh of the clock they share; the play logs say when.
    func test_aDaypartBoundaryTakesEffectAtTheSameRefreshOnTwoCompositors() throws {
        let swayA = try Compositor.sway(["800x600@60"]), swayB = try Compositor.sway(["640x480@60"])
        let boundary = (Date().timeIntervalSince1970 + 15).rounded(.up)
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
        guard Date().timeIntervalSince1970 < boundary - 1 else {
            throw XCTSkip("the two glouts took more than 14 s to start: the boundary passed before the test could look")
        }
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
            let lines = try playLogLines(log)
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
        // The same refresh of the shared clock: within a refresh of each other (two sways'
        // refreshes keep phases of their own), or the next where a loaded machine made one late.
        XCTAssertLessThan(abs(starts[0] - starts[1]), 2.0 / 60, "\(starts.map { $0 - boundary })")
        print("daypart boundary: first refreshes \(String(format: "%.2f", (starts[0] - boundary) * 1000)) and "
              + "\(String(format: "%.2f", (starts[1] - boundary) * 1000)) ms after it")
    }

    /// A file renamed over the show and one written in place are each played from the
    /// next frame, even by a still (--frozen) output; a show with an error in between is
    /// said in a warning, with where and why, and changes nothing.
    func test_aChangedShowFilePlaysAndABrokenOneChangesNothing() throws {
        let sway = try Compositor.sway(["800x600@60"])
        func show(_ colour: String, seconds: String = "60") -> String {
            ##"{"outputs": {"*": {"zones": [{"items": [{"color": "\##(colour)", "seconds": \##(seconds)}]},"##
                + ##"{"rect": {"height": 20}, "items": [{"color": "#ffffff", "seconds": 60}]}]}}}"##
        }
        let path = try write("show.json", show("#ff0000"))
        /// Written beside it and renamed over it, as deployment tools do.
        func replace(_ text: String) throws {
            let temporary = try write(".show.json.new", text)
            XCTAssertEqual(rename(temporary, path), 0)
        }
        func colour() throws -> (r: Int, g: Int, b: Int) { try sway.screenshot("HEADLESS-1").pixel(400, 300) }
        let glout = try sway.glout(["run", "--show", path, "--frozen", "1800000000", "--duration", "120"])
        try sway.waitForGlout(on: ["HEADLESS-1"])
        XCTAssertTrue(near(try colour(), 255, 0, 0))
        try replace(show("#00ff00", seconds: "-1"))
        try waitUntil("a warning about the broken show; stderr:\n\(glout.stderr)") {
            glout.stderr.contains("the show as it was plays on")
        }
        XCTAssertTrue(glout.stderr.contains("$.outputs[\"*\"].zones[0].items[0].seconds"), glout.stderr)
        XCTAssertTrue(near(try colour(), 255, 0, 0), "a broken show changes nothing")
        try replace(show("#00ff00"))
        try waitUntil("the renamed show's green on the screen") { near(try colour(), 0, 255, 0) }
        try show("#0000ff").write(toFile: path, atomically: false, encoding: .utf8)
        try waitUntil("the show written in place: blue") { near(try colour(), 0, 0, 255) }
        glout.signal(SIGTERM)
        let finished = glout.wait()
        XCTAssertEqual(finished.status, 0, finished.stderr)
    }

    /// PUT /api/v1/show plays another file from the next frame; one with an error is a 422
    /// naming where and why, one naming a file out of --content-root a 403, and content
    /// switches are refused while a show plays: each changing nothing.
    func test_theControlAPIReplacesTheShowAndRefusesWhatItMayNot() throws {
        let sway = try Compositor.sway(["800x600@60"])
        let root = folder.appendingPathComponent("root")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        func show(_ item: String) -> String {
            ##"{"outputs": {"*": {"zones": [{"items": [\##(item)]},"##
                + ##"{"rect": {"height": 20}, "items": [{"color": "#ffffff", "seconds": 60}]}]}}}"##
        }
        try show(##"{"color": "#ff0000", "seconds": 60}"##).write(to: root.appendingPathComponent("red.json"), atomically: true, encoding: .utf8)
        try show(##"{"color": "#0000ff", "seconds": 60}"##).write(to: root.appendingPathComponent("blue.json"), atomically: true, encoding: .utf8)
        try show(##"{"color": "#0000ff", "seconds": 0}"##).write(to: root.appendingPathComponent("broken.json"), atomically: true, encoding: .utf8)
        let outside = try write("outside.png", "not read")
        try show(##"{"image": "\##(outside)", "seconds": 1}"##).write(to: root.appendingPathComponent("escape.json"), atomically: true,
                                                                 encoding: .utf8)
        let glout = try sway.glout(["run", "--show", root.appendingPathComponent("red.json").path, "--http", "0",
                                    "--content-root", root.path, "--duration", "120"])
        var base = ""
        try waitUntil("the control API's address; stderr:\n\(glout.stderr)") {
            guard let line = glout.stderr.split(separator: "\n").first(where: { $0.contains("control API on http://") }),
                  let start = line.range(of: "http://"), let end = line.range(of: "/api/v1/") else { return false }
            base = String(line[start.lowerBound..<end.lowerBound]) + "/api/v1"
            return true
        }
        func put(_ path: String, _ body: String) throws -> (status: Int, message: String) {
            let out = folder.appendingPathComponent("answer").path
            let curl = try Child("/usr/bin/curl", ["-sS", "-X", "PUT", "-o", out, "-w", "%{http_code}", "--max-time", "30",
                                                   "--data-binary", body, base + path]).wait(timeout: 40)
            let answer = (try? JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out)))) as? [String: Any]
            let error = answer?["error"] as? [String: Any]
            return (Int(curl.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0, error?["message"] as? String ?? "")
        }
        func colour() throws -> (r: Int, g: Int, b: Int) { try sway.screenshot("HEADLESS-1").pixel(400, 300) }
        try sway.waitForGlout(on: ["HEADLESS-1"], frozen: false)
        XCTAssertTrue(near(try colour(), 255, 0, 0))
        let broken = try put("/show", ##"{"file": "broken.json"}"##)
        XCTAssertEqual(broken.status, 422)
        XCTAssertTrue(broken.message.contains("$.outputs[\"*\"].zones[0].items[0].seconds"), broken.message)
        let escape = try put("/show", ##"{"file": "escape.json"}"##)
        XCTAssertEqual(escape.status, 403, escape.message)
        XCTAssertEqual(try put("/show", ##"{"file": "none.json"}"##).status, 404)
        XCTAssertEqual(try put("/content", ##"{"file": "red.json"}"##).status, 409)
        XCTAssertTrue(near(try colour(), 255, 0, 0), "refusals change nothing")
        XCTAssertEqual(try put("/show", ##"{"file": "blue.json"}"##).status, 200)
        try waitUntil("the new show's blue") { near(try colour(), 0, 0, 255) }
        glout.signal(SIGTERM)
        let finished = glout.wait()
        XCTAssertEqual(finished.status, 0, finished.stderr)
    }

    /// Text through fontconfig and FreeType: a label where its alignment puts it, in its
    /// colours; a ticker where its speed has brought it at two instants (to the fraction
    /// of a pixel); a clock that reads the time of the refresh.
    func test_textLabelsTickersAndClocksAreWhereTheTimeSays() throws {
        let sway = try Compositor.sway(["800x600@60"])
        // Full blocks (U+2588), whose edges are easy to find.
        let show = try write("text.json", ##"""
            {"background": "#000000", "outputs": {"*": {"zones": [
              {"name": "label", "rect": {"height": 100}, "items": [{"text": "██", "seconds": 3600, "align": "left",
               "foreground": "#ffff00", "background": "#0000ff"}]},
              {"name": "ticker", "rect": {"y": 200, "height": 100}, "items": [{"ticker": "████", "seconds": 3600,
               "speed": 120, "font": "DejaVu Sans"}]},
              {"name": "clock", "rect": {"y": 400, "height": 100}, "items": [{"clock": "%H:%M:%S", "seconds": 3600,
               "timezone": "UTC"}]}]}}}
            """##)
        /// The column where the ticker's blocks begin, to a fraction of a pixel (the first
        /// column at least half covered, interpolated).
        func tickerEdge(_ picture: Image) -> Double? {
            var last = 0.0
            for x in 0..<picture.width {
                let value = Double(picture.pixel(x, 250).r) / 255
                if value >= 0.5 { return Double(x) - (value - 0.5) / max(value - last, 1e-6) + 0.5 }
                last = value
            }
            return nil
        }
        var pictures: [Double: Image] = [:]
        // 1800000000 is a whole hour: the items began then. 2 s in, the ticker has come
        // 240 points in from the right edge; half a second on, 60 more.
        for instant in [1_800_000_002.0, 1_800_000_002.5, 1_800_000_003.0] {
            let glout = try sway.glout(["run", "--show", show, "--frozen", String(instant), "--duration", "60"])
            try sway.waitForGlout(on: ["HEADLESS-1"])
            pictures[instant] = try sway.screenshot("HEADLESS-1")
            glout.signal(SIGTERM)
            let finished = glout.wait()
            XCTAssertEqual(finished.status, 0, finished.stderr)
            XCTAssertTrue(finished.stderr.contains("font \"DejaVu Sans\" is DejaVu Sans"), finished.stderr)
        }
        let first = try XCTUnwrap(pictures[1_800_000_002.0])
        // The label: yellow blocks from its left margin (a quarter of its 48 pixels) on blue.
        XCTAssertTrue(near(first.pixel(5, 50), 0, 0, 255), "the label's background: \(first.pixel(5, 50))")
        XCTAssertTrue(near(first.pixel(20, 50), 255, 255, 0), "the label's text: \(first.pixel(20, 50))")
        XCTAssertTrue(near(first.pixel(700, 50), 0, 0, 255))
        let edges = try [1_800_000_002.0, 1_800_000_002.5].map { try XCTUnwrap(tickerEdge(pictures[$0]!), "no ticker") }
        XCTAssertEqual(edges[0], 560, accuracy: 1.5, "2 s at 120 points a second from the right edge")
        XCTAssertEqual(edges[0] - edges[1], 60, accuracy: 0.5, "half a second more")
        // The clock reads 08:00:02 and 08:00:03: the pictures differ in its zone only there.
        let clockA = first.cropped(x: 0, y: 400, width: 800, height: 100)
        let clockB = try XCTUnwrap(pictures[1_800_000_003.0]).cropped(x: 0, y: 400, width: 800, height: 100)
        XCTAssertNotEqual(clockA, clockB, "the clock's seconds")
        XCTAssertGreaterThan(clockA.meanBrightness, 1, "the clock's text")
    }

    /// Every refresh moves a ticker the speed times the refresh period, also where the
    /// compositor's refreshes come unevenly: on the test compositor, every 7th tick 6 ms
    /// late and the ticks after it timed from it (as headless wlroots times them). Drawn
    /// straight at each frame's target, the line would move 0.72 px more than a refresh's
    /// 2 px at each of those refreshes. From --landings-json: each frame's target and how
    /// far it drew the line.
    func test_aTickerAdvancesTheSameDistanceEveryRefreshWhereRefreshesComeUnevenly() throws {
        let compositor = try FaultyCompositor(["--output", "name=TEST-1,width=640,height=480,refresh=60000", "--late-tick", "7,6"])
        let show = try write("ticker.json", ##"""
            {"outputs": {"*": {"zones": [{"name": "ticker", "rect": {"y": "80%", "height": "20%"},
              "items": [{"ticker": "Doors open at nine", "speed": 120, "size": 32, "seconds": 3600}]}]}}}
            """##)
        let landings = folder.appendingPathComponent("landings.json")
        let finished = try compositor.glout(["run", "--show", show, "--duration", "5", "--landings-json", landings.path]).wait()
        XCTAssertEqual(finished.status, 0, finished.stderr)
        let log = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: landings)) as? [String: Any])
        let output = try XCTUnwrap((log["outputs"] as? [[String: Any]])?.first)
        let frames = try XCTUnwrap(output["frames"] as? [[String: Any]]).compactMap { frame -> (index: Int, target: Double, px: Double)? in
            guard let index = frame["index"] as? Int, let target = (frame["target_ns"] as? NSNumber)?.doubleValue,
                  let px = (frame["ticker_px"] as? NSNumber)?.doubleValue else { return nil }
            return (index, target / 1e9, px)
        }
        // From the second frame: the first is a quick one at half the pixels (its line's
        // travel in pixels is half as far).
        let pairs = zip(frames, frames.dropFirst()).filter { $0.index > 0 && $1.index == $0.index + 1 && $1.px >= $0.px }
        XCTAssertGreaterThan(pairs.count, 150, "refreshes with a ticker: \(frames.count)")
        let period = 1 / 60.0
        var late = 0
        for (a, b) in pairs {
            let refreshes = (b.target - a.target) / period
            // Less than a quarter of a refresh on is no refresh of the output (drawn at its
            // target); 1.4 to 1.6 refreshes on is as much one late as two early.
            guard refreshes >= 0.25 else { continue }
            if (1.2...1.4).contains(refreshes) { late += 1 }
            let counts = (0.4...0.6).contains(refreshes.truncatingRemainder(dividingBy: 1))
                ? [refreshes.rounded(.down), refreshes.rounded(.up)] : [refreshes.rounded()]
            let error = counts.map { abs(b.px - a.px - max(1, $0) * 120 * period) }.min()!
            XCTAssertLessThanOrEqual(error, 0.5, "frame \(b.index): \(b.px - a.px) px over \(refreshes) refreshes")
        }
        XCTAssertGreaterThanOrEqual(late, 5, "refreshes a third of a period late, as the test compositor sends them")
    }

    /// Show files glout cannot play: a clear error naming the file, the place in it and
    /// the reason, status 1, and no window; a usage error for options that do not go with
    /// --show.
    func test_aShowFileGloutCannotPlayIsRefusedWithWhereAndWhy() throws {
        let sway = try Compositor.sway(["800x600@60"])
        try "#version 300 es\nthis is not GLSL\n".write(to: folder.appendingPathComponent("broken.frag"), atomically: true,
                                                         encoding: .utf8)
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]).write(to: folder.appendingPathComponent("cut.png"))
        try Bitmap(width: 64, height: 64, background: .init(255, 0, 0)).writePNG(to: folder.appendingPathComponent("still.png").path)
        try CodedClip.make(at: folder.appendingPathComponent("clip.mp4").path, fps: 24, seconds: 2)
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
            ("a missing video", ##"{"outputs": {"*": {"zones": [{"items": [{"video": "a.mp4"}]}]}}}"##,
             ["$.outputs[\"*\"].zones[0].items[0]", "a.mp4", "No such file"]),
            ("a still as a video", ##"{"outputs": {"*": {"zones": [{"items": [{"video": "still.png"}]}]}}}"##,
             ["$.outputs[\"*\"].zones[0].items[0]", "still.png", "a still picture; give it as an image item"]),
            ("a crossfade longer than its video", ##"{"outputs": {"*": {"zones": [{"items": [{"video": "clip.mp4", "##
                + ##""transition": {"crossfade_ms": 5000}}]}]}}}"##,
             ["$.outputs[\"*\"].zones[0].items[0].transition.crossfade_ms", "longer than the video's 2 s"]),
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
