import Foundation
import XCTest
@testable import glout

/// A show's `off` dayparts on headless sway: the output goes dark at the first refresh at
/// or after the start, draws nothing while off, and shows its zones again from the first
/// refresh at or after the end; the play log has the gap. Where the compositor can turn
/// the output off (sway 1.10's headless outputs), glout does so through
/// wlr-output-power-management and on again after; where it cannot (sway 1.7's), glout
/// says so and shows black with its display link paused.
final class ShowPowerTests: IntegrationTestCase {
    func test_anOffDaypartTurnsTheOutputOffAndOnAgain() throws {
        let folder = Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sway = try Compositor.sway(["800x600@60", "640x480@60"])
        func power(_ name: String) throws -> Bool? { try ShowPowerTests.power(of: name, on: sway) }
        let canPower = try power("HEADLESS-2") != nil
        let start = (Date().timeIntervalSince1970 + 12).rounded(.up), end = start + 6
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        func clock(_ seconds: Double) -> String {
            let parts = calendar.dateComponents([.hour, .minute, .second], from: Date(timeIntervalSince1970: seconds))
            return String(format: "%02d:%02d:%02d", parts.hour!, parts.minute!, parts.second!)
        }
        let show = folder.appendingPathComponent("power.json").path
        // A band, so that each picture has two colours (the harness waits for a picture that has).
        let band = ##"{"name": "band", "rect": {"height": 20}, "items": [{"color": "#ffffff", "seconds": 600}]}"##
        try """
            {"timezone": "UTC", "outputs": {
              "*": {"zones": [{"name": "main", "items": [{"color": "#ff0000", "seconds": 600}]}, \(band)]},
              "HEADLESS-2": {"zones": [{"name": "main", "items": [{"color": "#00ff00", "seconds": 600}]}, \(band)],
                             "off": [{"from": "\(clock(start))", "until": "\(clock(end))"}]}}}
            """.write(toFile: show, atomically: true, encoding: .utf8)
        let log = folder.appendingPathComponent("play.jsonl").path, stats = folder.appendingPathComponent("stats.json").path
        let glout = try sway.glout(["run", "--show", show, "--play-log", log, "--stats-json", stats, "--duration", "120"])
        try sway.waitForGlout(on: ["HEADLESS-1", "HEADLESS-2"], frozen: false)
        guard Date().timeIntervalSince1970 < start - 1 else {
            throw XCTSkip("glout took more than 11 s to start: the stretch off began before the test could look")
        }
        func pixel(_ name: String) throws -> (r: Int, g: Int, b: Int) { try sway.screenshot(name).pixel(300, 200) }
        XCTAssertTrue(near(try pixel("HEADLESS-2"), 0, 255, 0), "before the stretch off")
        if canPower {
            try waitUntil("sway says HEADLESS-2 is off; glout:\n\(glout.stderr)") { try power("HEADLESS-2") == false }
            XCTAssertTrue(glout.stderr.contains("output HEADLESS-2: off until"), glout.stderr)
            XCTAssertEqual(try power("HEADLESS-1"), true)
        } else {
            try waitUntil("HEADLESS-2 black") { near(try pixel("HEADLESS-2"), 0, 0, 0) }
            try waitUntil("glout says it cannot turn HEADLESS-2 off:\n\(glout.stderr)") {
                glout.stderr.contains("output HEADLESS-2: cannot turn it off") && glout.stderr.contains("display link paused")
            }
        }
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince1970, start - 0.1, "dark before the stretch began")
        XCTAssertTrue(near(try pixel("HEADLESS-1"), 255, 0, 0), "the other output plays on")
        try waitUntil("HEADLESS-2 green again after the stretch", within: end - Date().timeIntervalSince1970 + Timing.patience) {
            let on = ((try? power("HEADLESS-2")) ?? true) != false
            return try on && near(pixel("HEADLESS-2"), 0, 255, 0)
        }
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince1970, end - 0.1, "lit before the stretch ended")
        XCTAssertTrue(glout.stderr.contains("output HEADLESS-2: on (the show's off ends)"), glout.stderr)
        // A second of frames after it, then the run's counts.
        let lit = Date().timeIntervalSince1970
        try waitUntil("a second after HEADLESS-2 came on") { Date().timeIntervalSince1970 > lit + 1 }
        glout.signal(SIGTERM)
        let finished = glout.wait()
        XCTAssertEqual(finished.status, 0, finished.stderr)
        if canPower { XCTAssertEqual(try power("HEADLESS-2"), true, "on again after glout") }

        // The play log: HEADLESS-2's item ends at the first refresh at or after the start
        // and comes back at the first at or after the end.
        // (An item of 600 s loops at each multiple of 600 s since 1970; one may fall in the test.)
        let lines = joiningLoops(try playLogLines(log), every: 600)
        var second = lines.filter { $0["output"] as? String == "HEADLESS-2" }
        XCTAssertEqual(second.filter { $0["zone"] as? String == "band" }.count, 2, "\(second)")
        second = second.filter { $0["zone"] as? String == "main" }
        XCTAssertEqual(second.count, 2, "\(second)")
        if second.count == 2 {
            let (before, after) = (second[0], second[1])
            XCTAssertEqual(before["complete"] as? Bool, true)
            let (dark, lightAgain) = (before["end"] as! Double, after["start"] as! Double)
            XCTAssertGreaterThanOrEqual(dark, start)
            XCTAssertLessThan(dark - start, 0.25, "\(before)")
            XCTAssertGreaterThanOrEqual(lightAgain, end)
            XCTAssertLessThan(lightAgain - end, 0.25, "\(after)")
        }
        XCTAssertEqual(lines.filter { $0["output"] as? String == "HEADLESS-1" }.count, 2, "one line a zone: \(lines)")
        // While off HEADLESS-2 drew (nearly) nothing: at least four of its six seconds
        // of refreshes fewer than HEADLESS-1, at the same rate.
        let report = outputsByName(try readJSON(stats))
        let (first, dark) = (report["HEADLESS-1"]?["frames"] as? Int ?? 0, report["HEADLESS-2"]?["frames"] as? Int ?? 0)
        XCTAssertGreaterThan(first - dark, 4 * 60, "frames: HEADLESS-1 \(first), HEADLESS-2 \(dark)")
        print("power: \(canPower ? "turned off by sway" : "black, link paused"); frames HEADLESS-1 \(first), HEADLESS-2 \(dark)")
    }

    /// An output off for good is dark from the first frame, and lit again when glout stops.
    func test_anOutputTurnedOffIsOnAgainWhenGloutStops() throws {
        let folder = Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sway = try Compositor.sway(["800x600@60", "640x480@60"])
        func power(_ name: String) throws -> Bool? { try ShowPowerTests.power(of: name, on: sway) }
        let canPower = try power("HEADLESS-2") != nil
        let show = folder.appendingPathComponent("dark.json").path
        try ##"""
            {"outputs": {"*": {"zones": [{"items": [{"color": "#ff0000", "seconds": 600}]},
                                         {"rect": {"height": 20}, "items": [{"color": "#ffffff", "seconds": 600}]}]},
                         "HEADLESS-2": {"zones": [{"items": [{"color": "#00ff00", "seconds": 600}]}], "off": [{}]}}}
            """##.write(toFile: show, atomically: true, encoding: .utf8)
        let glout = try sway.glout(["run", "--show", show, "--duration", "120"])
        try sway.waitForGlout(on: ["HEADLESS-1"], frozen: false)
        if canPower {
            try waitUntil("sway says HEADLESS-2 is off; glout:\n\(glout.stderr)") { try power("HEADLESS-2") == false }
            XCTAssertTrue(glout.stderr.contains("output HEADLESS-2: off for good"), glout.stderr)
        } else {
            try waitUntil("glout says it cannot turn HEADLESS-2 off:\n\(glout.stderr)") {
                glout.stderr.contains("output HEADLESS-2: cannot turn it off")
            }
        }
        XCTAssertTrue(near(try sway.screenshot("HEADLESS-1").pixel(300, 200), 255, 0, 0))
        if !canPower { XCTAssertTrue(near(try sway.screenshot("HEADLESS-2").pixel(300, 200), 0, 0, 0)) }
        glout.signal(SIGTERM)
        let finished = glout.wait()
        XCTAssertEqual(finished.status, 0, finished.stderr)
        if canPower {
            try waitUntil("sway says HEADLESS-2 is on after glout stopped") { try power("HEADLESS-2") == true }
        }
    }

    /// Whether sway says the output is on: sway 1.10 reports "power" for each output; 1.7,
    /// which cannot power headless ones, only "dpms" (nil).
    private static func power(of name: String, on sway: Compositor) throws -> Bool? {
        let outputs = try JSONSerialization.jsonObject(with: Data(try sway.swaymsg("-t", "get_outputs").utf8)) as? [[String: Any]]
        return outputs?.first { $0["name"] as? String == name }?["power"] as? Bool
    }

    private func near(_ p: (r: Int, g: Int, b: Int), _ r: Int, _ g: Int, _ b: Int, within: Int = 4) -> Bool {
        abs(p.r - r) <= within && abs(p.g - g) <= within && abs(p.b - b) <= within
    }
}
