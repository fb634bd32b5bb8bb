import Foundation
import XCTest
@testable import glout

/// --content: a PNG or a fragment shader of the user's on the screens, and a clear error
/// for a file glout cannot use.
final class ContentTests: IntegrationTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        folder = Paths.temporaryFolder()
    }

    override func tearDown() {
        if let folder { try? FileManager.default.removeItem(at: folder) }
        super.tearDown()
    }

    /// A 160x90 PNG: red on the left half, blue on the right.
    private func makeImage() throws -> String {
        var pixels: [UInt8] = []
        for _ in 0..<90 { for x in 0..<160 { pixels += x < 80 ? [255, 0, 0, 255] : [0, 0, 255, 255] } }
        let path = folder.appendingPathComponent("halves.png").path
        try Bitmap(width: 160, height: 90, pixels: pixels).writePNG(to: path)
        return path
    }

    private func isRed(_ p: (r: Int, g: Int, b: Int)) -> Bool { p.r > 240 && p.g < 15 && p.b < 15 }
    private func isBlue(_ p: (r: Int, g: Int, b: Int)) -> Bool { p.r < 15 && p.g < 15 && p.b > 240 }
    private func isBlack(_ p: (r: Int, g: Int, b: Int)) -> Bool { p.r < 8 && p.g < 8 && p.b < 8 }

    /// The image on the output named, as each scale mode fits it, and the output rests
    /// once it is drawn: a still image costs no frames.
    func test_aPNGFillsTheOutputAsTheScaleModeSaysAndStandsStill() throws {
        let sway = try Compositor.sway(["1280x720@60", "800x600@30"])
        let image = try makeImage()
        var environment = sway.environment
        environment["GLOUT_DEBUG"] = "1"
        for mode in ["fit", "fill", "stretch"] {
            let glout = try Child(Paths.glout, ["run", "--content", "HEADLESS-2=" + image, "--scale-mode", mode,
                                                "--duration", "60"], environment: environment)
            // The control view on HEADLESS-1 keeps moving: time is not frozen.
            try sway.waitForGlout(on: ["HEADLESS-1", "HEADLESS-2"], frozen: false)
            func rests() -> Int { glout.stderr.components(separatedBy: "output HEADLESS-2: idle after").count - 1 }
            try waitUntil("HEADLESS-2 comes to rest") { rests() > 0 }
            let screen = try sway.screenshot("HEADLESS-2")
            XCTAssertTrue(isRed(screen.pixel(200, 300)) && isBlue(screen.pixel(600, 300)), "\(mode): the halves")
            switch mode {
            case "fit":
                // 16:9 in 4:3: 800x450 between black bars of 75 pixels.
                XCTAssertTrue(isBlack(screen.pixel(400, 70)) && isBlack(screen.pixel(400, 530)), "fit: the bars")
                XCTAssertTrue(isRed(screen.pixel(5, 80)) && isBlue(screen.pixel(795, 519)), "fit: the picture's corners")
            case "fill":
                // 1067x600, cropped left and right: red and blue to every edge.
                XCTAssertTrue(isRed(screen.pixel(0, 0)) && isRed(screen.pixel(0, 599)), "fill: the left edge")
                XCTAssertTrue(isBlue(screen.pixel(799, 0)) && isBlue(screen.pixel(799, 599)), "fill: the right edge")
            default:
                // The halves meet in the middle of the output.
                XCTAssertTrue(isRed(screen.pixel(397, 0)) && isBlue(screen.pixel(402, 599)), "stretch: the seam")
            }
            // HEADLESS-1, not named, keeps the control view.
            XCTAssertTrue(isControlView(try sway.screenshot("HEADLESS-1")), mode)
            // While HEADLESS-1's control view shows ten new frames, the image is not drawn
            // again (the events of start-up may have woken it once or twice before):
            // judged by the other output's progress, not by the clock.
            let resting = rests()
            var seen = try sway.screenshot("HEADLESS-1"), changes = 0
            try waitUntil("HEADLESS-1 shows ten new frames") {
                let next = try sway.screenshot("HEADLESS-1")
                if next != seen { changes += 1; seen = next }
                return changes >= 10
            }
            XCTAssertEqual(rests(), resting, "\(mode): HEADLESS-2 drew its still image again")
            glout.signal(SIGTERM)
            let finished = glout.wait()
            XCTAssertEqual(finished.status, 0, finished.stderr)
        }
    }

    /// A still drawn smaller than it is shows its fine detail as the detail's mean, not as
    /// moiré: one-pixel black and white stripes, fitted at 0.36 and 0.27 of their size,
    /// come out an even grey on both outputs. Sampled from the picture alone, a few of
    /// every three or four stripes, they come out as stripes of full contrast (a standard
    /// deviation of about 72 levels).
    func test_aStillDrawnSmallerThanItIsShowsItsFineDetailAsItsMeanNotAsMoire() throws {
        let sway = try Compositor.sway(["1280x720@60", "800x600@60"])
        let (width, height) = (3000, 2000)
        let row = (0..<width).flatMap { x -> [UInt8] in x.isMultiple(of: 2) ? [0, 0, 0, 255] : [255, 255, 255, 255] }
        let path = folder.appendingPathComponent("stripes.png").path
        try Bitmap(width: width, height: height, pixels: Array([[UInt8]](repeating: row, count: height).joined()))
            .writePNG(to: path)
        let glout = try Child(Paths.glout, ["run", "--control", "none", "--content", path, "--duration", "60"],
                              environment: sway.environment)
        var last: [String: String] = [:]
        try waitUntil("even grey over the middle of the picture on both outputs: \(last)") {
            guard glout.isRunning else { return true }
            var even = true
            for name in ["HEADLESS-1", "HEADLESS-2"] {
                let screen = try sway.screenshot(name)
                // The middle half of the fitted picture (3:2, as wide as the output's height allows).
                let (w, h) = (min(screen.width, screen.height * 3 / 2), min(screen.height, screen.width * 2 / 3))
                let (x0, y0) = ((screen.width - w) / 2 + w / 4, (screen.height - h) / 2 + h / 4)
                var values: [Double] = []
                for y in stride(from: y0, to: y0 + h / 2, by: 3) {
                    for x in x0..<x0 + w / 2 {
                        let p = screen.pixel(x, y)
                        values += [Double(p.r), Double(p.g), Double(p.b)]
                    }
                }
                let mean = values.reduce(0, +) / Double(values.count)
                let deviation = (values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count)).squareRoot()
                last[name] = String(format: "mean %.1f, standard deviation %.1f", mean, deviation)
                even = even && abs(mean - 127.5) <= 4 && deviation <= 4
            }
            return even
        }
        XCTAssertTrue(glout.isRunning, glout.stderr)
        glout.signal(SIGTERM)
        XCTAssertEqual(glout.wait().status, 0, glout.stderr)
    }

    /// A fragment shader with glout's inputs draws on every output with --control none,
    /// from the same scene time as glout's own views.
    func test_aFragmentShaderDrawsWithGloutsInputsOnEveryOutput() throws {
        let sway = try Compositor.sway(["1280x720@60", "800x600@30"])
        let shader = folder.appendingPathComponent("halves.frag").path
        try """
            #version 300 es
            precision highp float;
            #include "frame.glsl"
            #include "canvas.glsl"
            out vec4 fragColor;
            void main() {
                float left = canvasPixel().x < u_canvas.z * 0.5 ? 1.0 : 0.0;
                fragColor = vec4(left, fract(u_timing.x), 1.0 - left, 1.0);
            }
            """.write(toFile: shader, atomically: true, encoding: .utf8)
        let glout = try sway.glout(["run", "--content", shader, "--control", "none", "--frozen", "0.5", "--duration", "60"])
        try sway.waitForGlout(on: ["HEADLESS-1", "HEADLESS-2"])
        for (name, width, height) in [("HEADLESS-1", 1280, 720), ("HEADLESS-2", 800, 600)] {
            let screen = try sway.screenshot(name)
            let left = screen.pixel(width / 4, height / 2), right = screen.pixel(width * 3 / 4, height / 2)
            XCTAssertTrue(left.r == 255 && abs(left.g - 128) <= 1 && left.b == 0, "\(name): left \(left)")
            XCTAssertTrue(right.r == 0 && abs(right.g - 128) <= 1 && right.b == 255, "\(name): right \(right)")
        }
        glout.signal(SIGTERM)
        XCTAssertEqual(glout.wait().status, 0)
    }

    /// A missing file, a file that is not a PNG and a shader that does not compile: exit
    /// 1, and the message names the file and the reason.
    func test_aFileGloutCannotUseEndsItWithStatus1NamingFileAndReason() throws {
        let sway = try Compositor.sway(["1280x720@60"])
        let missing = folder.appendingPathComponent("missing.png").path
        let broken = folder.appendingPathComponent("broken.png").path
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]).write(to: URL(fileURLWithPath: broken))
        let shader = folder.appendingPathComponent("wrong.frag").path
        try "#version 300 es\nprecision highp float;\nout vec4 fragColor;\nvoid main() { fragColor = nothing; }\n"
            .write(toFile: shader, atomically: true, encoding: .utf8)
        let cases = [(missing, "--content \(missing): cannot read the file (No such file or directory)"),
                     (broken, "--content \(broken): not a PNG glout can read (libpng:"),
                     (shader, "shader \(shader) failed to compile at \(shader):4")]
        for (file, message) in cases {
            let finished = try sway.glout(["run", "--content", file, "--duration", "5"]).wait()
            XCTAssertEqual(finished.status, 1, finished.stderr)
            XCTAssertTrue(finished.stderr.contains(message), "\(file): \(finished.stderr)")
        }
    }
}
