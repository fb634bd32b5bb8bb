import Foundation
import XCTest

/// Eight outputs on two cores: more than the machine can draw at full rate with llvmpipe
/// (Debian 12's Mesa takes GL calls in turns, Debian 13's runs them at once). Each output
/// must still get a share of the frames in proportion to its rate: none starves.
final class FairShareTests: IntegrationTestCase {
    func test_eightOutputsEachGetAtLeastHalfTheFramesOfTheFastest() throws {
        let names = (1...8).map { "HEADLESS-\($0)" }
        let sway = try Compositor.sway(Array(repeating: "800x600@60", count: 8))
        let folder = Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = folder.appendingPathComponent("bench.json").path
        let finished = try sway.glout(["bench", "--duration", "5", "--json", json]).wait(timeout: 60 + Timing.patience)
        XCTAssertEqual(finished.status, 0, finished.stderr)
        XCTAssertTrue(finished.stdout.contains("shares: every output got"), finished.stdout)
        let outputs = outputsByName(try readJSON(json))
        XCTAssertEqual(Set(outputs.keys), Set(names))
        func number(_ name: String, _ key: String) -> Double { (outputs[name]?[key] as? NSNumber)?.doubleValue ?? .nan }
        let fastest = names.map { number($0, "fps") }.max() ?? 0
        XCTAssertGreaterThan(fastest, 1, finished.stdout)
        for name in names {
            XCTAssertEqual(number(name, "share_asked_pct"), 12.5, accuracy: 0.1, name)
            XCTAssertGreaterThanOrEqual(number(name, "fps"), fastest / 2, "\(name) starved:\n\(finished.stdout)")
            XCTAssertGreaterThanOrEqual(number(name, "share_got_pct"), 12.5 / 2, "\(name):\n\(finished.stdout)")
        }
    }
}
