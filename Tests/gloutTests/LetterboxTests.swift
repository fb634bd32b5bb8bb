import WaylandOutputs
import XCTest
@testable import glout

final class LetterboxTests: XCTestCase {
    func test_aspectFitLetterboxesAWidePictureOnA4By3Output() {
        let rect = Letterbox.aspectFit(Size(width: 1280, height: 720), into: Size(width: 800, height: 600))
        XCTAssertEqual(rect, Rect(x: 0, y: 75, width: 800, height: 450))
    }

    func test_aspectFitPillarboxes4By3OnAWideOutput() {
        let rect = Letterbox.aspectFit(Size(width: 640, height: 480), into: Size(width: 1280, height: 720))
        XCTAssertEqual(rect, Rect(x: 160, y: 0, width: 960, height: 720))
    }

    func test_aspectFitOfTheSameAspectFillsEverything() {
        XCTAssertEqual(Letterbox.aspectFit(Size(width: 16, height: 9), into: Size(width: 1920, height: 1080)),
                       Rect(x: 0, y: 0, width: 1920, height: 1080))
    }

    func test_aspectFitRoundsToWholePixelsAndPutsTheOddPixelAfter() {
        // 1000x1000 into 101x50: 50x50 square, 51 px of bars split 25 left, 26 right.
        XCTAssertEqual(Letterbox.aspectFit(Size(width: 1000, height: 1000), into: Size(width: 101, height: 50)),
                       Rect(x: 25, y: 0, width: 50, height: 50))
        // 1366x768 into 1024x768: height 575.7 rounds to 576, bars 96 above and below.
        XCTAssertEqual(Letterbox.aspectFit(Size(width: 1366, height: 768), into: Size(width: 1024, height: 768)),
                       Rect(x: 0, y: 96, width: 1024, height: 576))
    }

    func test_aspectFitOfEmptySizesIsTheWholeTargetOrNothing() {
        XCTAssertEqual(Letterbox.aspectFit(Size(width: 0, height: 9), into: Size(width: 10, height: 10)),
                       Rect(x: 0, y: 0, width: 10, height: 10))
        XCTAssertEqual(Letterbox.aspectFit(Size(width: 16, height: 9), into: Size(width: 0, height: 10)).width, 0)
    }
}
