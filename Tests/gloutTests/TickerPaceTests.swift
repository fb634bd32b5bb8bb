import XCTest
@testable import glout

/// The time a ticker is drawn at: the same advance every refresh, however unevenly the
/// compositor's refreshes come, and never far from the content clock.
final class TickerPaceTests: XCTestCase {
    /// Targets one refresh apart, each a little later or earlier than the period says, as
    /// headless sway's timer gives them on a busy machine: each timed from the one before,
    /// now and then late by up to half a period (8 ms at 60 Hz; later would be a refresh
    /// missed), from a fixed sequence, so that every run sees the same.
    private func wandering(period: Double, count: Int, seed: UInt64) -> [Double] {
        var state = seed
        func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        var time = 1000.0, targets: [Double] = []
        for _ in 0..<count {
            targets.append(time)
            let draw = next()
            // One in fifty up to half a period late; the rest within a quarter of a
            // millisecond either way.
            let late = draw < 0.02 ? next() * 0.48 * period : (next() - 0.5) * 0.0005
            time += period + late
        }
        return targets
    }

    func test_everyRefreshAdvancesTheSameDistanceWhereRefreshesComeUnevenly() {
        for (rate, speed) in [(60.0, 120.0), (144.0, 240.0), (60.0, 600.0)] {
            let period = 1 / rate
            let targets = wandering(period: period, count: Int(rate) * 60, seed: UInt64(rate))
            var pace = TickerPace()
            var drawn: [Double] = []
            for target in targets { drawn.append(pace.time(at: target, period: period, pixelsPerSecond: speed)) }
            // Straight from the targets, a late one moves the line up to half a period's
            // travel further than a refresh's (a pixel at 120 points a second and 60 Hz,
            // 0.8 at 240 and 144 Hz).
            let rawWorst = zip(targets, targets.dropFirst()).map { abs(($1 - $0 - period) * speed) }.max()!
            XCTAssertGreaterThan(rawWorst, 0.5, "the sequence has refreshes that straight targets judder on")
            for (a, b) in zip(drawn, drawn.dropFirst()) {
                XCTAssertEqual((b - a) * speed, period * speed, accuracy: 0.5, "\(rate) Hz, \(speed) px/s")
            }
            // Never far behind the content clock: within the latest lateness and what is
            // left of the one before (a late refresh is taken up before the next, mostly).
            let drift = zip(targets, drawn).map { abs($0 - $1) }.max()!
            XCTAssertLessThan(drift, 0.7 * period, "\(rate) Hz, \(speed) px/s")
            XCTAssertEqual(drawn.last!, targets.last!, accuracy: 0.004, "caught up again by the end")
        }
    }

    func test_aMissedRefreshMovesTheLineTwoRefreshesOn() {
        let period = 1 / 60.0
        var pace = TickerPace()
        XCTAssertEqual(pace.time(at: 10, period: period, pixelsPerSecond: 120), 10)
        XCTAssertEqual(pace.time(at: 10 + period, period: period, pixelsPerSecond: 120), 10 + period, accuracy: 1e-9)
        XCTAssertEqual(pace.time(at: 10 + 3 * period, period: period, pixelsPerSecond: 120), 10 + 3 * period, accuracy: 1e-9)
    }

    func test_aLateRefreshIsCaughtUpAFifthOfAPixelAtATime() {
        let period = 1 / 60.0, speed = 120.0
        var pace = TickerPace()
        _ = pace.time(at: 0, period: period, pixelsPerSecond: speed)
        // 6 ms late (0.72 px of travel): about a refresh's travel now, the rest over the
        // next refreshes.
        var truth = period + 0.006
        var drawn = pace.time(at: truth, period: period, pixelsPerSecond: speed)
        XCTAssertEqual(drawn * speed, period * speed, accuracy: 0.25)
        var steps = 1
        while truth != drawn {
            truth += period
            let before = drawn
            drawn = pace.time(at: truth, period: period, pixelsPerSecond: speed)
            XCTAssertEqual((drawn - before) * speed, period * speed, accuracy: 0.25)
            steps += 1
            XCTAssertLessThan(steps, 10)
        }
        XCTAssertEqual(steps, 4)
    }

