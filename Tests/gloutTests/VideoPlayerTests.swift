import XCTest
@testable import glout

/// An output's choice of a video's frame each refresh.
final class VideoPlayerTests: XCTestCase {
    let nominal = 1e9 / 60
    /// A 30 fps video's frame at `seconds`.
    func frame30(_ seconds: Double) -> Int { Int((seconds * 30).rounded(.down)) }

    func test_aFrozenTimeShowsExactlyItsFrame() {
        var player = VideoPlayer()
        let (number, refreshesPerFrame) = player.chooseFrame(refresh: 0, at: 0, nominal: nominal, local: 1.0 / 30 + 0.001,
                                                             rate: 1, framesPerSecond: 30, frozen: true, frameAt: frame30)
        XCTAssertEqual(number, 1)
        XCTAssertEqual(try XCTUnwrap(refreshesPerFrame), 2, accuracy: 1e-9)
    }

    func test_aFrameJustPastAnEdgeWaitsUntilTheShowingOneHasHeldItsCadence() {
        var player = VideoPlayer()
        // 30 fps on 60 Hz: two refreshes a frame. Frame 0 has shown once when the next
        // refresh's target time falls a millisecond past the edge to frame 1.
        let first = player.chooseFrame(refresh: 0, at: 0, nominal: nominal, local: 0.001, rate: 1, framesPerSecond: 30,
                                       frozen: false, frameAt: frame30)
        let second = player.chooseFrame(refresh: 1, at: UInt64(nominal), nominal: nominal, local: 1.0 / 30 + 0.001,
                                        rate: 1, framesPerSecond: 30, frozen: false, frameAt: frame30)
        XCTAssertEqual(first.number, 0)
        XCTAssertEqual(second.number, 0)
    }

    func test_withoutARefreshPeriodTheCadenceIsNotJudged() {
        var player = VideoPlayer()
        let choice = player.chooseFrame(refresh: 0, at: 0, nominal: 0, local: 0.5, rate: 1, framesPerSecond: 30,
                                        frozen: false, frameAt: frame30)
        XCTAssertEqual(choice.number, 15)
        XCTAssertNil(choice.refreshesPerFrame)
    }

    func test_speedSyncPlaysTheFrameOfTheVideosOwnTime() {
        var player = VideoPlayer()
        let choice = player.chooseFrame(refresh: 0, at: 0, nominal: nominal, local: 1.0, rate: 1.001, framesPerSecond: 30,
                                        frozen: true, frameAt: frame30)
        XCTAssertEqual(choice.number, 30)
    }
}
