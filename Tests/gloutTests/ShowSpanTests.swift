import Foundation
import XCTest
import WaylandOutputs
@testable import glout

/// A show's span zones: where one falls on each output of the canvas, and what the file
/// may say of them.
final class ShowSpanTests: XCTestCase {
    private func show(_ json: String) throws(ShowError) -> Show {
        try ShowParser.parse(json, path: "/shows/s.json", defaultTimeZone: TimeZone(identifier: "UTC")!)
    }

    func test_aSpanZoneIsCutAtEachOutputsEdgeAndLinesUpAcrossThem() {
        // Two 1280x720 outputs side by side; a band across the middle of the canvas.
        let canvas = Size(width: 2560, height: 720)
        let band = ZoneRect(x: .percent(25), y: .points(300), width: .percent(50), height: .points(100))
        let left = band.spanPixels(canvas: canvas, part: Rect(x: 0, y: 0, width: 1280, height: 720),
                                   output: Size(width: 1280, height: 720), pixelsPerPoint: 1)
        XCTAssertEqual(left?.whole, Rect(x: 640, y: 300, width: 1280, height: 100))
        XCTAssertEqual(left?.visible, Rect(x: 640, y: 300, width: 640, height: 100))
        // The right output at scale 2: the same band, twice the pixels, starting left of it.
        let right = band.spanPixels(canvas: canvas, part: Rect(x: 1280, y: 0, width: 1280, height: 720),
                                    output: Size(width: 2560, height: 1440), pixelsPerPoint: 2)
        XCTAssertEqual(right?.whole, Rect(x: -1280, y: 600, width: 2560, height: 200))
        XCTAssertEqual(right?.visible, Rect(x: 0, y: 600, width: 1280, height: 200))
        // A zone wholly on the left output is not on the right one.
        let corner = ZoneRect(x: .points(0), y: .points(0), width: .points(100), height: .points(100))
        XCTAssertNil(corner.spanPixels(canvas: canvas, part: Rect(x: 1280, y: 0, width: 1280, height: 720),
                                       output: Size(width: 1280, height: 720), pixelsPerPoint: 1))
        // Below the outputs of a canvas that is taller than one of them: nothing.
        let low = ZoneRect(x: .percent(0), y: .percent(90), width: .percent(100), height: .percent(10))
        XCTAssertNil(low.spanPixels(canvas: Size(width: 1280, height: 1440), part: Rect(x: 0, y: 0, width: 1280, height: 720),
                                    output: Size(width: 1280, height: 720), pixelsPerPoint: 1))
    }

    func test_theSpanTakesZonesNamedApartAndItsFilesCount() throws {
        let parsed = try show(##"""
            {"span": {"zones": [{"items": [{"image": "wide.png", "seconds": 5}]}, {"name": "ticker", "items": [{"color": "#ff0000", "seconds": 5}]}]}}
            """##)
        XCTAssertTrue(parsed.outputs.isEmpty)
        XCTAssertEqual(parsed.span.map(\.name), ["span zone 1", "ticker"])
        XCTAssertEqual(parsed.files, [.image("/shows/wide.png")])
        func error(_ json: String) -> String {
            do { _ = try show(json); return "no error" } catch { return "\(error.path): \(error.message)" }
        }
        let clash = error(##"{"outputs": {"*": {"zones": [{"name": "news", "items": [{"color": "#000000", "seconds": 1}]}]}}, "span": {"zones": [{"name": "news", "items": [{"color": "#ffffff", "seconds": 1}]}]}}"##)
        XCTAssertTrue(clash.hasPrefix("$.span.zones[0].name: "), clash)
        XCTAssertTrue(error(##"{"span": {}}"##).hasPrefix("$.span: zones is missing"))
        let member = error(##"{"span": {"zones": [{"items": [{"color": "#000000", "seconds": 1}]}], "off": []}}"##)
        XCTAssertTrue(member.hasPrefix("$.span") && member.contains("off"), member)
        let empty = error(##"{"span": {"zones": []}}"##)
        XCTAssertTrue(empty.hasPrefix("$.span.zones: "), empty)
        let none = error(##"{"timezone": "UTC"}"##)
        XCTAssertTrue(none.hasPrefix("$: outputs is missing"), none)
    }
}
