import Foundation
import XCTest

/// Keys typed with wtype (wlr virtual keyboard) and a pointer driven through the wlr
/// virtual-pointer protocol, judged from what reaches each output.
final class InputTests: IntegrationTestCase {

    /// Starts glout on `sway` with debug logging and waits until it has drawn on
    /// `outputs` and its keyboard has the keymap: from then on no key is lost. (Make the
    /// virtual keyboard first, so that glout binds it at start-up.)
    func startGlout(_ sway: Compositor, _ arguments: [String], on outputs: [String], frozen: Bool = true) throws -> Child {
        var environment = sway.environment
        environment["GLOUT_DEBUG"] = "1"
        let glout = try Child(Paths.glout, arguments, environment: environment)
        try sway.waitForGlout(on: outputs, frozen: frozen)
        try waitUntil("glout's keyboard has its keymap") { glout.stderr.contains("keyboard: keymap of") }
        return glout
    }

    func socket(of sway: Compositor) -> String { sway.folder + "/" + sway.environment["WAYLAND_DISPLAY"]! }

    func test_keysSwitchLayoutColourAndPrimaryAndQuit() throws {
        let sway = try Compositor.sway(["1280x720@60", "800x600@30"])
        let keyboard = try VirtualKeyboard(socket: socket(of: sway))
        let glout = try startGlout(sway, ["run", "--frozen", "1", "--duration", "120"], on: ["HEADLESS-1", "HEADLESS-2"])
        let start = (try sway.screenshot("HEADLESS-1"), try sway.screenshot("HEADLESS-2"))
        XCTAssertFalse(isControlView(start.1))

        // m: mirror, both outputs show the control view, letterboxed; m again: back.
        keyboard.type(.m)
        try waitUntil("m mirrors: HEADLESS-2 shows the control view between black bars") {
            let two = try sway.screenshot("HEADLESS-2")
            return isControlView(two) && two.isBlack(x: 0, y: 0, width: 800, height: 70)
        }
        XCTAssertTrue(glout.stderr.contains("layout: mirror"), glout.stderr)
        // m again: span, HEADLESS-2 shows its part of the canvas (the primary keeps the
        // control view), exactly as snapshot draws it; m a third time: back.
        let parts = Paths.temporaryFolder().appendingPathComponent("span")
        defer { try? FileManager.default.removeItem(at: parts.deletingLastPathComponent()) }
        let snapshot = try sway.glout(["snapshot", "--layout", "span", "--frozen", "1", "--out", parts.path]).wait()
        XCTAssertEqual(snapshot.status, 0, snapshot.stderr)
        let png = parts.appendingPathComponent("HEADLESS-2.png").path, ppm = png + ".ppm"
        XCTAssertEqual(try Child("/usr/bin/convert", [png, "-alpha", "off", ppm]).wait().status, 0)
        let part = try Image(ppm: Data(contentsOf: URL(fileURLWithPath: ppm)))
        keyboard.type(.m)
        try waitUntil("m twice spans: HEADLESS-2 shows its part") { try sway.screenshot("HEADLESS-2") == part }
        XCTAssertTrue(isControlView(try sway.screenshot("HEADLESS-1")), "the primary keeps the control view")
        XCTAssertTrue(glout.stderr.contains("layout: span"), glout.stderr)
        keyboard.type(.m)
        try waitUntil("m three times comes back to the first picture") { try sway.screenshot("HEADLESS-2") == start.1 }

        // space: the secondary's content changes colour, the primary stays as it was.
        keyboard.type(.space)
        try waitUntil("space recolours the secondary") {
            try sway.screenshot("HEADLESS-2").scaled(width: 40, height: 30)
                .meanDifference(to: start.1.scaled(width: 40, height: 30)) > 1
        }
        let primary = try sway.screenshot("HEADLESS-1")
        XCTAssertTrue(primary == start.0, "space changed the primary")

        // Tab: the control view moves to HEADLESS-2.
        keyboard.type(.tab)
        try waitUntil("Tab moves the control view to HEADLESS-2") {
            let (one, two) = (try sway.screenshot("HEADLESS-1"), try sway.screenshot("HEADLESS-2"))
            return isControlView(two) && !isControlView(one)
        }
        XCTAssertTrue(glout.stderr.contains("output HEADLESS-2 is now the primary"), glout.stderr)

        // q: exit 0 within a second of the key.
        keyboard.type(.q)
        let typed = Date()
        let finished = glout.wait()
        XCTAssertEqual(finished.status, 0, finished.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(typed), Timing.promise(1))
    }

