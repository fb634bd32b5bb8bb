import Foundation
import XCTest

/// On llvmpipe glout's frames go through wl_shm buffers of its own, and a frame copies and
/// damages only what it changed (SharedMemoryFrames, SceneRenderer.changedRegions): the
/// compositor then uploads and recomposes only those regions. What it shows must still be
/// the whole, current picture: a region left out would leave old pixels on screen.
final class DamageTests: IntegrationTestCase {
    func test_framesDamageOnlyWhatMovedAndLeaveNoTrailOnScreen() throws {
        let sway = try Compositor.sway(["800x600@60", "800x600@60"])
        let glout = try sway.glout(["run", "--duration", "120"], extra: ["WAYLAND_DEBUG": "client"])
        defer {
            glout.signal(SIGTERM)
            XCTAssertEqual(glout.wait().status, 0, String(glout.stderr.suffix(4000)))
        }
        try sway.waitForGlout(on: ["HEADLESS-1", "HEADLESS-2"], frozen: false)
        // Moving parts, each caught several times: one pacing bar on the content view's
        // strip (12 pixels, two where it wraps) and one dial hand on the control view. A
        // region copied or damaged too little would leave earlier bars and hands standing.
        // And they move: the screen is not a frame that stopped.
        var bars = Set<Int>(), hands = Set<[Int]>()
        for _ in 0..<6 {
            let content = try sway.screenshot("HEADLESS-2"), control = try sway.screenshot("HEADLESS-1")
            for row in [545, 570, 595] {
                let white = (0..<content.width).filter { content.pixel($0, row) == (255, 255, 255) }
                XCTAssertTrue(white.count >= 1 && white.count <= 26,
                              "row \(row) of the strip has \(white.count) white columns, not one bar")
                if row == 570, let first = white.first { bars.insert(first) }
            }
            var columns = [Int](repeating: 0, count: 400)
            var hand = 0
            for y in 50..<560 {
                for x in 0..<400 {
                    let (r, g, b) = control.pixel(x, y)
                    if r > 200 && g > 100 && g < 180 && b < 90 {
                        hand += 1
                        columns[x] += 1
                    }
                }
            }
            XCTAssertTrue(hand > 300 && hand < 2500, "the dial shows \(hand) pixels of the hand's colour, not one hand")
            hands.insert(columns)
        }
        XCTAssertGreaterThanOrEqual(bars.count, 3, "the pacing bar stood at \(bars.sorted()) in six screenshots")
        XCTAssertGreaterThanOrEqual(hands.count, 3, "the hand stood still in six screenshots")
        // What went to the compositor: after the first frames, regions, not whole buffers.
        let damages = glout.stderr.split(separator: "\n").filter { $0.contains(".damage_buffer(") }
        let whole = damages.filter { $0.contains(".damage_buffer(0, 0, 800, 600)") }.count
        XCTAssertGreaterThan(damages.count, 100, "glout sent no damage")
        XCTAssertLessThan(Double(whole), 0.1 * Double(damages.count),
                          "\(whole) of \(damages.count) damage requests are the whole buffer")
    }
}