    func test_aRefreshPresentedLateAndOneSoonAfterEachAdvanceAboutAsFarAsTheyCame() {
        // At 144 Hz, targets 1.7 periods and then 0.3 apart (headless sway, now and then):
        // two refreshes' travel and then one, not a refresh's and a third of one.
        let period = 1 / 144.0, speed = 120.0
        var pace = TickerPace()
        var truth = 0.0, last = pace.time(at: truth, period: period, pixelsPerSecond: speed)
        for (gap, refreshes) in [(1.0, 1.0), (1.0, 1), (1.7, 2), (0.3, 1), (1, 1), (1, 1), (1, 1)] {
            truth += gap * period
            let drawn = pace.time(at: truth, period: period, pixelsPerSecond: speed)
            XCTAssertEqual((drawn - last) * speed, refreshes * period * speed, accuracy: 0.5, "\(gap) periods on")
            last = drawn
        }
        XCTAssertEqual(last, truth, accuracy: 1e-9, "caught up")
    }

    func test_refreshesLongerThanThePeriodSaidAdvanceByTheirOwnPeriod() {
        // Weston's headless output on a slow machine: a refresh every 17.7 ms of a said
        // 16.7. A fast line keeps to the refreshes' own period, every refresh alike.
        let said = 1 / 60.0, kept = 0.0177, speed = 600.0
        var pace = TickerPace()
        var drawn: [Double] = []
        for refresh in 0..<600 { drawn.append(pace.time(at: Double(refresh) * kept, period: said, pixelsPerSecond: speed)) }
        for (a, b) in zip(drawn, drawn.dropFirst()) { XCTAssertEqual((b - a) * speed, kept * speed, accuracy: 0.5) }
        for (refresh, time) in drawn.enumerated().dropFirst(200) { XCTAssertEqual(time, Double(refresh) * kept, accuracy: 0.001) }
    }

    func test_theSameTargetIsDrawnWhereItWasAndABeginningAgainFromItsTarget() {
        let period = 1 / 60.0
        var pace = TickerPace()
        _ = pace.time(at: 5, period: period, pixelsPerSecond: 120)
        let late = pace.time(at: 5 + period + 0.005, period: period, pixelsPerSecond: 120)
        XCTAssertEqual(pace.time(at: 5 + period + 0.005, period: period, pixelsPerSecond: 120), late, "a still picture")
        // The item began again (a loop), or the clock stepped back.
        XCTAssertEqual(pace.time(at: 0.01, period: period, pixelsPerSecond: 120), 0.01)
        // Less than a quarter of a refresh on: not a refresh of this output; drawn at its
        // target.
        XCTAssertEqual(pace.time(at: 0.012, period: period, pixelsPerSecond: 120), 0.012)
    }

    func test_aTargetFarFromTheSteadyTimeIsJumpedTo() {
        // The period said is far from the refreshes' (12 ms steps against 16.7 said): the
        // pace falls behind at most two refreshes, then jumps back to the target.
        let period = 1 / 60.0
        var pace = TickerPace()
        var truth = 0.0, worst = 0.0
        for _ in 0..<200 {
            let drawn = pace.time(at: truth, period: period, pixelsPerSecond: 1200)
            worst = max(worst, abs(truth - drawn))
            truth += 0.012
        }
        XCTAssertLessThanOrEqual(worst, 2 * period)
        // Values no compositor should send draw at the target.
        for bad in [Double.nan, .infinity, -1, 0] {
            var fresh = TickerPace()
            _ = fresh.time(at: 1, period: period, pixelsPerSecond: 120)
            XCTAssertEqual(fresh.time(at: 1.02, period: bad, pixelsPerSecond: 120), 1.02)
            XCTAssertEqual(fresh.time(at: 1.04, period: period, pixelsPerSecond: bad), 1.04)
        }
    }
}
