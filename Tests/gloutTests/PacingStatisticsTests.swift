import XCTest
import WaylandOutputs
@testable import glout

/// Every pacing statistic on synthetic frame sequences with known answers.
final class PacingStatisticsTests: XCTestCase {
    let period: UInt64 = 16_000_000

    /// Frames whose callbacks arrive at `times` (ms), each committed 2 ms later.
    func samples(callbacksAt times: [Double]) -> [FrameSample] {
        times.enumerated().map { index, ms in
            let arrival = MonotonicInstant(nanoseconds: UInt64(ms * 1e6))
            return FrameSample(index: UInt64(index), callbackArrival: arrival, callbackTime: UInt32(ms),
                               renderStart: arrival, commit: arrival + .milliseconds(2), cpuTime: .microseconds(500))
        }
    }

    func test_anEmptyRunHasZerosAndNoNaN() {
        let pacing = OutputPacing(samples: [], period: period)
        XCTAssertEqual(pacing.frames, 0)
        XCTAssertEqual(pacing.framesPerSecond, 0)
        XCTAssertEqual(pacing.intervals, .empty)
        XCTAssertEqual(pacing.missed, 0)
        XCTAssertEqual(pacing.jankPercent, 0)
        XCTAssertEqual(pacing.cpuMillisecondsPerFrame, 0)
        XCTAssertEqual(pacing.onTimePercent, 100)
    }

    func test_oneFrameHasNoInterval() {
        let pacing = OutputPacing(samples: samples(callbacksAt: [100]), period: period)
        XCTAssertEqual(pacing.frames, 1)
        XCTAssertEqual(pacing.intervals.count, 0)
        XCTAssertEqual(pacing.framesPerSecond, 0)
        XCTAssertEqual(pacing.renderTime.p50, 2, accuracy: 1e-9)
    }

    func test_aSteadyRunIsExactlyOnePeriod() {
        let pacing = OutputPacing(samples: samples(callbacksAt: (0..<101).map { Double($0) * 16 }), period: period)
        XCTAssertEqual(pacing.source, .frameCallback)
        XCTAssertEqual(pacing.intervals.count, 100)
        XCTAssertEqual(pacing.intervals.mean, 16, accuracy: 1e-9)
        XCTAssertEqual(pacing.intervals.stddev, 0, accuracy: 1e-9)
        XCTAssertEqual(pacing.intervals.p99, 16, accuracy: 1e-9)
        XCTAssertEqual(pacing.framesPerSecond, 62.5, accuracy: 1e-9)
        XCTAssertEqual(pacing.missed, 0)
        XCTAssertEqual(pacing.jankPercent, 0)
        XCTAssertEqual(pacing.onTimePercent, 100, accuracy: 1e-9)
        XCTAssertEqual(pacing.cpuMillisecondsPerFrame, 0.5, accuracy: 1e-9)
        XCTAssertEqual(pacing.intervals.inPeriods(of: period).p50, 1, accuracy: 1e-9)
    }

    func test_aGapOfSeveralPeriodsIsMissedJankAndShowsInTheTail() {
        // 10 steady intervals, one of 4 periods (3 refreshes without a new frame), 9 steady.
        var times = (0...10).map { Double($0) * 16 }
        times += (1...10).map { 160 + 64 + Double($0 - 1) * 16 }
        let pacing = OutputPacing(samples: samples(callbacksAt: times), period: period)
        XCTAssertEqual(pacing.intervals.count, 20)
        XCTAssertEqual(pacing.intervals.max, 64, accuracy: 1e-9)
        XCTAssertEqual(pacing.intervals.p99, 64, accuracy: 1e-9, "nearest rank: the 20th of 20")
        XCTAssertEqual(pacing.intervals.p50, 16, accuracy: 1e-9)
        XCTAssertEqual(pacing.intervals.mean, (19 * 16 + 64) / 20, accuracy: 1e-9)
        XCTAssertEqual(pacing.missed, 1)
        XCTAssertEqual(pacing.jankPercent, 5, accuracy: 1e-9, "one jump up in 20 intervals")
        XCTAssertEqual(pacing.intervals.inPeriods(of: period).max, 4, accuracy: 1e-9)
        // 20 frames over 23 refreshes.
        XCTAssertEqual(pacing.onTimePercent, 100 * 20 / 23, accuracy: 1e-9)
    }

    func test_jankCountsOnlyRisesOfMoreThanHalfAPeriod() {
        // 16, 23 (rise of 7 < 8: not jank), 16, 33 (rise of 17: jank)
        let pacing = OutputPacing(samples: samples(callbacksAt: [0, 16, 39, 55, 88]), period: period)
        XCTAssertEqual(pacing.jankPercent, 25, accuracy: 1e-9)
        XCTAssertEqual(pacing.missed, 1, "33 ms is over 1.5 periods, 23 ms is not")
    }

    func test_percentilesAreNearestRank() {
        let sorted = (1...1000).map(Double.init)
        XCTAssertEqual(IntervalSummary.percentile(sorted, 50), 500)
        XCTAssertEqual(IntervalSummary.percentile(sorted, 99), 990)
        XCTAssertEqual(IntervalSummary.percentile(sorted, 99.9), 999)
        XCTAssertEqual(IntervalSummary.percentile([7], 99.9), 7)
        XCTAssertEqual(IntervalSummary.percentile([], 50), 0)
    }

    func test_theCompositorsMillisecondClockWrapsAt2To32() {
        XCTAssertEqual(PacingMath.wrappingIntervals([UInt32.max - 10, 5, 21]), [16, 16])
        var wrapped = samples(callbacksAt: [0, 16, 32])
        wrapped[0].callbackTime = UInt32.max - 15
        wrapped[1].callbackTime = 0
        wrapped[2].callbackTime = 16
        let pacing = OutputPacing(samples: wrapped, period: period)
        XCTAssertEqual(pacing.compositorIntervals?.max ?? 0, 16, accuracy: 1e-9)
        XCTAssertEqual(pacing.compositorIntervals?.count, 2)
    }

    func test_presentationTimesWinWhenMostFramesHaveThem() {
        var frames = samples(callbacksAt: [0, 16, 32, 48])
        for i in frames.indices { frames[i].presented = MonotonicInstant(nanoseconds: UInt64(i) * 20_000_000 + 5_000_000) }
        let pacing = OutputPacing(samples: frames, period: period)
        XCTAssertEqual(pacing.source, .presentation)
        XCTAssertEqual(pacing.intervals.p50, 20, accuracy: 1e-9)
        XCTAssertEqual(pacing.presented, 4)
        // commit is arrival + 2 ms; presented at 20 i + 5 ms; arrival 16 i.
        XCTAssertEqual(pacing.commitToPresent?.p50 ?? 0, 7, accuracy: 1e-9)
    }

    func test_withoutCallbacksTheCommitTimesAreUsed() {
        let commits = (0..<5).map { index -> FrameSample in
            let start = MonotonicInstant(nanoseconds: UInt64(index) * 33_000_000)
            return FrameSample(index: UInt64(index), renderStart: start, commit: start + .milliseconds(1))
        }
        let pacing = OutputPacing(samples: commits, period: period)
        XCTAssertEqual(pacing.source, .commit)
        XCTAssertEqual(pacing.intervals.mean, 33, accuracy: 1e-9)
        XCTAssertEqual(pacing.missed, 4)
        XCTAssertEqual(pacing.discarded, 0)
    }
}
