import XCTest
@testable import WaylandOutputs

/// The refresh grid learnt from presentation times, and the targets a display link takes
/// from it, fed recorded and made-up sequences.
final class RefreshPhaseTests: XCTestCase {
    let period: UInt64 = 16_666_667
    let base: UInt64 = 1_000_000_000_000

    /// Small deterministic jitter, within ±0.3 ms.
    func jitter(_ i: Int) -> Int64 { Int64((i * 7919) % 600_000) - 300_000 }

    func test_aSteadyOutputLocksOnItsGridDespiteJitter() throws {
        var phase = RefreshPhase()
        for i in 0..<40 {
            let time = UInt64(Int64(base + UInt64(i) * period) + jitter(i))
            phase.presented(at: time, refresh: UInt64(period), sequence: 0, nominal: period)
        }
        XCTAssertTrue(phase.isLocked)
        XCTAssertEqual(phase.period, period)
        // The grid is within the jitter of the true refreshes, far and near.
        let next = try XCTUnwrap(phase.refresh(after: base + 45 * period + 1_000_000))
        XCTAssertLessThan((Int64(next) - Int64(base + 46 * period)).magnitude, 300_000)
        let earlier = try XCTUnwrap(phase.refresh(after: base + 3 * period - 1_000_000))
        XCTAssertLessThan((Int64(earlier) - Int64(base + 3 * period)).magnitude, 300_000)
    }

    func test_withoutAReportedRefreshThePeriodIsMeasuredAndFollowed() throws {
        var phase = RefreshPhase()
        let true_ = UInt64(16_700_000)
        for i in 0..<200 {
            phase.presented(at: base + UInt64(i) * true_, refresh: 0, sequence: 0, nominal: 16_666_667)
        }
        let period = try XCTUnwrap(phase.period)
        XCTAssertLessThan((Int64(period) - Int64(true_)).magnitude, 20_000, "followed to within 20 µs: \(period)")
        // With no nominal period at all (labwc, phoc), the shortest of the first intervals
        // gives it, though a start-up frame missed a refresh.
        var measured = RefreshPhase()
        var time = base
        for i in 0..<12 {
            measured.presented(at: time, refresh: 0, sequence: 0, nominal: nil)
            time += i == 1 ? 2 * 33_333_333 : 33_333_333
        }
        XCTAssertEqual(measured.period, 33_333_333)
        XCTAssertTrue(measured.isLocked)
    }

    func test_theCompositorsSequenceCountsRefreshesAcrossAGap() throws {
        var phase = RefreshPhase()
        var sequence: UInt64 = 5000
        for i in 0..<10 {
            phase.presented(at: base + UInt64(i) * period, refresh: UInt64(period), sequence: sequence, nominal: period)
            sequence += 1
        }
        // Seven refreshes without a frame, then one off by 0.2 ms.
        let after = base + 16 * period + 200_000
        phase.presented(at: after, refresh: UInt64(period), sequence: sequence + 6, nominal: period)
        XCTAssertEqual(phase.samples, 11, "taken into the grid, not seen as a jump")
    }

    /// Headless mutter 48 counts frames in its sequence, without the vsync flag: frames
    /// after gaps of three refreshes came with sequences one apart. Taken as refreshes,
    /// each read as two refreshes off the grid: three in a row were a jump, three jumps in
    /// 2 s a period of its own, measured too short, and the grid never locked again. The
    /// feedback now passes such a sequence on as none (CompositorValues.presentedSequence),
    /// and the grid counts by time.
    func test_aSequenceThatCountsFramesNotRefreshesIsIgnoredAndTheGridHolds() throws {
        var phase = RefreshPhase()
        var time = base, frames: UInt64 = 0
        for i in 0..<120 {
            // Every tenth frame comes three refreshes after the one before.
            time += (i % 10 == 9 ? 3 : 1) * period
            frames += 1
            let sequence = CompositorValues.presentedSequence(frames, flags: 0x4)
            phase.presented(at: UInt64(Int64(time) + jitter(i)), refresh: period, sequence: sequence, nominal: period)
        }
        XCTAssertTrue(phase.isLocked)
        XCTAssertFalse(phase.measuresOwnPeriod, "the gaps were taken for a period of its own")
        XCTAssertEqual(phase.period, period)
        let next = try XCTUnwrap(phase.refresh(after: time + 1_000_000))
        XCTAssertLessThan((Int64(next) - Int64(time + period)).magnitude, 300_000)
    }

