import Foundation
import XCTest

/// The programs in Examples/, which use WaylandOutputs alone, run on headless sway.
final class ExamplesTests: IntegrationTestCase {
    func test_solidColoursPaintsEachOutputOneColourAndEndsOnSIGTERM() throws {
        let sway = try Compositor.sway(["1280x720@60", "800x600@30"])
        let program = try Child(Paths.example("SolidColours"), [], environment: sway.environment)
        var pictures: [Image] = []
        try waitUntil("each output one colour, not black, and not the same colour") {
            pictures = try ["HEADLESS-1", "HEADLESS-2"].map { try sway.screenshot($0) }
            return pictures.allSatisfy { $0.isUniform && $0.meanBrightness > 40 }
                && pictures[0].pixel(0, 0) != pictures[1].pixel(0, 0)
        }
        XCTAssertEqual(try sway.views().filter { $0.appID == "org.example.SolidColours" && $0.fullscreen }.count, 2)
        program.signal(SIGTERM)
        XCTAssertEqual(program.wait().status, 0, program.stderr)
    }

    func test_outputClockLightsOneCellPerRowAndEachOutputRunsAtItsOwnRate() throws {
        let sway = try Compositor.sway(["1280x720@60", "800x600@30"])
        let program = try Child(Paths.example("OutputClock"), ["4"], environment: sway.environment)
        /// Lit cells along the middle of the top or the bottom half.
        func litCells(_ picture: Image, top: Bool) -> Int {
            let y = top ? picture.height / 4 : picture.height * 3 / 4
            var cells = 0, inside = false
            for x in 0..<picture.width {
                let lit = picture.pixel(x, y).r + picture.pixel(x, y).g + picture.pixel(x, y).b > 300
                if lit && !inside { cells += 1 }
                inside = lit
            }
            return cells
        }
        try waitUntil("one lit cell in each row of each output") {
            try ["HEADLESS-1", "HEADLESS-2"].allSatisfy { name in
                let picture = try sway.screenshot(name)
                return litCells(picture, top: true) == 1 && litCells(picture, top: false) == 1
            }
        }
        let finished = program.wait(timeout: 4 + Timing.patience)
        XCTAssertEqual(finished.status, 0, finished.stderr)
        // "HEADLESS-1: 250 frames, 62.5 frames/s (60.0 Hz)"
        let rates = Dictionary(uniqueKeysWithValues: finished.stdout.split(separator: "\n").compactMap { line -> (String, Double)? in
            let parts = line.split(separator: " ")
            guard parts.count > 4, let rate = Double(parts[3]) else { return nil }
            return (String(parts[0].dropLast()), rate)
        })
        XCTAssertEqual(Set(rates.keys), ["HEADLESS-1", "HEADLESS-2"], finished.stdout)
        XCTAssertGreaterThan(rates["HEADLESS-1"] ?? 0, 1.6 * (rates["HEADLESS-2"] ?? .infinity),
                             "each output at its own rate: \(finished.stdout)")
    }
}
