import Foundation
import XCTest

/// A picture that stands still costs nothing: glout draws no frame and asks for no frame
/// callback until something changes, and draws again at once when it does.
final class IdleTests: IntegrationTestCase {
    func test_aStillPictureCommitsNothingUntilAKeyChangesIt() throws {
        let sway = try Compositor.sway(["1280x720@60", "800x600@30"])
        let keyboard = try VirtualKeyboard(socket: sway.folder + "/" + sway.environment["WAYLAND_DISPLAY"]!)
        let folder = Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stats = folder.appendingPathComponent("stats.json").path
        var environment = sway.environment
        environment["GLOUT_DEBUG"] = "1"
        let glout = try Child(Paths.glout, ["run", "--frozen", "1", "--no-live", "--duration", "120", "--stats-json", stats],
                              environment: environment)
        try sway.waitForGlout(on: ["HEADLESS-1", "HEADLESS-2"])
        try waitUntil("glout's keyboard has its keymap") { glout.stderr.contains("keyboard: keymap of") }
        // Every frame drawn while the picture stands still ends with this line.
        func rests(_ output: String) -> Int { glout.stderr.components(separatedBy: "output \(output): idle after").count - 1 }
        try waitUntil("both outputs come to rest") { rests("HEADLESS-1") > 0 && rests("HEADLESS-2") > 0 }
        let before = (rests("HEADLESS-1"), rests("HEADLESS-2"))
        let still = try sway.screenshot("HEADLESS-2")
        // At least two seconds of looking, and at least twenty captures of each output
        // (each makes sway paint that output): nothing is drawn in them, and every
        // capture is the still picture. Counted captures, so a slow machine looks longer.
        let started = Date()
        var captures = 0
        try waitUntil("two seconds and twenty captures of each output") {
            XCTAssertTrue(try sway.screenshot("HEADLESS-2") == still, "HEADLESS-2 changed while it stood still")
            _ = try sway.screenshot("HEADLESS-1")
            captures += 1
            return captures >= 20 && Date().timeIntervalSince(started) >= 2
        }
        XCTAssertEqual(rests("HEADLESS-1"), before.0, "HEADLESS-1 drew while its picture stood still")
        XCTAssertEqual(rests("HEADLESS-2"), before.1, "HEADLESS-2 drew while its picture stood still")

        // space gives the content a new colour: HEADLESS-2 draws it, then rests again.
        keyboard.type(.space)
        try waitUntil("space wakes HEADLESS-2 with its new colour") {
            try sway.screenshot("HEADLESS-2") != still && rests("HEADLESS-2") > before.1
        }
        keyboard.type(.q)
        let finished = glout.wait()
        XCTAssertEqual(finished.status, 0, finished.stderr)
        // Every frame committed is one that came to rest: none in between.
        for (name, entry) in outputsByName(try readJSON(stats)) {
            let frames = try XCTUnwrap(entry["frames"] as? Int)
            let lines = finished.stderr.split(separator: "\n").filter { $0.contains("output \(name): idle after") }
            let last = try XCTUnwrap(lines.last.flatMap { Int($0.split(separator: " ").dropLast().last ?? "") })
            XCTAssertEqual(frames, last, "\(name): frames committed besides those that came to rest")
            XCTAssertLessThan(frames, 20, name)
        }
    }

    func test_thePointerWakesOnlyTheOutputItMovesOn() throws {
        let sway = try Compositor.sway(["1280x720@60", "800x600@30"])
        let pointer = try VirtualPointer(socket: sway.folder + "/" + sway.environment["WAYLAND_DISPLAY"]!,
                                         layoutWidth: 2080, layoutHeight: 720)
        // On HEADLESS-2 before glout starts: HEADLESS-1 never has the pointer's marker.
        pointer.move(toX: 1680, y: 300)
        var environment = sway.environment
        environment["GLOUT_DEBUG"] = "1"
        let glout = try Child(Paths.glout, ["run", "--frozen", "1", "--no-live", "--duration", "120"], environment: environment)
        try sway.waitForGlout(on: ["HEADLESS-1", "HEADLESS-2"])
        func rests(_ output: String) -> Int { glout.stderr.components(separatedBy: "output \(output): idle after").count - 1 }
        try waitUntil("both outputs come to rest") { rests("HEADLESS-1") > 0 && rests("HEADLESS-2") > 0 }
        // Start-up's last events (sway's configure, the surface entering its output) may
        // still wake HEADLESS-1 once: wait until it has stayed at rest over five captures.
        try waitUntil("HEADLESS-1 stays at rest") {
            let rested = rests("HEADLESS-1")
            for _ in 0..<5 { _ = try sway.screenshot("HEADLESS-1") }
            return rests("HEADLESS-1") == rested
        }
        let before = (rests("HEADLESS-1"), rests("HEADLESS-2"))
        // Across HEADLESS-2: it draws the marker where it goes; HEADLESS-1 draws nothing.
        for step in 1...5 {
            pointer.move(toX: 1680 + UInt32(step) * 20, y: 300 + UInt32(step) * 10)
            try waitUntil("HEADLESS-2 draws the marker's move \(step)") { rests("HEADLESS-2") >= before.1 + step }
        }
        XCTAssertEqual(rests("HEADLESS-1"), before.0, "HEADLESS-1 drew for a pointer moving on HEADLESS-2")
        // Onto HEADLESS-1: both draw (the marker leaves one and comes to the other).
        let moved = rests("HEADLESS-2")
        pointer.move(toX: 200, y: 300)
        try waitUntil("the marker moves from HEADLESS-2 to HEADLESS-1") {
            rests("HEADLESS-1") > before.0 && rests("HEADLESS-2") > moved
        }
        glout.signal(SIGTERM)
        let finished = glout.wait()
        XCTAssertEqual(finished.status, 0, finished.stderr)
    }
}