    func test_aJumpOfHalfAPeriodRestartsTheGridAfterThreeFrames() throws {
        var phase = RefreshPhase()
        for i in 0..<10 { phase.presented(at: base + UInt64(i) * period, refresh: UInt64(period), sequence: 0, nominal: period) }
        let shifted = base + 10 * period + period / 2
        for i in 0..<2 {
            phase.presented(at: shifted + UInt64(i) * period, refresh: UInt64(period), sequence: 0, nominal: period)
            XCTAssertTrue(phase.isLocked, "one or two off the grid are ignored")
        }
        phase.presented(at: shifted + 2 * period, refresh: UInt64(period), sequence: 0, nominal: period)
        XCTAssertFalse(phase.isLocked, "the third starts the grid again")
        for i in 3..<6 { phase.presented(at: shifted + UInt64(i) * period, refresh: UInt64(period), sequence: 0, nominal: period) }
        XCTAssertEqual(phase.refresh(after: shifted + 7 * period - 1), shifted + 7 * period)
    }

    func test_aNewPeriodFromTheCompositorStartsAgain() {
        var phase = RefreshPhase()
        for i in 0..<10 { phase.presented(at: base + UInt64(i) * period, refresh: UInt64(period), sequence: 0, nominal: period) }
        phase.presented(at: base + 11 * period, refresh: 33_333_333, sequence: 0, nominal: period)
        XCTAssertEqual(phase.period, 33_333_333)
        XCTAssertFalse(phase.isLocked)
    }

    /// Frames that start at a refresh's callback (`phase` ns after it) and are presented
    /// `lead` refreshes after the first one following their start, committed 4 ms after it.
    func feed(_ phase: inout RefreshPhase, frames: Int, lead: UInt64, callbackAfterRefresh: UInt64) {
        for i in 0..<frames {
            let start = base + UInt64(i) * period + callbackAfterRefresh
            let presented = base + (UInt64(i) + 1 + lead) * period
            phase.presented(at: presented, refresh: UInt64(period), sequence: 0, nominal: period, started: start,
                            committed: start + 4_000_000)
        }
    }

    func test_theTargetIsTheRefreshRecentFramesWerePresentedAt() throws {
        // kwin-like: the callback comes 3 ms after a refresh, the frame is shown at the next.
        var next = RefreshPhase()
        feed(&next, frames: 20, lead: 0, callbackAfterRefresh: 3_000_000)
        let start = base + 30 * period + 3_000_000
        XCTAssertEqual(next.target(start: start, commit: start + 4_000_000), base + 31 * period)
        // sway-like: shown one refresh later than that.
        var later = RefreshPhase()
        feed(&later, frames: 20, lead: 1, callbackAfterRefresh: 1_000_000)
        let start2 = base + 30 * period + 1_000_000
        XCTAssertEqual(later.target(start: start2, commit: start2 + 4_000_000), base + 32 * period)
    }

    func test_callbacksOnEitherSideOfTheRefreshAllTargetTheNextOne() throws {
        // labwc/phoc-like: the callback comes at the refresh, a few microseconds before or
        // after the time the compositor reports, and the frame is shown at the next one.
        var phase = RefreshPhase()
        for i in 0..<24 {
            let refresh = base + UInt64(i) * period
            let start = i % 2 == 0 ? refresh - 40_000 : refresh + 40_000
            phase.presented(at: refresh + period, refresh: UInt64(period), sequence: 0, nominal: period, started: start,
                            committed: start + 3_000_000)
        }
        for (offset, name) in [(-40_000, "before"), (40_000, "after"), (-300_000, "well before"), (300_000, "well after")] {
            let refresh = base + 30 * period
            let start = UInt64(Int64(refresh) + Int64(offset))
            XCTAssertEqual(phase.target(start: start, commit: start + 3_000_000), refresh + period,
                           "a start \(name) the refresh")
        }
    }

    func test_presentationsOffAnyGridAreTargetedByTheirLatency() throws {
        // weston-like on a slow machine: a reported 16.7 ms refresh, frames presented every
        // 19 to 21 ms, each 12 ms after its start.
        var phase = RefreshPhase()
        var start = base
        for i in 0..<40 {
            phase.presented(at: start + 12_000_000, refresh: UInt64(period), sequence: 0, nominal: period, started: start,
                            committed: start + 3_000_000)
            start += 19_000_000 + UInt64(i % 3) * 1_000_000
        }
        let target = try XCTUnwrap(phase.target(start: start, commit: start + 3_000_000))
        XCTAssertLessThan((Int64(target) - Int64(start + 12_000_000)).magnitude, 500_000, "the latency, not a grid")
    }

