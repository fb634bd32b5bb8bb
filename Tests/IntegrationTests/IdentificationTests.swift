import Foundation
import XCTest

/// Which screen is which, as a person in front of them sees it: the content view's corner
/// label, and the names in large type of --identify and the i key.
final class IdentificationTests: IntegrationTestCase {
    /// The label says which output it is, readably, at scale 1 and 2, and it is all that
    /// differs from the same picture drawn with --no-label.
    func test_theContentViewsLabelNamesTheOutputAtScale1And2() throws {
        for scale in [1, 2] {
            let sway = try Compositor.sway(["1280x720@60", "800x600@30"], scale: scale)
            let folder = Paths.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            var environment = sway.environment
            environment["GLOUT_LABEL_RUNS"] = folder.path
            var glout = try Child(Paths.glout, ["run", "--frozen", "1", "--duration", "60"], environment: environment)
            try sway.waitForGlout(on: ["HEADLESS-1", "HEADLESS-2"])
            let runsFile = folder.appendingPathComponent("HEADLESS-2.json")
            try waitUntil("the label's runs are written") { FileManager.default.fileExists(atPath: runsFile.path) }
            let labelled = try sway.screenshot("HEADLESS-2")
            glout.signal(SIGTERM)
            XCTAssertEqual(glout.wait().status, 0)
            let runs = try JSONDecoder().decode([TextRun].self, from: Data(contentsOf: runsFile))
            XCTAssertEqual(runs.map(\.text), ["HEADLESS-2", "800x600 @ 30 Hz · ×\(scale) · secondary", "independent · frame ", "60"],
                           "scale \(scale)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("HEADLESS-1.json").path),
                           "the primary shows the control view, which has no label")
            for run in runs {
                XCTAssertGreaterThanOrEqual(run.height, 6 * scale, "\(run.text) at scale \(scale)")
                XCTAssertTrue(run.x >= 0 && run.y >= 0 && run.x + run.width <= labelled.width && run.y + run.height <= labelled.height,
                              "\(run.text) leaves the picture at scale \(scale)")
                // The name and the counter are light, the details dimmer (luminance 170).
                let textLuminance = run.text == "HEADLESS-2" || run.text == "60" ? 237 : 170
                XCTAssertEqual(Double(run.litPixels(in: labelled, textLuminance: textLuminance)), Double(run.ink),
                               accuracy: 0.12 * Double(run.ink) + 4,
                               "scale \(scale): \(run.text)")
            }

            glout = try Child(Paths.glout, ["run", "--frozen", "1", "--duration", "60", "--no-label"], environment: sway.environment)
            try sway.waitForGlout(on: ["HEADLESS-1", "HEADLESS-2"])
            let plain = try sway.screenshot("HEADLESS-2")
            glout.signal(SIGTERM)
            XCTAssertEqual(glout.wait().status, 0)
            // Every pixel that differs is in the label's box: its text plus the padding
            // (8 points) around it.
            let right = runs.map { $0.x + $0.width }.max()! + 8 * scale + 2
            let bottom = runs.map { $0.y + $0.height }.max()! + 8 * scale + 2
            var inside = 0, outside = 0
            for y in 0..<plain.height {
                for x in 0..<plain.width where plain.pixel(x, y) != labelled.pixel(x, y) {
                    if x < right && y < bottom { inside += 1 } else { outside += 1 }
                }
            }
            XCTAssertEqual(outside, 0, "scale \(scale): pixels outside the label changed")
            XCTAssertGreaterThan(inside, (right - runs[0].x) * (bottom - runs[0].y) / 2, "scale \(scale): the label's box is missing")
        }
    }

    /// i shows the names across every screen and wakes a still picture to do it; i again
    /// takes them away, and the picture comes back to rest as it was. --identify shows them
    /// for five seconds from the start.
    func test_identifyShowsEachOutputsNameInLargeTypeAndGoesAway() throws {
        let sway = try Compositor.sway(["1280x720@60", "800x600@30"])
        let keyboard = try VirtualKeyboard(socket: sway.folder + "/" + sway.environment["WAYLAND_DISPLAY"]!)
        var environment = sway.environment
        environment["GLOUT_DEBUG"] = "1"
        let glout = try Child(Paths.glout, ["run", "--frozen", "1", "--no-live", "--duration", "120"], environment: environment)
        try sway.waitForGlout(on: ["HEADLESS-1", "HEADLESS-2"])
        try waitUntil("glout's keyboard has its keymap") { glout.stderr.contains("keyboard: keymap of") }
        func rests(_ output: String) -> Int { glout.stderr.components(separatedBy: "output \(output): idle after").count - 1 }
        try waitUntil("both outputs come to rest") { rests("HEADLESS-1") > 0 && rests("HEADLESS-2") > 0 }
        let still = try ["HEADLESS-1", "HEADLESS-2"].map { try sway.screenshot($0) }

        keyboard.type(.i)
        for (index, name) in ["HEADLESS-1", "HEADLESS-2"].enumerated() {
            try waitUntil("\(name) shows its name across the screen") { try IdentificationTests.showsBand(sway.screenshot(name)) }
            XCTAssertFalse(IdentificationTests.showsBand(still[index]), "\(name) had a band before i")
        }
        let resting = (rests("HEADLESS-1"), rests("HEADLESS-2"))
        keyboard.type(.i)
        for (index, name) in ["HEADLESS-1", "HEADLESS-2"].enumerated() {
            try waitUntil("\(name) is as it was before i") { try sway.screenshot(name) == still[index] }
        }
        try waitUntil("both outputs rest again") { rests("HEADLESS-1") > resting.0 && rests("HEADLESS-2") > resting.1 }
        keyboard.type(.q)
        XCTAssertEqual(glout.wait().status, 0)

        let started = Date()
        let identify = try Child(Paths.glout, ["run", "--frozen", "1", "--duration", "60", "--identify"], environment: sway.environment)
        try sway.waitForGlout(on: ["HEADLESS-1", "HEADLESS-2"])
        let shown = try sway.screenshot("HEADLESS-2")
        // Unless the machine took five seconds to get here, the names still show.
        if Date().timeIntervalSince(started) < 4 { XCTAssertTrue(IdentificationTests.showsBand(shown)) }
        try waitUntil("the names go away by themselves") { try sway.screenshot("HEADLESS-2") == still[1] }
        identify.signal(SIGTERM)
        XCTAssertEqual(identify.wait().status, 0)
    }

    /// Whether the middle of the picture is a dark band with large light text on it: the
    /// rows around the centre are mostly dark, and a fair share of them is light.
    static func showsBand(_ picture: Image) -> Bool {
        var dark = 0, light = 0, all = 0
        for y in stride(from: picture.height * 9 / 20, to: picture.height * 11 / 20, by: 2) {
            for x in stride(from: 0, to: picture.width, by: 2) {
                let value = luminance(picture.pixel(x, y))
                if value < 70 { dark += 1 } else if value > 200 { light += 1 }
                all += 1
            }
        }
        return dark * 2 > all && light * 20 > all
    }
}
