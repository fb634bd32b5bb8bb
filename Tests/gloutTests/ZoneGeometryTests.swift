import XCTest
import WaylandOutputs
@testable import glout

/// The geometry a show's zone is painted by: where an item's picture lies in whole pixels,
/// and the zone's region around it.
final class ZoneGeometryTests: XCTestCase {
    let zone = Rect(x: 100, y: 50, width: 960, height: 634)

    func test_aPictureCoversTheWholePixelsItTouchesInTheOutputsPicture() {
        let pixels = ItemLook.pixels((x: 10.25, y: 20.5, width: 100.5, height: 40), in: zone)
        XCTAssertEqual(pixels, Rect(x: 110, y: 70, width: 101, height: 41))
    }

    func test_aPictureIsCutAtTheZonesEdges() {
        XCTAssertEqual(ItemLook.pixels((x: -30, y: -10.5, width: 2000, height: 100), in: zone),
                       Rect(x: 100, y: 50, width: 960, height: 90))
        // A ticker that has run out of the zone, or not yet into it.
        XCTAssertNil(ItemLook.pixels((x: -500, y: 0, width: 400, height: 40), in: zone))
        XCTAssertNil(ItemLook.pixels((x: 960, y: 0, width: 400, height: 40), in: zone))
    }

    func test_aPictureWithNoAreaOrNoPlaceCoversNothing() {
        XCTAssertNil(ItemLook.pixels((x: 0, y: 0, width: 0, height: 40), in: zone))
        XCTAssertNil(ItemLook.pixels((x: 0, y: 0, width: 40, height: -1), in: zone))
        XCTAssertNil(ItemLook.pixels((x: .nan, y: 0, width: 40, height: 40), in: zone))
        XCTAssertNil(ItemLook.pixels((x: 0, y: .infinity, width: 40, height: 40), in: zone))
    }

    func test_theIntersectionOfTwoRectanglesIsWhatTheyShare() {
        let a = Rect(x: 0, y: 0, width: 100, height: 60)
        XCTAssertEqual(a.intersection(Rect(x: 50, y: 20, width: 100, height: 100)), Rect(x: 50, y: 20, width: 50, height: 40))
        XCTAssertEqual(a.intersection(Rect(x: 10, y: 10, width: 5, height: 5)), Rect(x: 10, y: 10, width: 5, height: 5))
        let apart = a.intersection(Rect(x: 100, y: 0, width: 10, height: 10))
        XCTAssertEqual(apart.width * apart.height, 0)
    }

    func test_aRegionWithoutAHoleIsCoveredOnceByThePiecesAround() {
        let region = Rect(x: 10, y: 20, width: 50, height: 30)
        let holes = [Rect(x: 20, y: 25, width: 10, height: 10), Rect(x: 10, y: 20, width: 50, height: 30),
                     Rect(x: 10, y: 20, width: 5, height: 30), Rect(x: 40, y: 45, width: 20, height: 5),
                     Rect(x: 10, y: 20, width: 0, height: 0)]
        for hole in holes {
            let pieces = region.around(hole)
            for y in region.y..<region.maxY {
                for x in region.x..<region.maxX {
                    let covering = pieces.filter { x >= $0.x && x < $0.maxX && y >= $0.y && y < $0.maxY }.count
                    let inHole = x >= hole.x && x < hole.maxX && y >= hole.y && y < hole.maxY
                    XCTAssertEqual(covering, inHole ? 0 : 1, "pixel \(x),\(y) around \(hole)")
                }
            }
            XCTAssertTrue(pieces.allSatisfy { $0.width > 0 && $0.height > 0 }, "\(pieces)")
        }
    }

    /// A line of text baked with its colours: each pixel its coverage of the way from the
    /// background to the text's colour, in bytes B, G, R, A, opaque.
    func test_aTextLinesCoverageBecomesItsColoursInBGRA() {
        let yellow = RGB(r: 1, g: 1, b: 0), blue = RGB(r: 0, g: 0, b: 1)
        XCTAssertEqual(TextLine.coloured([0, 255, 128], colour: yellow, background: blue),
                       [255, 0, 0, 255, 0, 255, 255, 255, 127, 128, 128, 255])
        XCTAssertEqual(TextLine.coloured([], colour: yellow, background: blue), [])
        // Colours past the ends are clamped; one that is not a number is black.
        XCTAssertEqual(TextLine.coloured([255, 0], colour: RGB(r: 2, g: -1, b: .nan), background: RGB(r: 5, g: 0.5, b: 0)),
                       [0, 0, 255, 255, 0, 128, 255, 255])
    }
}