    /// A repeatable sequence of pseudo-random numbers (31 bits each).
    static func randomNumbers(seed: UInt64) -> () -> UInt64 {
        var state = seed
        return {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 33
        }
    }

    /// Headless wlroots times each refresh from the one before: 16 ms after the last
    /// output commit, plus however late the timer and the compositing were (mostly a
    /// little, now and then 3 ms), so its refreshes wander off any grid, while a frame
    /// started at the callback (which comes with the last presentation) reaches the screen
    /// a steady time later, give or take when the callback was read. The targets follow
    /// that time: only the late refreshes themselves, which nothing could foresee, land
    /// more than 1 ms off, not the frames after them as a grid that catches up a quarter
    /// at a time would.
    func test_refreshesTimedFromTheOneBeforeAreTargetedByTheirLatency() throws {
        var phase = RefreshPhase()
        let random = RefreshPhaseTests.randomNumbers(seed: 12345)
        var presented = base
        var misses = 0, late = 0
        for i in 0..<600 {
            // The callback is read up to 1 ms after it came: the latency is off a little
            // every time.
            let start = presented + random() % 1_000_000
            let spike = random() % 25 == 0
            let next = presented + 16_300_000 + (spike ? 3_000_000 : 0)
            if i >= 300 {
                if spike { late += 1 }
                let target = try XCTUnwrap(phase.target(start: start, commit: start + 2_000_000))
                if Int64(bitPattern: next &- target).magnitude > 1_000_000 { misses += 1 }
            }
            phase.presented(at: next, refresh: 16_666_667, sequence: 0, nominal: 16_666_667, started: start,
                            committed: start + 2_000_000)
            presented = next
        }
        XCTAssertLessThanOrEqual(misses, late + 3, "\(misses) of 300 targets more than 1 ms off, \(late) refreshes late")
    }

    /// mutter's presented times scatter: now and then one comes 3 ms late and the next is
    /// back on the grid. The grid stays: the frames after a late one are targeted at the
    /// refresh, not at where the late one was.
    func test_latePresentationsThatTheNextDoNotFollowLeaveTheGrid() throws {
        var phase = RefreshPhase()
        let random = RefreshPhaseTests.randomNumbers(seed: 99)
        var misses = 0, late = 0
        for i in 0..<600 {
            let refresh = base + UInt64(i + 1) * period
            let start = refresh - period + random() % 1_000_000
            let isLate = random() % 25 == 0
            let presented = refresh + (isLate ? 3_000_000 : 0)
            if i >= 300 {
                if isLate { late += 1 }
                let target = try XCTUnwrap(phase.target(start: start, commit: start + 2_000_000))
                if Int64(bitPattern: presented &- target).magnitude > 1_000_000 { misses += 1 }
            }
            phase.presented(at: presented, refresh: period, sequence: 0, nominal: period, started: start,
                            committed: start + 2_000_000)
        }
        XCTAssertLessThanOrEqual(misses, late + 3, "\(misses) of 300 targets more than 1 ms off, \(late) presentations late")
    }

    func test_presentationsThatKeepAPeriodOfTheirOwnAreMeasuredNotTheOneSaid() throws {
        // weston's headless output on a slow machine: every 17.7 ms, a reported 16.7.
        var phase = RefreshPhase()
        let own: UInt64 = 17_700_000
        for i in 0..<120 {
            let start = base + UInt64(i) * own
            phase.presented(at: start + 15_000_000, refresh: UInt64(period), sequence: 0, nominal: period, started: start,
                            committed: start + 3_000_000)
        }
        XCTAssertTrue(phase.measuresOwnPeriod)
        let measured = try XCTUnwrap(phase.period)
        XCTAssertLessThan((Int64(measured) - Int64(own)).magnitude, 50_000, "\(measured)")
        let start = base + 120 * own
        let target = try XCTUnwrap(phase.target(start: start, commit: start + 3_000_000))
        XCTAssertLessThan((Int64(target) - Int64(start + 15_000_000)).magnitude, 300_000)
    }

