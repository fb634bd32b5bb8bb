import XCTest
@testable import WaylandOutputs

/// The display link's pacing decisions, driven by hand-made callback times.
final class DisplayLinkTimingTests: XCTestCase {
    let ms: UInt64 = 1_000_000

    func test_drawsFirstThenWaitsForEachCallback() {
        var link = DisplayLinkTiming(modePeriod: 16 * ms)
        XCTAssertEqual(link.next(now: 0), .draw, "the first frame needs no callback")
        let first = link.startFrame(now: 0)
        XCTAssertEqual(first.index, 0)
        XCTAssertEqual(first.duration, .milliseconds(16))
        XCTAssertEqual(link.next(now: 5 * ms), .wait(until: link.stallTimeout))
        link.callbackArrived(now: 16 * ms, time: 16)
        XCTAssertEqual(link.next(now: 16 * ms), .draw)
        let second = link.startFrame(now: 17 * ms)
        XCTAssertEqual(second.timestamp.nanoseconds, 16 * ms, "the frame is stamped with its callback")
        XCTAssertEqual(second.targetTimestamp.nanoseconds, 32 * ms)
        XCTAssertEqual(link.callbacks, 1)
    }

    func test_frameIntervalTwoCommitsJustAfterTheSkippedRefresh() {
        var link = DisplayLinkTiming(modePeriod: 16 * ms)
        link.settings = DisplayLinkSettings(frameInterval: 2)
        _ = link.startFrame(now: 0)
        link.callbackArrived(now: 16 * ms, time: 16)
        // Commit after refresh 32 ms (plus 2 ms), so the callback comes with refresh 48.
        XCTAssertEqual(link.next(now: 17 * ms), .wait(until: 34 * ms))
        XCTAssertEqual(link.next(now: 34 * ms), .draw)
        let frame = link.startFrame(now: 34 * ms)
        XCTAssertEqual(frame.targetTimestamp.nanoseconds, 48 * ms)
    }

    func test_preferredFramesPerSecondPicksTheClosestRate() {
        var link = DisplayLinkTiming(modePeriod: 1_000_000_000 / 60)
        for (preferred, interval) in [(60.0, 1), (30, 2), (24, 3), (144, 1), (20, 3), (59.9, 1), (0.5, 120)] {
            link.settings = DisplayLinkSettings(preferredFramesPerSecond: preferred)
            XCTAssertEqual(link.effectiveInterval, interval, "\(preferred) fps on 60 Hz")
        }
    }

    func test_aPausedLinkDrawsNothingUntilResumed() {
        var link = DisplayLinkTiming(modePeriod: 16 * ms)
        _ = link.startFrame(now: 0)
        link.callbackArrived(now: 16 * ms, time: 16)
        link.settings.isPaused = true
        XCTAssertEqual(link.next(now: 17 * ms), .wait(until: nil))
        link.settings.isPaused = false
        XCTAssertEqual(link.next(now: 500 * ms), .draw)
    }

    func test_missingCallbacksSuspendTheLinkAfterABoundedWaitAndTheNextOneResumesIt() {
        var link = DisplayLinkTiming(modePeriod: 16 * ms)
        _ = link.startFrame(now: 0)
        link.callbackArrived(now: 16 * ms, time: 16)
        _ = link.startFrame(now: 16 * ms)
        link.callbackArrived(now: 1016 * ms, time: 1016)
        _ = link.startFrame(now: 1016 * ms)
        XCTAssertEqual(link.stallTimeout, 250 * ms, "8 periods is less than the floor of 250 ms")
        XCTAssertEqual(link.next(now: 1100 * ms), .wait(until: 1266 * ms))
        XCTAssertFalse(link.isSuspended)
        XCTAssertEqual(link.next(now: 1266 * ms), .wait(until: nil))
        XCTAssertTrue(link.isSuspended)
        XCTAssertEqual(link.suspensions, 1)
        XCTAssertTrue(link.callbackArrived(now: 3000 * ms, time: 3000), "the callback ends the suspension")
        XCTAssertFalse(link.isSuspended)
        XCTAssertEqual(link.next(now: 3000 * ms), .draw)
    }

    func test_aSurfacesFirstSecondOfCallbacksIsWaitedForASecondEachAndTheRestAQuarter() {
        var link = DisplayLinkTiming(modePeriod: 16 * ms)
        link.surfaceStarted()
        XCTAssertEqual(link.next(now: 0), .draw)
        _ = link.startFrame(now: 0)
        XCTAssertEqual(link.stallTimeout, 1000 * ms)
        XCTAssertEqual(link.next(now: 300 * ms), .wait(until: 1000 * ms))
        XCTAssertFalse(link.isSuspended, "a first callback 300 ms late is no stall")
        link.callbackArrived(now: 600 * ms, time: 600)
        _ = link.startFrame(now: 600 * ms)
        // Within a second of its first callback: a cold start on two cores may still hold
        // the compositor up that long (sway 1.10, eight outputs).
        XCTAssertEqual(link.next(now: 601 * ms), .wait(until: 1600 * ms), "still starting up")
        link.callbackArrived(now: 1600 * ms, time: 1600)
        _ = link.startFrame(now: 1600 * ms)
        XCTAssertEqual(link.next(now: 1601 * ms), .wait(until: 1850 * ms), "started up")
        // A new surface (after the compositor stopped showing the old one) waits a second again.
        link.surfaceReplaced()
        link.surfaceStarted()
        _ = link.startFrame(now: 1900 * ms)
        XCTAssertEqual(link.next(now: 1901 * ms), .wait(until: 2900 * ms))
        XCTAssertEqual(link.suspensions, 0)
    }

