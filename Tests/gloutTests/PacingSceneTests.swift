import XCTest
import WaylandOutputs
@testable import glout

/// --scene pacing's pure parts: its layout, and the refresh count that lights the strip.
final class PacingSceneTests: XCTestCase {
    func test_everyPartLiesInsideThePictureLandscapePortraitAndSmall() {
        for (width, height, ppp) in [(1280, 720, 1.0), (1920, 1080, 2.0), (720, 1280, 1.0), (320, 200, 1.0)] {
            let layout = PacingLayout.make(width: Int32(width), height: Int32(height), pixelsPerPoint: ppp, cells: 60)
            let picture = Rect(x: 0, y: 0, width: Int32(width), height: Int32(height))
            XCTAssertEqual(layout.strip.union(picture), picture, "\(width)x\(height): the strip")
            XCTAssertEqual(layout.bar.union(picture), picture, "\(width)x\(height): the bar")
            XCTAssertLessThanOrEqual(layout.rowsTop + 4 * layout.band, Double(height), "\(width)x\(height): the rows")
            XCTAssertGreaterThan(layout.strip.maxY, layout.strip.y)
            // The rows lie between the strip and the bar.
            XCTAssertLessThanOrEqual(Double(layout.strip.maxY), layout.rowsTop)
            XCTAssertLessThanOrEqual(layout.rowsTop + 4 * layout.band, Double(layout.bar.y))
            XCTAssertGreaterThanOrEqual(layout.textSize, 9)
        }
    }

    func test_theCounterAdvancesOneARefreshTwoOverASkippedOneAndFlashesAtMultiples() {
        var counter = RefreshCounter()
        let period: UInt64 = 16_666_667
        var target: UInt64 = 5_000_000_000
        XCTAssertTrue(counter.advance(target: target, period: period, flashEvery: 3) == (0, false))
        var seen: [(Int64, Bool)] = []
        // Targets a few milliseconds off the grid still count one refresh each.
        for jitter in [2_000_000, -3_000_000, 1_000_000] as [Int64] {
            target = UInt64(Int64(target) + Int64(period) + jitter)
            seen.append(counter.advance(target: target, period: period, flashEvery: 3))
        }
        XCTAssertTrue(seen.map(\.0) == [1, 2, 3], "\(seen)")
        XCTAssertTrue(seen.map(\.1) == [false, false, true], "\(seen)")
        // A skipped refresh: the next frame's target is two periods on.
        target += 2 * period
        XCTAssertTrue(counter.advance(target: target, period: period, flashEvery: 3) == (5, false))
        // Two skipped, over a multiple of 3: it still flashes.
        target += 2 * period
        XCTAssertTrue(counter.advance(target: target, period: period, flashEvery: 3) == (7, true))
        // The same target again (a redraw) is the same refresh, and no flash.
        XCTAssertTrue(counter.advance(target: target, period: period, flashEvery: 3) == (7, false))
        XCTAssertFalse(counter.advance(target: target + period * 2, period: period, flashEvery: 0).flash)
    }
}