    /// Whatever order and size the times come in, nothing traps: PresentationFeedback
    /// checks them first, but the grid must not depend on it.
    func test_anyTimesSequencesAndPeriodsAreTakenWithoutATrap() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state
        }
        let picks: [() -> UInt64] = [{ next() }, { next() % 3_000_000_000 }, { UInt64.max }, { 0 }, { UInt64(Int64.max) },
                                     { self.base &+ next() % 100_000_000 }]
        for round in 0..<4000 {
            var phase = RefreshPhase()
            for _ in 0..<(round % 60) {
                let pick = { picks[Int(next() % UInt64(picks.count))]() }
                phase.presented(at: pick(), refresh: pick(), sequence: pick(), nominal: next() % 2 == 0 ? nil : pick(),
                                started: next() % 2 == 0 ? nil : pick(), committed: next() % 2 == 0 ? nil : pick())
                _ = phase.target(start: pick(), commit: pick())
                _ = phase.refresh(after: pick())
            }
        }
    }

    func test_theIntervalInEffectFollowsThePreferredRate() {
        let settings = DisplayLinkSettings(preferredFramesPerSecond: 30)
        XCTAssertEqual(settings.effectiveInterval(refreshPeriod: 16_666_667), 2)
        XCTAssertEqual(settings.effectiveInterval(refreshPeriod: 33_333_333), 1)
        XCTAssertEqual(settings.effectiveInterval(refreshPeriod: 0), 1)
        XCTAssertEqual(DisplayLinkSettings(frameInterval: 3).effectiveInterval(refreshPeriod: 16_666_667), 3)
        XCTAssertEqual(DisplayLinkSettings(preferredFramesPerSecond: 1e-4).effectiveInterval(refreshPeriod: 1_000_000), 1_000_000)
        XCTAssertEqual(DisplayLinkSettings(preferredFramesPerSecond: 1e-300).effectiveInterval(refreshPeriod: 1), 1_000_000)
    }

    func test_aCommitLaterThanAnyThatMadeItsRefreshTargetsTheNextOne() throws {
        var phase = RefreshPhase()
        // Frames committed 4 ms after a callback 3 ms past the refresh: 9.7 ms before the next.
        feed(&phase, frames: 20, lead: 0, callbackAfterRefresh: 3_000_000)
        let start = base + 30 * period + 3_000_000
        // This frame is expected to take 14 ms: it cannot make the refresh 13.7 ms away.
        XCTAssertEqual(phase.target(start: start, commit: start + 14_000_000), base + 32 * period)
    }

    func test_noTargetBeforeTheGridIsLocked() {
        var phase = RefreshPhase()
        XCTAssertNil(phase.target(start: base, commit: base))
        phase.presented(at: base, refresh: UInt64(period), sequence: 0, nominal: period)
        phase.presented(at: base + period, refresh: UInt64(period), sequence: 0, nominal: period)
        XCTAssertNil(phase.target(start: base + period, commit: base + period))
    }

    func test_theDisplayLinkTargetsThePresentedRefreshAndSaysSo() {
        var link = DisplayLinkTiming(modePeriod: period)
        var now = base
        XCTAssertEqual(link.startFrame(now: now).targetSource, .estimate, "nothing presented yet")
        for i in 0..<10 {
            now = base + UInt64(i) * period + 3_000_000
            link.callbackArrived(now: now, time: 0)
            let frame = link.startFrame(now: now)
            link.committed(start: now, commit: now + 4_000_000)
            link.presented(time: base + UInt64(i + 1) * period, refresh: UInt64(period), sequence: 0, started: now,
                           committed: now + 4_000_000)
            if i < 3 { XCTAssertEqual(frame.targetSource, .estimate) }
        }
        now = base + 10 * period + 3_000_000
        link.callbackArrived(now: now, time: 0)
        let frame = link.startFrame(now: now)
        XCTAssertEqual(frame.targetSource, .presentation)
        XCTAssertEqual(frame.targetTimestamp.nanoseconds, base + 11 * period, "the refresh, not callback + period")
        // Turned off, the estimate again.
        link.settings.usesPresentationTimes = false
        link.callbackArrived(now: now + period, time: 0)
        XCTAssertEqual(link.startFrame(now: now + period).targetSource, .estimate)
        // A new mode forgets the grid.
        link.settings.usesPresentationTimes = true
        link.modePeriod = 20_000_000
        link.callbackArrived(now: now + 2 * period, time: 0)
        XCTAssertEqual(link.startFrame(now: now + 2 * period).targetSource, .estimate)
    }
}
