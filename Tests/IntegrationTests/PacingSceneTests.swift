import Foundation
import XCTest
@testable import glout

/// --scene pacing on the screen: the cell, the squares and the bar where the scene time
/// puts them, and the flash.
final class PacingSceneScreenTests: IntegrationTestCase {
    private func isWhite(_ p: (r: Int, g: Int, b: Int)) -> Bool { p.r > 245 && p.g > 245 && p.b > 245 }

    /// Frozen at 0.5 s on a 60 Hz output: refresh 30 lights cell 30 of 60, each row's
    /// square is 0.5 s times its speed along, and the bar is at frame 30.
    func test_atAFrozenTimeEveryPartIsWhereThatTimePutsIt() throws {
        let sway = try Compositor.sway(["1280x720@60"])
        let glout = try sway.glout(["run", "--scene", "pacing", "--frozen", "0.5", "--duration", "60"])
        try sway.waitForGlout(on: ["HEADLESS-1"])
        let screen = try sway.screenshot("HEADLESS-1")
        glout.signal(SIGTERM)
        XCTAssertEqual(glout.wait().status, 0)
        let layout = PacingLayout.make(width: 1280, height: 720, pixelsPerPoint: 1, cells: 60)
        let cellWidth = Double(layout.strip.width) / 60
        let lit = (0..<60).filter { cell in
            isWhite(screen.pixel(Int(layout.strip.x) + Int((Double(cell) + 0.5) * cellWidth), Int(layout.strip.y + layout.strip.height / 2)))
        }
        XCTAssertEqual(lit, [30])
        for (row, speed) in PacingLayout.speeds.enumerated() {
            let size = layout.objectSize
            let x = (0.5 * Double(speed)).truncatingRemainder(dividingBy: 1280 + size) - size
            let y = layout.rowsTop + Double(row) * layout.band + layout.band / 2
            XCTAssertTrue(isWhite(screen.pixel(Int(x + size / 2), Int(y))), "\(speed) px/s: no square at \(x + size / 2)")
            XCTAssertFalse(isWhite(screen.pixel(Int(x + size * 1.5) % 1280, Int(y))), "\(speed) px/s: the square is too wide")
        }
        // Frame 30 of 8 points: the bar's right edge at 240, 12 points wide.
        let barY = Int(layout.bar.y + layout.bar.height / 2)
        XCTAssertTrue(isWhite(screen.pixel(229, barY)) && isWhite(screen.pixel(239, barY)))
        XCTAssertFalse(isWhite(screen.pixel(226, barY)) || isWhite(screen.pixel(241, barY)))
    }

    /// With a flash every 2 refreshes on a 30 Hz output, half the frames are white: among
    /// screenshots taken at random moments, some are and some are not.
    func test_theFlashComesOnEveryNthRefresh() throws {
        let sway = try Compositor.sway(["800x600@30"])
        let glout = try sway.glout(["run", "--scene", "pacing", "--flash-every", "2", "--duration", "60"])
        try sway.waitForGlout(on: ["HEADLESS-1"], frozen: false)
        var white = 0, other = 0
        try waitUntil("white and other frames captured") {
            let screen = try sway.screenshot("HEADLESS-1")
            if isWhite(screen.pixel(400, 540)) && isWhite(screen.pixel(10, 10)) { white += 1 } else { other += 1 }
            return white > 0 && other > 0
        }
        glout.signal(SIGTERM)
        XCTAssertEqual(glout.wait().status, 0)
    }
}
