import Foundation
import XCTest
@testable import glout

/// Render sizes, mode switching, overscan, safe areas, rotation and snapshots on headless
/// sway (and phoc, for real mode switches), judged from grim's captures.
final class GeometryTests: IntegrationTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        folder = Paths.temporaryFolder()
    }

    override func tearDown() {
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    /// Runs glout with `arguments` (frozen) on `sway` and returns the capture of `output`.
    func picture(_ sway: Compositor, _ arguments: [String], output: String = "HEADLESS-1") throws -> Image {
        let glout = try sway.glout(["run", "--frozen", "1", "--duration", "60"] + arguments)
        defer {
            glout.signal(SIGTERM)
            XCTAssertEqual(glout.wait().status, 0, glout.stderr)
        }
        try sway.waitForGlout(on: [output])
        return try sway.screenshot(output)
    }

    func columnIsBlack(_ image: Image, _ x: Int) -> Bool { image.isBlack(x: x, y: 0, width: 1, height: image.height) }
    func rowIsBlack(_ image: Image, _ y: Int) -> Bool { image.isBlack(x: 0, y: y, width: image.width, height: 1) }

    func test_snapshotEqualsTheScreenPixelForPixelAtScale1And2() throws {
        for scale in [1, 2] {
            let sway = try Compositor.sway(["1280x720@60", "800x600@30"], scale: scale)
            let out = folder.appendingPathComponent("scale\(scale)")
            let snapshot = try sway.glout(["snapshot", "--out", out.path, "--frozen", "1.5"]).wait()
            XCTAssertEqual(snapshot.status, 0, snapshot.stderr)
            let glout = try sway.glout(["run", "--frozen", "1.5", "--duration", "60"])
            try sway.waitForGlout(on: ["HEADLESS-1", "HEADLESS-2"])
            for name in ["HEADLESS-1", "HEADLESS-2"] {
                let screen = try sway.screenshot(name)
                let png = out.appendingPathComponent("\(name).png").path
                let ppm = out.appendingPathComponent("\(name).ppm").path
                XCTAssertEqual(try Child("/usr/bin/convert", [png, "-alpha", "off", ppm]).wait().status, 0)
                let file = try Image(ppm: Data(contentsOf: URL(fileURLWithPath: ppm)))
                XCTAssertEqual([file.width, file.height], [screen.width, screen.height], "\(name) at scale \(scale)")
                XCTAssertEqual(file.width, (name == "HEADLESS-1" ? 1280 : 800), "the output's pixels, not points")
                XCTAssertTrue(file == screen, "\(name) at scale \(scale): snapshot and screen differ")
            }
            glout.signal(SIGTERM)
            XCTAssertEqual(glout.wait().status, 0)
        }
    }

    func test_aRenderSizeIsFittedFilledOrStretchedByTheCompositor() throws {
        let sway = try Compositor.sway(["1280x720@60"])
        // 640x480 fitted to 1280x720: scaled 1.5 times to 960x720, 160 px bars each side.
        let fit = try picture(sway, ["--mode", "HEADLESS-1=640x480", "--allow-custom"])
        for x in [0, 80, 158, 1121, 1200, 1279] { XCTAssertTrue(columnIsBlack(fit, x), "fit: column \(x) is not a bar") }
        for x in [162, 640, 1117] { XCTAssertFalse(columnIsBlack(fit, x), "fit: column \(x) is not the picture") }
        XCTAssertFalse(rowIsBlack(fit, 0))
        XCTAssertFalse(rowIsBlack(fit, 719))
        // Fill: no bars, the top and bottom of the picture cropped (the band is cut down).
        let fill = try picture(sway, ["--mode", "HEADLESS-1=640x480", "--allow-custom", "--scale-mode", "fill"])
        XCTAssertFalse(columnIsBlack(fill, 0))
        XCTAssertFalse(columnIsBlack(fill, 1279))
        // Stretch: no bars, the whole picture: the band keeps its share of the height.
        let stretch = try picture(sway, ["--mode", "HEADLESS-1=640x480", "--allow-custom", "--scale-mode", "stretch"])
        XCTAssertFalse(columnIsBlack(stretch, 0))
        func bandRows(_ image: Image) -> Int {
            (0..<image.height).prefix { y in let p = image.pixel(640, y); return p.r > p.g && p.g > p.b && p.r > 90 }.count
        }
        XCTAssertEqual(Double(bandRows(stretch)), Double(bandRows(fit)), accuracy: 3, "stretch keeps the height share")
        XCTAssertLessThan(bandRows(fill), bandRows(stretch) - 20, "fill crops the top")
        // Without --allow-custom a size the output does not list is an error naming its modes.
        let refused = try sway.glout(["run", "--mode", "HEADLESS-1=640x480", "--duration", "5"]).wait()
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(refused.stderr.contains("it offers 1280x720@60.000Hz"), refused.stderr)
    }

    func test_setModeSwitchesTheOutputWhileGloutRunsAndPutsTheOriginalBack() throws {
        let phoc = try Compositor.phoc()
        /// The current mode as wlr-randr, another client, reads it from the compositor.
        func currentMode() throws -> String {
            let listing = try phoc.tool("wlr-randr", []).stdout
            let line = listing.split(separator: "\n").first { $0.contains("(current)") }
            return line.map { $0.trimmingCharacters(in: .whitespaces) } ?? "no current mode in \(listing)"
        }
        let original = Stack.current.phocStartMode
        XCTAssertEqual(try currentMode(), original)
        for ending in ["the duration", "SIGTERM"] {
            let glout = try phoc.glout(["run", "--set-mode", "HEADLESS-1=1024x768@60", "--frozen", "1",
                                        "--duration", ending == "SIGTERM" ? "600" : "\(Int(Timing.promise(15)))"])
            try waitUntil("glout draws on HEADLESS-1") { glout.stderr.contains("output HEADLESS-1: first frame") }
            XCTAssertTrue(glout.stderr.contains("mode set to 1024x768@60.000Hz"), glout.stderr)
            XCTAssertEqual(try currentMode(), "1024x768 px, 60.000000 Hz (current)", "while glout runs")
            // glout's picture covers the output at its new size: no black edge anywhere
            // (phoc shows black where no window is), once the new size has reached the screen.
            try waitUntil("glout's picture covers HEADLESS-1 at 1024x768") {
                let screen = try phoc.screenshot("HEADLESS-1")
                return screen.width == 1024 && screen.height == 768
                    && ![0, 1023].contains { columnIsBlack(screen, $0) } && ![0, 767].contains { rowIsBlack(screen, $0) }
            }
            if ending == "SIGTERM" { glout.signal(SIGTERM) }
            let finished = glout.wait()
            XCTAssertEqual(finished.status, 0, finished.stderr)
            XCTAssertTrue(finished.stderr.contains("restored the original mode of HEADLESS-1"), finished.stderr)
            XCTAssertEqual(try currentMode(), original, "after \(ending)")
        }
    }

    func test_setModeFallsBackToScalingWhereTheCompositorCannotSwitch() throws {
        // sway 1.7 describes its headless outputs to wlr-output-management as off with no
        // mode; glout must refuse to build a configuration on that (it would turn the
        // outputs off), say so, and draw at the size asked for through the viewporter.
        guard !Stack.current.swaySetsHeadlessModes else {
            throw XCTSkip("sway 1.10 switches headless modes (the matrix checks it); nothing of Debian 13's refuses them this way")
        }
        let sway = try Compositor.sway(["1280x720@60", "800x600@30"])
        let glout = try sway.glout(["run", "--set-mode", "HEADLESS-1=1024x768@60", "--frozen", "1", "--duration", "60"])
        try sway.waitForGlout(on: ["HEADLESS-1"])
        XCTAssertTrue(glout.stderr.contains("--set-mode HEADLESS-1=1024x768@60.000Hz"), glout.stderr)
        XCTAssertTrue(glout.stderr.contains("drawing at that size"), glout.stderr)
        let outputs = try sway.swaymsg("-t", "get_outputs")
        XCTAssertTrue(outputs.contains("\"active\": true"), "an output was turned off")
        // 1024x768 fitted to 1280x720: 960x720 with 160 px bars.
        let fitted = try sway.screenshot("HEADLESS-1")
        XCTAssertTrue(columnIsBlack(fitted, 100))
        XCTAssertFalse(columnIsBlack(fitted, 640))
        glout.signal(SIGTERM)
        XCTAssertEqual(glout.wait().status, 0)
    }

    func test_rotatedAndFlippedOutputsShowThePictureUpright() throws {
        for transform in ["90", "flipped-180", "270"] {
            let sway = try Compositor.sway(["1280x720@60"])
            _ = try sway.swaymsg("output", "HEADLESS-1", "transform", transform)
            let image = try picture(sway, [])
            XCTAssertEqual([image.width, image.height], transform == "flipped-180" ? [1280, 720] : [720, 1280], transform)
            // The orientation marker: the accent band along the top, the lit tile (accent)
            // left of the others, in the viewer's frame. The band is on top, not on a side.
            let top = image.pixel(image.width / 2, 4), bottom = image.pixel(image.width / 2, image.height - 4)
            XCTAssertTrue(top.r > top.g && top.g > top.b && top.r > 90, "\(transform): no band on top: \(top)")
            XCTAssertFalse(bottom.r > 90 && bottom.r > bottom.b, "\(transform): band at the bottom")
            let left = image.pixel(2, image.height / 2), right = image.pixel(image.width - 3, image.height / 2)
            XCTAssertTrue(left.b > left.r && right.b > right.r, "\(transform): the sides are panel, not band")
            // A portrait output is compact in width: dial above the tiles (stacked).
            if transform != "flipped-180" {
                let litTile = (0..<image.height).first { y in
                    let p = image.pixel(image.width / 4, y)
                    return p.r > 90 && p.r > p.g && p.g > p.b && y > image.height / 2 + image.height / 10
                }
                XCTAssertNotNil(litTile, "\(transform): the tiles are not below the middle")
            }
        }
    }

    func test_overscanAndSafeAreasMoveTheRightThings() throws {
        let sway = try Compositor.sway(["1280x720@60"])
        // scale:10: a black border of 5% on each side.
        let scaled = try picture(sway, ["--overscan", "HEADLESS-1=scale:10"])
        for x in [0, 63, 1216, 1279] { XCTAssertTrue(columnIsBlack(scaled, x), "scale: column \(x)") }
        for y in [0, 35, 684, 719] { XCTAssertTrue(rowIsBlack(scaled, y), "scale: row \(y)") }
        XCTAssertFalse(columnIsBlack(scaled, 65))
        XCTAssertFalse(rowIsBlack(scaled, 37))
        // inset: the background reaches every edge.
        let inset = try picture(sway, ["--overscan", "HEADLESS-1=inset:5"])
        for x in [0, 1279] { XCTAssertFalse(columnIsBlack(inset, x), "inset: column \(x) is black") }
        for y in [0, 719] { XCTAssertFalse(rowIsBlack(inset, y), "inset: row \(y) is black") }
        // An asymmetric safe area moves the foreground off the left edge only: the dial's
        // ring (light pixels) starts further right, the band still spans the width.
        func firstLightColumn(_ image: Image) -> Int {
            (0..<image.width).first { x in
                (200..<600).contains { y in let p = image.pixel(x, y); return p.r > 200 && p.g > 200 && p.b > 200 }
            } ?? -1
        }
        let plain = try picture(sway, [])
        let shifted = try picture(sway, ["--safe-area", "HEADLESS-1=0,0,0,300"])
        XCTAssertGreaterThan(firstLightColumn(shifted), firstLightColumn(plain) + 150)
        XCTAssertEqual(shifted.pixel(5, 10).r, plain.pixel(5, 10).r, "the band still reaches the left edge")
        XCTAssertEqual(shifted.pixel(1274, 10).r, plain.pixel(1274, 10).r, "and the right one")
    }

    /// A frozen picture is drawn whole, opaque, with every option that places it: overscan
    /// (scaled and inset), a safe area, a render size of another shape (800x600 on 16:9,
    /// whose centred viewport window once fell a third of a pixel outside its buffer, a
    /// protocol error), mirror and span. Judged on the screen (the border black, the
    /// picture there) and in what glout commits (GLOUT_DUMP_FRAMES: every pixel's alpha 255,
    /// so no compositor background shows through).
    func test_aFrozenPictureIsWholeAndOpaqueWithEveryOptionThatPlacesIt() throws {
        let sway = try Compositor.sway(["1280x720@60", "800x600@30"])
        let cases: [(String, [String], (Image) -> String?)] = [
            ("overscan scale", ["--overscan", "HEADLESS-1=scale:10"], { screen in
                for x in [0, 63, 1216, 1279] where !self.columnIsBlack(screen, x) { return "column \(x) is not border" }
                for y in [0, 35, 684, 719] where !self.rowIsBlack(screen, y) { return "row \(y) is not border" }
                return screen.isBlack(x: 64, y: 36, width: 1152, height: 648) ? "no picture inside the border" : nil
            }),
            ("overscan inset", ["--overscan", "HEADLESS-1=inset:5"], { screen in
                self.columnIsBlack(screen, 0) ? "the background does not reach the edge" : nil
            }),
            ("safe area", ["--safe-area", "HEADLESS-1=10,20,30,40", "--overscan", "HEADLESS-1=scale:4"], { screen in
                self.columnIsBlack(screen, 0) && !self.columnIsBlack(screen, 640) ? nil : "no 2% border, or no picture"
            }),
            ("800x600 fitted", ["--mode", "HEADLESS-1=800x600", "--allow-custom", "--overscan", "HEADLESS-1=scale:10"], { screen in
                // 800x600 fitted to 960x720: bars of 160 (and the overscan's own border inside).
                for x in [0, 150, 1130, 1279] where !self.columnIsBlack(screen, x) { return "column \(x) is not a bar" }
                return self.columnIsBlack(screen, 640) ? "no picture" : nil
            }),
            ("mirror", ["--layout", "mirror", "--overscan", "scale:10"], { screen in
                self.columnIsBlack(screen, 0) && !self.columnIsBlack(screen, 640) ? nil : "no border, or no picture"
            }),
            ("span", ["--layout", "span", "--control", "none", "--overscan", "scale:10"], { screen in
                screen.isUniform ? "a uniform picture" : nil
            }),
        ]
        for (name, arguments, judge) in cases {
            let dumps = folder.appendingPathComponent(name.replacingOccurrences(of: " ", with: "-"))
            try FileManager.default.createDirectory(at: dumps, withIntermediateDirectories: true)
            let glout = try sway.glout(["run", "--frozen", "1", "--duration", "60"] + arguments,
                                       extra: ["GLOUT_DUMP_FRAMES": dumps.path])
            try sway.waitForGlout(on: ["HEADLESS-1", "HEADLESS-2"])
            let screen = try sway.screenshot("HEADLESS-1")
            if let problem = judge(screen) { XCTFail("\(name): \(problem)") }
            for output in ["HEADLESS-1", "HEADLESS-2"] {
                let path = dumps.appendingPathComponent("\(output).png").path
                try waitUntil("\(name): glout writes what it commits to \(output)") { FileManager.default.fileExists(atPath: path) }
                let committed = try ContentImage(png: try FileSystem.readHeld(path, for: "dump", limit: 64 << 20), path: path)
                let clear = stride(from: 3, to: committed.pixels.count, by: 4).filter { committed.pixels[$0] != 255 }.count
                XCTAssertEqual(clear, 0, "\(name): \(output): \(clear) pixels glout commits are not opaque")
            }
            glout.signal(SIGTERM)
            let finished = glout.wait()
            XCTAssertEqual(finished.status, 0, "\(name): \(finished.stderr)")
        }
    }

    func test_theHairlineIsOneDevicePixelAtScale1And2() throws {
        for scale in [1, 2] {
            let sway = try Compositor.sway(["1280x720@60"], scale: scale)
            let image = try picture(sway, [])
            // Under the band: exactly one light row, between band-coloured and panel rows.
            let x = 900
            let light = (0..<200).filter { y in let p = image.pixel(x, y); return p.r > 200 && p.g > 200 && p.b > 200 }
            XCTAssertEqual(light.count, 1, "scale \(scale): light rows \(light)")
            if let y = light.first {
                let above = image.pixel(x, y - 1), below = image.pixel(x, y + 1)
                XCTAssertTrue(above.r > 90 && above.r > above.b, "scale \(scale): not band above the hairline: \(above)")
                XCTAssertTrue(below.b > below.r && below.b < 90, "scale \(scale): not panel below the hairline: \(below)")
            }
        }
    }
}
