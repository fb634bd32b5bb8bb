@testable import WaylandOutputs
import XCTest

final class FeedbackAskingTests: XCTestCase {
    /// A window with at most eight requests outstanding, driven for `frames` frames by a
    /// compositor that answers the frames `answers` says (by frame number) right away and
    /// never the others: which frames asked.
    private func drive(_ asking: inout FeedbackAsking, frames: Range<Int>, answers: (Int) -> Bool = { _ in false },
                       outstanding: inout Int) -> [Int] {
        var asked: [Int] = []
        for frame in frames where asking.asks() {
            asked.append(frame)
            if answers(frame) {
                asking.answered()
            } else if outstanding == 8 {
                asking.dropped()
            } else {
                outstanding += 1
            }
        }
        return asked
    }

    func test_aCompositorThatAnswersIsAskedOnEveryFrame() {
        var asking = FeedbackAsking(), outstanding = 0
        XCTAssertEqual(drive(&asking, frames: 0..<10_000, answers: { _ in true }, outstanding: &outstanding).count, 10_000)
        XCTAssertFalse(asking.isQuiet)
        XCTAssertEqual(asking.requested, 10_000)
    }

    func test_aCompositorThatNeverAnswersIsAskedOnlyNowAndThen() {
        var asking = FeedbackAsking(), outstanding = 0
        let asked = drive(&asking, frames: 0..<3600, outstanding: &outstanding)
        // Eight fill the outstanding slots, then 32 are dropped in a row: 40 frames ask.
        XCTAssertEqual(Array(asked.prefix(40)), Array(0..<40))
        XCTAssertTrue(asking.isQuiet)
        // Then one frame in 128: a minute at 60 Hz asks 40 + 27 times, not 3600.
        XCTAssertEqual(Array(asked.dropFirst(40).prefix(3)), [40 + 127, 40 + 255, 40 + 383])
        XCTAssertEqual(asked.count, 40 + (3600 - 40) / 128)
        XCTAssertEqual(asking.requested, UInt64(asked.count))
    }

    func test_anAnswerAfterSilenceMakesEveryFrameAskAgain() throws {
        var asking = FeedbackAsking(), outstanding = 0
        _ = drive(&asking, frames: 0..<1000, outstanding: &outstanding)
        XCTAssertTrue(asking.isQuiet)
        // The compositor answers from frame 1000 on: the first probe after it is answered,
        // and every frame asks from the next.
        let asked = drive(&asking, frames: 1000..<1400, answers: { $0 >= 1000 }, outstanding: &outstanding)
        let probe = try XCTUnwrap(asked.first)
        XCTAssertLessThan(probe, 1000 + FeedbackAsking.probeInterval)
        XCTAssertEqual(asked, Array(probe..<1400))
        XCTAssertFalse(asking.isQuiet)
    }

    func test_answersNowAndThenKeepEveryFrameAsking() {
        // A compositor that answers one request in twenty (the rest it drops, holds or
        // answers too late) never has 32 dropped in a row.
        var asking = FeedbackAsking(), outstanding = 0
        let asked = drive(&asking, frames: 0..<5000, answers: { $0 % 20 == 0 }, outstanding: &outstanding)
        XCTAssertEqual(asked.count, 5000)
    }
}