    func test_freezeStopsTheAnimationAndEscQuits() throws {
        let sway = try Compositor.sway(["800x600@60"])
        let keyboard = try VirtualKeyboard(socket: socket(of: sway))
        let glout = try startGlout(sway, ["run", "--outputs", "HEADLESS-1", "--duration", "120"], on: ["HEADLESS-1"],
                                   frozen: false)
        /// Two captures a moment apart.
        func stillFor(_ seconds: Double) throws -> Bool {
            let before = try sway.screenshot("HEADLESS-1")
            usleep(UInt32(seconds * 1e6))
            return try sway.screenshot("HEADLESS-1") == before
        }
        XCTAssertFalse(try stillFor(0.3), "the picture does not move")
        keyboard.type(.f)
        try waitUntil("f freezes the picture") { try stillFor(0.3) }
        let frozen = try sway.screenshot("HEADLESS-1")
        keyboard.type(.f)
        try waitUntil("f again lets it move") { try sway.screenshot("HEADLESS-1") != frozen }
        keyboard.type(.escape)
        XCTAssertEqual(glout.wait().status, 0)
    }

    func test_thePointerLeavesItsMarkerOnTheOutputItIsOver() throws {
        let sway = try Compositor.sway(["1280x720@60", "800x600@30"])
        // The pointer exists before glout, which binds it at start-up.
        let pointer = try VirtualPointer(socket: socket(of: sway), layoutWidth: 2080, layoutHeight: 720)
        let glout = try sway.glout(["run", "--frozen", "1", "--duration", "120"])
        try sway.waitForGlout(on: ["HEADLESS-1", "HEADLESS-2"])
        // The pointer starts somewhere: park it in a corner of HEADLESS-1 and take the
        // pictures without a marker where the test looks.
        pointer.move(toX: 2, y: 2)
        let empty = (x: 380, y: 280, width: 40, height: 40), corner = (x: 180, y: 630, width: 40, height: 40)
        var before = (try sway.screenshot("HEADLESS-1"), try sway.screenshot("HEADLESS-2"))
        try waitUntil("the pictures settle with the pointer parked") {
            let now = (try sway.screenshot("HEADLESS-1"), try sway.screenshot("HEADLESS-2"))
            defer { before = now }
            return now.0 == before.0 && now.1 == before.1
        }
        func region(_ image: Image, _ r: (x: Int, y: Int, width: Int, height: Int)) -> Image {
            image.cropped(x: r.x, y: r.y, width: r.width, height: r.height)
        }

        // Over HEADLESS-2 at (1680, 300) in the layout: (400, 300) on that output.
        pointer.move(toX: 1680, y: 300)
        try waitUntil("a marker on HEADLESS-2 at (400, 300)") {
            region(try sway.screenshot("HEADLESS-2"), empty) != region(before.1, empty)
        }
        let two = try sway.screenshot("HEADLESS-2")
        XCTAssertTrue(two.cropped(x: 0, y: 0, width: 300, height: 200) == before.1.cropped(x: 0, y: 0, width: 300, height: 200),
                      "the picture changed away from the pointer")
        XCTAssertTrue(region(try sway.screenshot("HEADLESS-1"), corner) == region(before.0, corner),
                      "a marker showed on HEADLESS-1")

        // Over HEADLESS-1 at (200, 650): its marker moves there and leaves HEADLESS-2.
        pointer.move(toX: 200, y: 650)
        try waitUntil("the marker leaves HEADLESS-2") { try sway.screenshot("HEADLESS-2") == before.1 }
        try waitUntil("a marker on HEADLESS-1 at (200, 650)") {
            region(try sway.screenshot("HEADLESS-1"), corner) != region(before.0, corner)
        }
        glout.signal(SIGTERM)
        XCTAssertEqual(glout.wait().status, 0)
    }
}
