import Foundation
import XCTest

/// The dashboard's text as it reaches the screen: for a frozen frame, the glyph runs the
/// text layout made (GLOUT_DASHBOARD_RUNS) are checked against grim's capture.
final class DashboardTests: IntegrationTestCase {
    /// The dashboard's text at scale 1, at scale 2 on 1920x1080 (where a tile's mode line
    /// once ran into the tile's edge) and on a portrait output: every tile's text inside
    /// its tile, the key bindings inside the picture, each run's ink on the screen.
    func test_theTextStaysInsideItsTilesAtScale1And2AndInPortrait() throws {
        let cases: [(modes: [String], scale: Int, transform: String?)] = [
            (["1280x720@60", "800x600@30"], 1, nil), (["1920x1080@60", "1280x720@60"], 2, nil),
            (["1280x720@60", "800x600@30"], 1, "90"),
        ]
        for (modes, scale, transform) in cases {
            let sway = try Compositor.sway(modes, scale: scale)
            if let transform { _ = try sway.swaymsg("output", "HEADLESS-1", "transform", transform) }
            let what = "\(modes[0]) at scale \(scale)" + (transform.map { ", turned \($0)" } ?? "")
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
            var tile: TextRun?
            var inTiles = 0
            for run in runs {
                if run.text.hasPrefix("tile ") {
                    tile = run
                    continue
                }
                XCTAssertTrue(run.x >= 0 && run.y >= 0 && run.x + run.width <= picture.width && run.y + run.height <= picture.height,
                              "\(what): '\(run.text)' leaves the picture")
                if let tile {
                    inTiles += 1
                    XCTAssertTrue(run.x >= tile.x && run.x + run.width <= tile.x + tile.width
                                  && run.y >= tile.y && run.y + run.height <= tile.y + tile.height,
                                  "\(what): '\(run.text)' (\(run.x)+\(run.width)) leaves \(tile.text) (\(tile.x)+\(tile.width))")
                }
            }
            XCTAssertEqual(inTiles, 6, "\(what): three lines in each of two tiles")
            for name in ["HEADLESS-1", "HEADLESS-2", "glout"] {
                let run = try XCTUnwrap(runs.first { $0.text == name }, "\(what): no run for \(name)")
                XCTAssertGreaterThan(run.ink, 20 * scale * scale, "\(what): \(name) has almost no ink")
                // The glyphs are as tall as 13 points of DejaVu Sans: twice as tall at scale 2.
                XCTAssertGreaterThanOrEqual(run.height, 8 * scale, "\(name): \(what)")
                let lit = run.litPixels(in: picture)
                // Pixels at least half covered by a glyph are lighter than halfway: as
                // many as the atlas's half-covered texels, give or take rounding at edges.
                XCTAssertEqual(Double(lit), Double(run.ink), accuracy: 0.12 * Double(run.ink) + 4,
                               "\(what): \(name): \(lit) light pixels for \(run.ink) inked texels")
            }
        }
    }

    /// Running, each tile's room below its text goes to the interval graph (left) and the
    /// histogram of the same intervals (right), both in the bars' light blue.
    func test_eachTileShowsItsIntervalGraphAndHistogram() throws {
        let sway = try Compositor.sway(["1920x1080@60", "1280x720@60"], scale: 2)
        let folder = Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let runsFile = folder.appendingPathComponent("runs.json")
        var environment = sway.environment
        environment["GLOUT_DASHBOARD_RUNS"] = runsFile.path
        let glout = try Child(Paths.glout, ["run", "--duration", "60"], environment: environment)
        try sway.waitForGlout(on: ["HEADLESS-1", "HEADLESS-2"], frozen: false)
        try waitUntil("the runs are written") { FileManager.default.fileExists(atPath: runsFile.path) }
        let runs = try JSONDecoder().decode([TextRun].self, from: Data(contentsOf: runsFile))
        let tiles = runs.filter { $0.text.hasPrefix("tile ") }
        XCTAssertEqual(tiles.count, 2)
        func isBar(_ p: (r: Int, g: Int, b: Int)) -> Bool { abs(p.r - 89) < 12 && abs(p.g - 191) < 12 && p.b > 240 }
        try waitUntil("two seconds of intervals in each tile's graph and histogram") {
            let picture = try sway.screenshot("HEADLESS-1")
            return tiles.allSatisfy { tile in
                // The lower half of the tile: graph on the left 70 %, histogram on the right.
                var graph = 0, histogram = 0
                for y in stride(from: tile.y + tile.height / 2, to: tile.y + tile.height, by: 2) {
                    for x in stride(from: tile.x, to: tile.x + tile.width, by: 2) where isBar(picture.pixel(x, y)) {
                        if x < tile.x + tile.width * 7 / 10 { graph += 1 } else { histogram += 1 }
                    }
                }
                return graph > 100 && histogram > 20
            }
        }
        glout.signal(SIGTERM)
        XCTAssertEqual(glout.wait().status, 0)
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
