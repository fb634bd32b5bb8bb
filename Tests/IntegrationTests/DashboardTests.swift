import Foundation
import XCTest

/// The dashboard's text as it reaches the screen: for a frozen frame, the glyph runs the
/// text layout made (GLOUT_DASHBOARD_RUNS) are checked against grim's capture.
final class DashboardTests: IntegrationTestCase {
    func test_theOutputNamesAppearOnThePrimaryAtScale1And2() throws {
        for scale in [1, 2] {
            let sway = try Compositor.sway(["1280x720@60", "800x600@30"], scale: scale)
            let folder = Paths.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let runsFile = folder.appendingPathComponent("runs.json")
            var environment = sway.environment
            environment["GLOUT_DASHBOARD_RUNS"] = runsFile.path
            let glout = try Child(Paths.glout, ["run", "--frozen", "1", "--duration", "60"], environment: environment)
            try sway.waitForGlout(on: ["HEADLESS-1", "HEADLESS-2"])
            let picture = try sway.screenshot("HEADLESS-1")
            glout.signal(SIGTERM)
            XCTAssertEqual(glout.wait().status, 0)
            let runs = try JSONDecoder().decode([TextRun].self, from: Data(contentsOf: runsFile))
            for name in ["HEADLESS-1", "HEADLESS-2", "glout"] {
                let run = try XCTUnwrap(runs.first { $0.text == name }, "scale \(scale): no run for \(name)")
                XCTAssertGreaterThan(run.ink, 20 * scale * scale, "scale \(scale): \(name) has almost no ink")
                // The glyphs are as tall as 13 points of DejaVu Sans: twice as tall at scale 2.
                XCTAssertGreaterThanOrEqual(run.height, 8 * scale, "\(name) at scale \(scale)")
                let lit = run.litPixels(in: picture)
                // Pixels at least half covered by a glyph are lighter than halfway: as
                // many as the atlas's half-covered texels, give or take rounding at edges.
                XCTAssertEqual(Double(lit), Double(run.ink), accuracy: 0.12 * Double(run.ink) + 4,
                               "scale \(scale): \(name): \(lit) light pixels for \(run.ink) inked texels")
            }
        }
    }
}

/// A run of text glout laid out (GLOUT_DASHBOARD_RUNS, GLOUT_LABEL_RUNS).
struct TextRun: Decodable {
    var text: String
    var x: Int, y: Int, width: Int, height: Int
    /// The atlas texels of its glyphs covered at least half.
    var ink: Int

    /// How many pixels of the run's rectangle in `picture` are lighter than halfway
    /// between its surroundings (the median of a frame around it) and the text colour:
    /// light text on a darker ground.
    func litPixels(in picture: Image, textLuminance: Int = 237) -> Int {
        let border = (x - 2..<x + width + 2).flatMap { column in [y - 3, y + height + 2].map { (column, $0) } }
        let background = border.map { luminance(picture.pixel($0.0, $0.1)) }.sorted()[border.count / 2]
        let threshold = (background + textLuminance) / 2
        var lit = 0
        for row in y..<(y + height) {
            for column in x..<(x + width) where luminance(picture.pixel(column, row)) > threshold { lit += 1 }
        }
        return lit
    }
}

/// Perceived brightness, 0 to 255.
func luminance(_ p: (r: Int, g: Int, b: Int)) -> Int { (p.r * 299 + p.g * 587 + p.b * 114) / 1000 }
