import Foundation
import XCTest
@testable import glout

/// A show's span zones: on one machine across its outputs, and across two machines of a
/// wall (two sways, one glout each, the wall file merged from both): each output shows
/// its part of every span zone, over its own zones, lined up as one.
final class ShowSpanZoneTests: IntegrationTestCase {
    private func near(_ p: (r: Int, g: Int, b: Int), _ r: Int, _ g: Int, _ b: Int, within: Int = 4) -> Bool {
        abs(p.r - r) <= within && abs(p.g - g) <= within && abs(p.b - b) <= within
    }

    /// Blue outputs, a red band over the middle half of the canvas, a wide white label
    /// across the band's middle.
    private func show(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("span.json").path
        try ##"""
            {"outputs": {"*": {"zones": [{"name": "own", "items": [{"color": "#0000ff", "seconds": 600}]},
                                         {"name": "strip", "rect": {"height": 20}, "items": [{"color": "#ffffff", "seconds": 600}]}]}},
             "span": {"zones": [
               {"name": "band", "rect": {"x": "25%", "y": 200, "width": "50%", "height": 100},
                "items": [{"text": "IIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIII", "size": 60, "foreground": "#ffffff", "background": "#ff0000",
                           "seconds": 600}]}]}}
            """##.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Checks one output's part of the band: red from `from` to `to` (its pixels) on the
    /// band's top row, blue beside it and above, and the label's white in the band.
    private func checkBand(_ sway: Compositor, _ name: String, from: Int, to: Int, width: Int) throws {
        let screen = try sway.screenshot(name)
        XCTAssertEqual(screen.width, width)
        for x in stride(from: 0, to: width, by: 20) {
            let inside = x >= from + 2 && x < to - 2, outside = x < from - 2 || x >= to + 2
            let top = screen.pixel(x, 203)
            if inside { XCTAssertTrue(near(top, 255, 0, 0), "\(name) at \(x),203: \(top), the band's red expected") }
            if outside { XCTAssertTrue(near(top, 0, 0, 255), "\(name) at \(x),203: \(top), its own blue expected") }
            XCTAssertTrue(near(screen.pixel(x, 150), 0, 0, 255), "\(name) at \(x),150: above the band")
        }
        let row = (max(0, from)..<min(width, to)).map { screen.pixel($0, 250) }
        XCTAssertTrue(row.contains { near($0, 255, 255, 255) }, "\(name): no glyph of the label in its part of the band")
    }

    func test_aSpanZoneCrossesTheOutputsOfOneMachine() throws {
        let folder = Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sway = try Compositor.sway(["800x600@60", "640x480@60"])
        let glout = try sway.glout(["run", "--show", try show(in: folder), "--frozen", "1800000000", "--duration", "120"])
        try sway.waitForGlout(on: ["HEADLESS-1", "HEADLESS-2"])
        // The canvas: 1440 points wide; the band from 360 to 1080.
        try checkBand(sway, "HEADLESS-1", from: 360, to: 800, width: 800)
        try checkBand(sway, "HEADLESS-2", from: 0, to: 280, width: 640)
        glout.signal(SIGTERM)
        let finished = glout.wait()
        XCTAssertEqual(finished.status, 0, finished.stderr)
        XCTAssertTrue(finished.stderr.contains("1 on the span"), finished.stderr)
    }

    func test_aSpanZoneCrossesTheMachinesOfAWall() throws {
        let folder = Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let left = try Compositor.sway(["800x600@60"]), right = try Compositor.sway(["640x480@60"])
        var merged: [[String: Any]] = []
        for (sway, machine, shift) in [(left, "left", 0), (right, "right", 800)] {
            let run = try sway.glout(["outputs", "--wall-json", "--machine", machine]).wait()
            XCTAssertEqual(run.status, 0, run.stderr)
            let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
            for var entry in try XCTUnwrap(object?["outputs"] as? [[String: Any]]) {
                entry["x"] = (entry["x"] as! Int) + shift
                merged.append(entry)
            }
        }
        let wall = folder.appendingPathComponent("wall.json")
        try JSONSerialization.data(withJSONObject: ["outputs": merged]).write(to: wall)
        let show = try show(in: folder)
        var glouts: [Child] = []
        for (sway, machine) in [(left, "left"), (right, "right")] {
            glouts.append(try sway.glout(["run", "--show", show, "--wall", wall.path, "--machine", machine,
                                          "--frozen", "1800000000", "--duration", "120"]))
        }
        try left.waitForGlout(on: ["HEADLESS-1"])
        try right.waitForGlout(on: ["HEADLESS-1"])
        try checkBand(left, "HEADLESS-1", from: 360, to: 800, width: 800)
        try checkBand(right, "HEADLESS-1", from: 0, to: 280, width: 640)
        for glout in glouts {
            glout.signal(SIGTERM)
            let finished = glout.wait()
            XCTAssertEqual(finished.status, 0, finished.stderr)
        }
    }
}