    func test_aSurfaceMadeAgainAfterAStallEndsTheSuspensionAndItsOwnStallCountsAgain() {
        var link = DisplayLinkTiming(modePeriod: 16 * ms)
        _ = link.startFrame(now: 0)
        XCTAssertEqual(link.next(now: 1000 * ms), .wait(until: nil))
        XCTAssertTrue(link.isSuspended)
        link.surfaceReplaced()
        XCTAssertFalse(link.isSuspended, "the old surface's suspension went with it")
        link.surfaceStarted()
        XCTAssertEqual(link.next(now: 1010 * ms), .draw, "the new surface's first frame")
        _ = link.startFrame(now: 1010 * ms)
        XCTAssertEqual(link.next(now: 1050 * ms), .wait(until: 2010 * ms))
        XCTAssertEqual(link.next(now: 2010 * ms), .wait(until: nil))
        XCTAssertTrue(link.isSuspended, "the new surface's own stall")
        XCTAssertEqual(link.suspensions, 2)
    }

    func test_theWaitForACallbackCountsFromTheCommitNotFromTheStartOfALongFrame() {
        var link = DisplayLinkTiming(modePeriod: 16 * ms)
        _ = link.startFrame(now: 0)
        // A first frame that compiled its shaders cold: 600 ms from its start to its commit.
        link.committed(start: 0, commit: 600 * ms)
        XCTAssertEqual(link.next(now: 601 * ms), .wait(until: 1600 * ms))
        XCTAssertFalse(link.isSuspended, "the compositor has had the frame for 1 ms")
        XCTAssertEqual(link.next(now: 1600 * ms), .wait(until: nil))
        XCTAssertTrue(link.isSuspended, "a second after the first frame's commit without a callback")
        // Later frames: slow ones too count from their commit, a second while the surface
        // starts up (the first second after its first callback), then a quarter.
        link.callbackArrived(now: 1700 * ms, time: 1700)
        _ = link.startFrame(now: 1700 * ms)
        link.committed(start: 1700 * ms, commit: 2100 * ms)
        XCTAssertEqual(link.next(now: 2101 * ms), .wait(until: 3100 * ms))
        link.callbackArrived(now: 2800 * ms, time: 2800)
        _ = link.startFrame(now: 2800 * ms)
        link.committed(start: 2800 * ms, commit: 3200 * ms)
        XCTAssertEqual(link.next(now: 3201 * ms), .wait(until: 3450 * ms))
    }

    func test_theDurationComesFromPresentationThenTheModeThenMeasurement() {
        var unknown = DisplayLinkTiming(modePeriod: nil)
        XCTAssertEqual(unknown.duration, 16_666_667, "60 Hz until anything is known")
        var now: UInt64 = 0
        _ = unknown.startFrame(now: now)
        for _ in 0..<6 {
            now += 20 * ms
            unknown.callbackArrived(now: now, time: UInt32(now / ms))
            _ = unknown.startFrame(now: now)
        }
        XCTAssertEqual(unknown.duration, 20 * ms, "measured from the callbacks")
        unknown.modePeriod = 25 * ms
        XCTAssertEqual(unknown.duration, 25 * ms, "the mode wins over measurement")
        unknown.presented(time: now, refresh: 16_666_666, sequence: 0, started: nil, committed: nil)
        XCTAssertEqual(unknown.duration, 16_666_666, "presentation feedback wins over the mode")
    }

    func test_aRedrawRequestDrawsAtOnceEvenWhileACallbackIsPending() {
        var link = DisplayLinkTiming(modePeriod: 16 * ms)
        _ = link.startFrame(now: 0)
        link.requestRedraw()
        XCTAssertEqual(link.next(now: 3 * ms), .draw)
        let frame = link.startFrame(now: 3 * ms)
        XCTAssertEqual(frame.timestamp.nanoseconds, 3 * ms, "a forced frame is stamped with its start")
    }

    func test_anIdleLinkWaitsForARedrawWithoutCountingASuspension() {
        var timing = DisplayLinkTiming(modePeriod: 16_666_667)
        XCTAssertEqual(timing.next(now: 0), .draw)
        _ = timing.startFrame(now: 0)
        timing.becomeIdle()
        // The last frame's callback never comes: an idle link does not wait for it.
        XCTAssertEqual(timing.next(now: 10_000_000_000), .wait(until: nil))
        XCTAssertFalse(timing.isSuspended)
        timing.callbackArrived(now: 16_000_000, time: 16)
        XCTAssertEqual(timing.next(now: 20_000_000_000), .wait(until: nil), "a callback does not end the rest")
        timing.requestRedraw()
        XCTAssertFalse(timing.isIdle)
        XCTAssertEqual(timing.next(now: 20_000_000_001), .draw)
    }
}
