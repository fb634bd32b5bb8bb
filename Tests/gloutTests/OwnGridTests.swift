import XCTest
import WaylandOutputs
@testable import glout

/// The compositor's own grid: presented times against a line fitted to them afterwards,
/// on sequences whose jitter and targets are known.
final class OwnGridTests: XCTestCase {
    /// Frames presented at `presented` (ms), each targeted at `targets` (ms) where given.
    func frames(presented: [Double], targets: [Double?]? = nil, sequences: [UInt64]? = nil) -> [FrameSample] {
        presented.enumerated().map { index, ms in
            let at = MonotonicInstant(nanoseconds: UInt64(ms * 1e6))
            var sample = FrameSample(index: UInt64(index), renderStart: at, commit: at)
            sample.presented = at
            sample.presentedSequence = sequences?[index]
            if let target = targets?[index] { sample.target = MonotonicInstant(nanoseconds: UInt64(target * 1e6)) }
            return sample
        }
    }

    func test_aSteadyGridIsExactAndTargetsOnItAreToo() throws {
        let times = (0..<200).map { 1000 + Double($0) * 16.666667 }
        let grid = try XCTUnwrap(OwnGrid(frames(presented: times, targets: times), period: 16_666_667))
        XCTAssertEqual(grid.frames, 200)
        XCTAssertEqual(grid.presented_off_ms.p99, 0, accuracy: 1e-3)
        XCTAssertEqual(try XCTUnwrap(grid.target_off_ms).p99, 0, accuracy: 1e-3)
    }

    /// A presentation 2 ms late every tenth refresh: the grid stays where the others are,
    /// so the late ones are off it by about 2 ms, and targets on the refresh are not.
    func test_latePresentationsAreOffTheGridAndTargetsAtTheRefreshAreNot() throws {
        let refreshes = (0..<300).map { 1000 + Double($0) * 16.666667 }
        let presented = refreshes.enumerated().map { $0.offset % 10 == 5 ? $0.element + 2 : $0.element }
        let grid = try XCTUnwrap(OwnGrid(frames(presented: presented, targets: refreshes), period: 16_666_667))
        XCTAssertEqual(grid.presented_off_ms.max, 2, accuracy: 0.25)
        XCTAssertLessThan(grid.presented_off_ms.p50, 0.25)
        let targets = try XCTUnwrap(grid.target_off_ms)
        XCTAssertLessThan(targets.p99, 0.25)
        XCTAssertEqual(targets.p50, -0.2, accuracy: 0.05, "the line sits at the mean, 0.2 ms after the refreshes")
    }

    /// weston's headless output presents every 18.2 ms of a reported 16.7: the grid is the
    /// compositor's own period, not the one it said, so a steady run is on it.
    func test_aPeriodOfItsOwnIsFollowed() throws {
        let times = (0..<200).map { Double($0) * 18.2 }
        let grid = try XCTUnwrap(OwnGrid(frames(presented: times), period: 16_666_667))
        XCTAssertEqual(grid.presented_off_ms.p99, 0, accuracy: 1e-3)
        XCTAssertNil(grid.target_off_ms)
    }

    /// A refresh the compositor skipped counts as two (by sequence where it gives one, by
    /// time where not); a target a whole refresh early is a period off the grid.
    func test_skippedRefreshesCountAndATargetARefreshOffIsAPeriodOff() throws {
        var times = (0..<100).map { Double($0) * 16.666667 }
        times = times.enumerated().filter { $0.offset != 40 }.map(\.element)
        var targets: [Double?] = times
        targets[70] = times[70] - 16.666667
        let byTime = try XCTUnwrap(OwnGrid(frames(presented: times, targets: targets), period: 16_666_667))
        XCTAssertEqual(byTime.presented_off_ms.max, 0, accuracy: 1e-3)
        XCTAssertEqual(try XCTUnwrap(byTime.target_off_ms).max, 16.67, accuracy: 0.01)
        let sequences = (0..<100).map { UInt64(500 + $0) }.enumerated().filter { $0.offset != 40 }.map(\.element)
        let bySequence = try XCTUnwrap(OwnGrid(frames(presented: times, sequences: sequences), period: 16_666_667))
        XCTAssertEqual(bySequence.presented_off_ms.max, 0, accuracy: 1e-3)
    }

    func test_tooFewFramesOrNoPeriodGiveNothing() {
        XCTAssertNil(OwnGrid(frames(presented: [0, 16, 33]), period: 16_666_667))
        XCTAssertNil(OwnGrid(frames(presented: (0..<20).map { Double($0) * 16 }), period: 0))
    }
}
