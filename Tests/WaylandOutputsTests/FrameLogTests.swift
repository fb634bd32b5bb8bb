import XCTest
@testable import WaylandOutputs

final class FrameLogTests: XCTestCase {
    func ms(_ value: Double) -> MonotonicInstant { MonotonicInstant(nanoseconds: UInt64(value * 1e6)) }

    /// Frame `index`, started by a callback at `callback` ms, meant for `target`, committed 3 ms in.
    func sample(_ index: UInt64, callback: Double?, target: Double?) -> FrameSample {
        let start = callback ?? (target ?? 16) - 16
        return FrameSample(index: index, callbackArrival: callback.map(ms), target: target.map(ms), renderStart: ms(start),
                           commit: ms(start + 3))
    }

    func test_withoutPresentationTimesAFrameLandsWithTheCallbackThatStartsTheNext() throws {
        var log = FrameLog(capacity: nil)
        log.append(sample(0, callback: nil, target: 16))
        log.append(sample(1, callback: 17, target: 33))   // frame 0 landed at 17
        log.append(sample(2, callback: 50, target: 66))   // frame 1 landed a refresh late
        log.append(sample(3, callback: 66, target: 82))
        let landings = log.landings
        XCTAssertEqual(landings.map(\.index), [0, 1, 2], "the last frame has not landed yet")
        XCTAssertEqual(landings.map(\.source), [.frameCallback, .frameCallback, .frameCallback])
        XCTAssertEqual(landings.map { $0.error.inSeconds * 1e3 }, [1, 17, 0], accuracy: 1e-6)
        XCTAssertEqual(landings.map(\.commit), [ms(3), ms(20), ms(53)], "each landing keeps its frame's commit")
    }

    /// Where the compositor answers presentation feedback, a frame without a presented
    /// time (its feedback not back yet, or lost) does not land by its callback instead.
    func test_whereFramesArePresentedOnlyPresentedFramesLand() throws {
        var log = FrameLog(capacity: nil)
        log.append(sample(0, callback: nil, target: 16))
        log.append(sample(1, callback: 17, target: 33))
        log.append(sample(2, callback: 50, target: 66))
        log.append(sample(3, callback: 66, target: 82))
        log.update(frame: 2) { $0.presented = self.ms(65.5) }
        let landings = log.landings
        XCTAssertEqual(landings.map(\.index), [2])
        XCTAssertEqual(landings.map(\.source), [.presentation])
        XCTAssertEqual(landings.map { $0.error.inSeconds * 1e3 }, [-0.5], accuracy: 1e-6)
    }

    /// A log of a capacity keeps its first frames apart from the trimmed ones, and their
    /// feedback still reaches them: a long run still reports its start-up.
    func test_theOpeningFramesAreKeptWhenTheLogIsTrimmed() {
        var log = FrameLog(capacity: 100)
        for index in 0..<UInt64(1000) { log.append(sample(index, callback: Double(index) * 16 + 1, target: Double(index + 1) * 16)) }
        XCTAssertEqual(log.opening.count, min(FrameLog.openingCount, 1000 - log.samples.count))
        XCTAssertEqual(log.opening.first?.index, 0)
        XCTAssertEqual(log.samples.last?.index, 999)
        log.update(frame: 3) { $0.presented = self.ms(64.5) }
        log.update(frame: 998) { $0.presented = self.ms(999 * 16 + 1) }
        XCTAssertEqual(log.landings.map(\.index), [3, 998])
        XCTAssertEqual(log.opening.count + log.samples.count <= FrameLog.openingCount + 200, true)
    }

    func test_framesWithoutATargetOrDiscardedOrFollowedByAGapDoNotLand() {
        var log = FrameLog(capacity: nil)
        log.append(sample(0, callback: nil, target: nil))
        log.append(sample(1, callback: 17, target: 33))
        log.append(sample(2, callback: 34, target: 50))
        log.update(frame: 2) { $0.discarded = true }
        log.append(sample(3, callback: 51, target: 67))
        log.append(sample(5, callback: 90, target: 106))  // frame 4 is not kept: 3 has no next
        log.append(sample(6, callback: 107, target: 123))
        XCTAssertEqual(log.landings.map(\.index), [1, 5])
    }
}

private func XCTAssertEqual(_ a: [Double], _ b: [Double], accuracy: Double, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(a.count, b.count, file: file, line: line)
    for (x, y) in zip(a, b) { XCTAssertEqual(x, y, accuracy: accuracy, file: file, line: line) }
}
