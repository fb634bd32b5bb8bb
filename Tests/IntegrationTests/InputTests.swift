import Foundation
import XCTest

/// Keys typed with wtype (wlr virtual keyboard) and a pointer driven through the wlr
/// virtual-pointer protocol, judged from what reaches each output.
final class InputTests: IntegrationTestCase {
    /// Types keys into the focused glout window. wtype's keyboard exists only while it
    /// runs; the pause before typing lets glout bind the new keyboard first.
    func type(_ sway: Compositor, _ arguments: [String]) throws {
        _ = try sway.tool("wtype", ["-s", "300"] + arguments)
        usleep(400_000)
    }

    func isControlView(_ picture: Image) -> Bool { picture.meanBrightness < 70 }

    /// Waits up to 3 s for `condition`; fails the test if it never holds.
    func eventually(_ what: String, file: StaticString = #filePath, line: UInt = #line,
                    _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(3)
        while Date() < deadline {
            if try condition() { return }
            usleep(100_000)
        }
        XCTFail("not within 3 s: \(what)", file: file, line: line)
    }

    func test_keysSwitchLayoutColourAndPrimaryAndQuit() throws {
        let sway = try Compositor.sway(["1280x720@60", "800x600@30"])
        let glout = try sway.glout(["run", "--frozen", "1", "--duration", "120"])
        try sway.waitForGlout(on: ["HEADLESS-1", "HEADLESS-2"])
        let start = (try sway.screenshot("HEADLESS-1"), try sway.screenshot("HEADLESS-2"))
        XCTAssertFalse(isControlView(start.1))

        // m: mirror, both outputs show the control view; m again: back.
        try type(sway, ["m"])
        XCTAssertTrue(glout.stderr.contains("layout: mirror"), glout.stderr)
        XCTAssertTrue(isControlView(try sway.screenshot("HEADLESS-2")), "m did not mirror")
        XCTAssertTrue(try sway.screenshot("HEADLESS-2").isBlack(x: 0, y: 0, width: 800, height: 70), "no letterbox")
        try type(sway, ["m"])
        XCTAssertTrue(try sway.screenshot("HEADLESS-2") == start.1, "m twice did not come back")

        // space: the secondary's content changes colour, the primary stays as it was.
        try type(sway, [" "])
        let recoloured = (try sway.screenshot("HEADLESS-1"), try sway.screenshot("HEADLESS-2"))
        XCTAssertTrue(recoloured.0 == start.0, "space changed the primary")
        XCTAssertGreaterThan(recoloured.1.scaled(width: 40, height: 30).meanDifference(to: start.1.scaled(width: 40, height: 30)), 1,
                             "space did not change the secondary")

        // Tab: the control view moves to HEADLESS-2.
        try type(sway, ["-k", "Tab"])
        XCTAssertTrue(isControlView(try sway.screenshot("HEADLESS-2")), "Tab did not move the control view")
        XCTAssertFalse(isControlView(try sway.screenshot("HEADLESS-1")))
        XCTAssertTrue(glout.stderr.contains("output HEADLESS-2 is now the primary"), glout.stderr)

        // q: exit 0 within a second of the key.
        _ = try sway.tool("wtype", ["-s", "300", "q"])
        let typed = Date()
        let finished = glout.wait(timeout: 5)
        XCTAssertEqual(finished.status, 0, finished.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(typed), 1)
    }

    func test_freezeStopsTheAnimationAndEscQuits() throws {
        let sway = try Compositor.sway(["800x600@60"])
        let glout = try sway.glout(["run", "--outputs", "HEADLESS-1", "--duration", "120"])
        try sway.waitForGlout(on: ["HEADLESS-1"], frozen: false)
        try type(sway, ["f"])
        let a = try sway.screenshot("HEADLESS-1")
        usleep(300_000)
        XCTAssertTrue(try sway.screenshot("HEADLESS-1") == a, "f did not freeze")
        try type(sway, ["f"])
        usleep(300_000)
        XCTAssertFalse(try sway.screenshot("HEADLESS-1") == a, "f again did not unfreeze")
        _ = try sway.tool("wtype", ["-s", "300", "-k", "Escape"])
        XCTAssertEqual(glout.wait(timeout: 5).status, 0)
    }

    func test_thePointerLeavesItsMarkerOnTheOutputItIsOver() throws {
        let sway = try Compositor.sway(["1280x720@60", "800x600@30"])
        let glout = try sway.glout(["run", "--frozen", "1", "--duration", "120"])
        try sway.waitForGlout(on: ["HEADLESS-1", "HEADLESS-2"])
        let before = (try sway.screenshot("HEADLESS-1"), try sway.screenshot("HEADLESS-2"))
        let socket = sway.folder + "/" + sway.environment["WAYLAND_DISPLAY"]!
        let pointer = try VirtualPointer(socket: socket, layoutWidth: 2080, layoutHeight: 720)

        // Over HEADLESS-2 at (1680, 300) in the layout: (400, 300) on that output.
        pointer.move(toX: 1680, y: 300)
        let region = (x: 380, y: 280, width: 40, height: 40)
        try eventually("a marker on HEADLESS-2") {
            try sway.screenshot("HEADLESS-2").cropped(x: region.x, y: region.y, width: region.width, height: region.height)
                != before.1.cropped(x: region.x, y: region.y, width: region.width, height: region.height)
        }
        var one = try sway.screenshot("HEADLESS-1"), two = try sway.screenshot("HEADLESS-2")
        XCTAssertTrue(one == before.0, "the marker showed on HEADLESS-1")
        XCTAssertFalse(two.cropped(x: region.x, y: region.y, width: region.width, height: region.height)
            == before.1.cropped(x: region.x, y: region.y, width: region.width, height: region.height), "no marker at (400, 300)")
        XCTAssertTrue(two.cropped(x: 0, y: 0, width: 300, height: 200) == before.1.cropped(x: 0, y: 0, width: 300, height: 200),
                      "the picture changed away from the pointer")

        // Over HEADLESS-1 at (200, 650): its marker moves there and leaves HEADLESS-2.
        pointer.move(toX: 200, y: 650)
        try eventually("the marker leaves HEADLESS-2") { try sway.screenshot("HEADLESS-2") == before.1 }
        one = try sway.screenshot("HEADLESS-1")
        two = try sway.screenshot("HEADLESS-2")
        XCTAssertTrue(two == before.1, "the marker stayed on HEADLESS-2")
        XCTAssertFalse(one.cropped(x: 180, y: 630, width: 40, height: 40) == before.0.cropped(x: 180, y: 630, width: 40, height: 40),
                       "no marker on HEADLESS-1")
        glout.signal(SIGTERM)
        XCTAssertEqual(glout.wait(timeout: 5).status, 0)
    }
}
