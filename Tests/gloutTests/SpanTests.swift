import XCTest
import WaylandOutputs
@testable import glout

/// The span layout's pure parts: the canvas with bezels, the wall file, bezel requests,
/// the pattern's moving things, the canvas in pixels, and the seam offsets.
final class SpanCanvasTests: XCTestCase {
    func entry(_ name: String, _ x: Int32, _ y: Int32, _ width: Int32, _ height: Int32, bezel: Bezel = .zero,
               machine: String = "m") -> WallEntry {
        WallEntry(machine: machine, name: name, x: x, y: y, width: width, height: height, bezel: bezel)
    }

    func frames(_ canvas: SpanCanvas) -> [String: Rect] {
        Dictionary(uniqueKeysWithValues: canvas.parts.map { ($0.name, $0.frame) })
    }

    func test_withoutBezelsTheCanvasIsTheLayoutMovedToTheOrigin() {
        let canvas = SpanCanvas([entry("A", -1280, 0, 1280, 720), entry("B", 0, 100, 800, 600)])
        XCTAssertEqual(canvas.size, Size(width: 2080, height: 720))
        XCTAssertEqual(frames(canvas), ["A": Rect(x: 0, y: 0, width: 1280, height: 720),
                                        "B": Rect(x: 1280, y: 100, width: 800, height: 600)])
    }

    func test_aGapInTheLayoutStaysInTheCanvas() {
        let canvas = SpanCanvas([entry("A", 0, 0, 640, 360), entry("B", 1280, 0, 600, 800)])
        XCTAssertEqual(canvas.size, Size(width: 1880, height: 800))
        XCTAssertEqual(frames(canvas)["B"], Rect(x: 1280, y: 0, width: 600, height: 800))
    }

    func test_bezelsBetweenScreensSideBySideAddUp() {
        let a = entry("A", 0, 0, 1280, 720, bezel: Bezel(top: 5, right: 30, bottom: 5, left: 10))
        let b = entry("B", 1280, 0, 1280, 720, bezel: Bezel(top: 5, right: 10, bottom: 5, left: 20))
        let canvas = SpanCanvas([b, a])
        // A's left bezel, A, A's right and B's left bezels, B, B's right bezel.
        XCTAssertEqual(canvas.size, Size(width: 10 + 1280 + 30 + 20 + 1280 + 10, height: 730))
        XCTAssertEqual(frames(canvas), ["A": Rect(x: 10, y: 5, width: 1280, height: 720),
                                        "B": Rect(x: 10 + 1280 + 30 + 20, y: 5, width: 1280, height: 720)])
    }

    func test_aGridOfFourMovesEachRowAndColumnByTheBezelsBeforeIt() {
        let b = Bezel(top: 10, right: 10, bottom: 10, left: 10)
        let canvas = SpanCanvas([entry("TL", 0, 0, 100, 50, bezel: b), entry("TR", 100, 0, 100, 50, bezel: b),
                                 entry("BL", 0, 50, 100, 50, bezel: b), entry("BR", 100, 50, 100, 50, bezel: b)])
        XCTAssertEqual(canvas.size, Size(width: 240, height: 140))
        XCTAssertEqual(frames(canvas), ["TL": Rect(x: 10, y: 10, width: 100, height: 50),
                                        "TR": Rect(x: 130, y: 10, width: 100, height: 50),
                                        "BL": Rect(x: 10, y: 80, width: 100, height: 50),
                                        "BR": Rect(x: 130, y: 80, width: 100, height: 50)])
    }

    func test_screensInOtherRowsDoNotMoveEachOther() {
        // B is right of A but below it: A's bezel does not push it.
        let canvas = SpanCanvas([entry("A", 0, 0, 100, 100, bezel: Bezel(top: 0, right: 50, bottom: 0, left: 0)),
                                 entry("B", 100, 100, 100, 100)])
        XCTAssertEqual(frames(canvas)["B"], Rect(x: 100, y: 100, width: 100, height: 100))
    }

    func test_partsAreFoundByMachineAndName() {
        let canvas = SpanCanvas([entry("HDMI-A-1", 0, 0, 10, 10, machine: "left"),
                                 entry("HDMI-A-1", 10, 0, 10, 10, machine: "right")])
        XCTAssertEqual(canvas.part(machine: "right", name: "HDMI-A-1")?.frame.x, 10)
        XCTAssertNil(canvas.part(machine: "middle", name: "HDMI-A-1"))
        XCTAssertEqual(SpanCanvas([]).size, .zero)
    }

    func test_aWallFileRoundTripsAndBadOnesAreRefusedSayingWhy() throws {
        let wall = Wall(outputs: [entry("A", 0, 0, 1280, 720, bezel: Bezel(top: 1, right: 2, bottom: 3, left: 4))])
        XCTAssertEqual(try Wall.parse(try wall.json()), wall)
        let cases: [(String, String)] = [
            ("", "The given data was not valid JSON"),
            ("{}", "missing \"outputs\""),
            (#"{"outputs": []}"#, "at least one output"),
            (#"{"outputs": [{"machine": "m", "name": "A", "x": 0, "y": 0, "width": 10}]}"#, "outputs[0]: missing \"height\""),
            (#"{"outputs": [{"machine": "m", "name": "A", "x": 0, "y": 0, "width": 10, "height": 0, "bezel": {"top": 0, "right": 0, "bottom": 0, "left": 0}}]}"#,
             "outputs[0].height must be a whole number from 1 to 1000000, not 0.0"),
            (#"{"outputs": [{"machine": "m", "name": "A", "x": 0, "y": 0, "width": 10, "height": 10, "bezel": {"top": -1, "right": 0, "bottom": 0, "left": 0}}]}"#,
             "outputs[0].bezel.top must be a whole number from 0 to 10000"),
            (#"{"outputs": [{"machine": "m", "name": "A", "x": 1e12, "y": 0, "width": 10, "height": 10, "bezel": {"top": 0, "right": 0, "bottom": 0, "left": 0}}]}"#,
             "outputs[0].x must be a whole number from -1000000 to 1000000"),
            (#"{"outputs": [{"machine": "m", "name": "A", "x": 0.5, "y": 0, "width": 10, "height": 10, "bezel": {"top": 0, "right": 0, "bottom": 0, "left": 0}}]}"#,
             "outputs[0].x must be a whole number"),
            (#"{"outputs": [{"machine": "", "name": "A", "x": 0, "y": 0, "width": 10, "height": 10, "bezel": {"top": 0, "right": 0, "bottom": 0, "left": 0}}]}"#,
             "machine and name must not be empty"),
            (#"{"outputs": [{"machine": "m", "name": "A", "x": "0", "y": 0, "width": 10, "height": 10, "bezel": {"top": 0, "right": 0, "bottom": 0, "left": 0}}]}"#,
             "outputs[0].x"),
        ]
        for (text, reason) in cases {
            XCTAssertThrowsError(try Wall.parse(text), text) { error in
                let message = (error as? WallError)?.message ?? "\(error)"
                XCTAssertTrue(message.contains(reason), "'\(message)' does not say '\(reason)'")
            }
        }
        let twice = Wall(outputs: [entry("A", 0, 0, 10, 10), entry("A", 10, 0, 10, 10)])
        XCTAssertThrowsError(try Wall.parse(try twice.json())) { error in
            XCTAssertEqual((error as? WallError)?.message, "outputs[1] (m A) is listed twice")
        }
    }

    func test_bezelRequestsInMillimetresGoThroughThePhysicalSize() {
        XCTAssertNil(BezelRequest("-1"))
        XCTAssertNil(BezelRequest("1,2,3"))
        XCTAssertNil(BezelRequest("px"))
        XCTAssertNil(BezelRequest("10001"))
        XCTAssertEqual(BezelRequest("4px")?.unit, .points)
        // 1280 points over 320 mm: 4 points a millimetre across; 720 over 180: 4 down.
        let screen = Output(id: 1, name: "A", physicalSize: Size(width: 320, height: 180),
                            logicalFrame: Rect(x: 0, y: 0, width: 1280, height: 720))
        XCTAssertEqual(BezelRequest("3,12.5,3,12.5")?.points(on: screen), Bezel(top: 12, right: 50, bottom: 12, left: 50))
        XCTAssertEqual(BezelRequest("3,12,3,12px")?.points(on: screen), Bezel(top: 3, right: 12, bottom: 3, left: 12))
        // Turned a quarter: the panel's 320 mm now run down the 1280 points.
        let turned = Output(id: 1, name: "A", physicalSize: Size(width: 320, height: 180), transform: .rotated90,
                            logicalFrame: Rect(x: 0, y: 0, width: 720, height: 1280))
        XCTAssertEqual(BezelRequest("1,2,1,2")?.points(on: turned), Bezel(top: 4, right: 8, bottom: 4, left: 8))
        XCTAssertNil(BezelRequest("5")?.points(on: Output(id: 2, name: "B", logicalFrame: Rect(x: 0, y: 0, width: 10, height: 10))))
    }

    func test_theBarSweepsTheCanvasAndTheCellsTakeTurns() {
        XCTAssertEqual(SpanView.barX(time: 0, canvasWidth: 1000), -SpanView.barWidth)
        XCTAssertEqual(SpanView.barX(time: 1, canvasWidth: 1000), SpanView.barSpeed - SpanView.barWidth)
        // It comes in again after crossing the canvas and its own width.
        let lap = (1000 + SpanView.barWidth) / SpanView.barSpeed
        XCTAssertEqual(SpanView.barX(time: lap + 0.5, canvasWidth: 1000), SpanView.barX(time: 0.5, canvasWidth: 1000),
                       accuracy: 1e-6)
        // On the realtime clock (seconds since 1970) it stays exact to far below a pixel.
        let now = 1_795_000_000.0
        XCTAssertEqual(SpanView.barX(time: now + 0.01, canvasWidth: 1000) - SpanView.barX(time: now, canvasWidth: 1000),
                       SpanView.barSpeed * 0.01, accuracy: 1e-3)
        XCTAssertEqual((0..<12).map { SpanView.litCell(time: (Double($0) + 0.5) / 60) }, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1])
        XCTAssertEqual(SpanView.litCell(time: -0.5 / 60), 9)
    }

    func test_theCellsRowAndTheBarRegionAreWholePixelsInsideThePicture() {
        let row = SpanView.cellsRow(pictureSize: Size(width: 1280, height: 720), pointSize: 1)
        XCTAssertEqual(row, Rect(x: 400, y: 58, width: 480, height: 29))
        XCTAssertEqual(row.width % Int32(SpanView.cellCount), 0)
        XCTAssertEqual(SpanView.cellsRow(pictureSize: Size(width: 10, height: 10), pointSize: 1), .zero)
        let view = SpanView(part: Rect(x: 1000, y: 0, width: 640, height: 360), canvasSize: Size(width: 1640, height: 360),
                            pictureSize: Size(width: 1280, height: 720))
        XCTAssertEqual(view.density.x, 2)
        XCTAssertEqual(view.origin.x, 2000)
        XCTAssertEqual(view.barRegion(barX: 1100), Rect(x: 199, y: 0, width: 50, height: 720))
        XCTAssertEqual(view.barRegion(barX: 500), .zero, "left of the part")
        XCTAssertEqual(view.barRegion(barX: 995), Rect(x: 0, y: 0, width: 39, height: 720), "half in")
    }

    func test_contentIsPlacedOnTheWholeCanvasAndEachPartShowsItsPiece() {
        // A 1640x360 canvas; the part at x 1000 is 640 points, drawn at 2 pixels a point.
        let canvas = Size(width: 1640, height: 360)
        let right = SpanView(part: Rect(x: 1000, y: 0, width: 640, height: 360), canvasSize: canvas,
                             pictureSize: Size(width: 1280, height: 720))
        let left = SpanView(part: Rect(x: 0, y: 0, width: 1000, height: 360), canvasSize: canvas,
                            pictureSize: Size(width: 2000, height: 720))
        // Stretched over the canvas (3280x720 pixels): the right part starts 2000 pixels in.
        var place = right.placement(width: 320, height: 180, mode: .stretch)
        XCTAssertEqual([place.x, place.y, place.width, place.height], [-2000, 0, 3280, 720])
        place = left.placement(width: 320, height: 180, mode: .stretch)
        XCTAssertEqual([place.x, place.y, place.width, place.height], [0, 0, 3280, 720])
        // Fitted: 16:9 in a canvas much wider, centred, 1280 wide; it lies across the seam.
        place = right.placement(width: 1920, height: 1080, mode: .fit)
        XCTAssertEqual([place.x, place.y, place.width, place.height], [-2000 + 1000, 0, 1280, 720])
        place = left.placement(width: 1920, height: 1080, mode: .fill)
        XCTAssertEqual(place.width, 3280)
        XCTAssertEqual(place.y, (720 - 3280 * 9 / 16) / 2, accuracy: 1e-9)
    }

    func test_atAFractionalScaleThePartsOfTheCanvasAreThePartsPictures() {
        // 1.5 pixels a point: a part at an odd point starts half way through a pixel,
        // rounded as the output's own buffer is (fractional-scale-v1 rounds half away).
        let canvas = SpanCanvas([entry("A", 0, 0, 853, 480), entry("B", 853, 0, 1281, 721)])
        let (size, parts) = SnapshotCommand.canvasPixels(canvas, density: 1.5)
        XCTAssertEqual(parts[0], Rect(x: 0, y: 0, width: 1280, height: 720))
        XCTAssertEqual(parts[1].x, 1280, "853 × 1.5 = 1279.5, rounded up")
        XCTAssertEqual(parts[1].size, Size(width: SurfaceScaling.fractionalPixels(1281, 180),
                                           height: SurfaceScaling.fractionalPixels(721, 180)))
        XCTAssertGreaterThanOrEqual(size.width, parts[1].maxX)
        // The part's own picture at that size keeps the canvas's density and origin.
        let view = SpanView(part: canvas.parts[1].frame, canvasSize: canvas.size, pictureSize: parts[1].size)
        XCTAssertEqual(view.density.x, 1.5)
        XCTAssertEqual(view.density.y, 1.5)
        XCTAssertEqual(view.origin.x, parts[1].x)
    }
}

/// How late frames land and how far apart two outputs' pictures are.
final class SyncReportTests: XCTestCase {
    func landing(_ index: UInt64, target ms: Double, landed landedMs: Double) -> FrameLanding {
        FrameLanding(index: index, target: MonotonicInstant(nanoseconds: UInt64(ms * 1e6)),
                     landed: MonotonicInstant(nanoseconds: UInt64(landedMs * 1e6)), source: .frameCallback)
    }

    func test_landingsAreSummarisedLateAsPositive() throws {
        let summary = try XCTUnwrap(LandingSummary([landing(0, target: 100, landed: 101), landing(1, target: 116, landed: 115),
                                                    landing(2, target: 132, landed: 149)]))
        XCTAssertEqual(summary.frames, 3)
        XCTAssertEqual(summary.max_ms, 17, accuracy: 1e-9)
        XCTAssertEqual(summary.min_ms, -1, accuracy: 1e-9)
        XCTAssertEqual(summary.p50_ms, 1, accuracy: 1e-9)
        XCTAssertEqual(summary.source, "frame-callback")
        XCTAssertNil(LandingSummary([]))
    }

    func test_theSeamOffsetComparesEachLandingWithTheOtherOutputsFrameOnScreen() throws {
        // A at 60 Hz on time, B at 30 Hz on time, except one B frame a 60 Hz refresh late.
        let a = (0..<12).map { landing(UInt64($0), target: Double($0) * 16, landed: Double($0) * 16 + 0.5) }
        var b = (0..<6).map { landing(UInt64($0), target: Double($0) * 32 + 1, landed: Double($0) * 32 + 1) }
        b[3] = landing(3, target: 97, landed: 113)
        let offsets = SeamOffset.offsets(a, against: b)
        // A's first frame lands before any of B's: not compared.
        XCTAssertEqual(offsets.count, 11)
        XCTAssertEqual(offsets.filter { $0 > 10 }, [15.5], "A's frame while B's late one is on screen")
        let seam = try XCTUnwrap(SeamOffset(("A", a), ("B", b)))
        XCTAssertEqual(seam.outputs, ["A", "B"])
        XCTAssertEqual(seam.samples, 11 + 6)
        XCTAssertEqual(seam.max_ms, 15.5, accuracy: 1e-9)
        XCTAssertEqual(seam.p50_ms, 0.5, accuracy: 1e-9)
        // A frame on screen for more than a second is not compared (its output stopped).
        XCTAssertTrue(SeamOffset.offsets([landing(0, target: 5000, landed: 5000)], against: b).isEmpty)
    }

    func test_theSpanReportComparesEveryTwoOutputsOfThisMachinesSpan() {
        let canvas = SpanCanvas([WallEntry(machine: "m", name: "A", x: 0, y: 0, width: 10, height: 10, bezel: .zero),
                                 WallEntry(machine: "m", name: "B", x: 10, y: 0, width: 10, height: 10, bezel: .zero)])
        let on = (0..<4).map { landing(UInt64($0), target: Double($0) * 16, landed: Double($0) * 16) }
        let report = SpanReport(clock: .realtime, machine: "m", canvas: canvas,
                                landings: [("B", on), ("A", on), ("C", on)])
        XCTAssertEqual(report.seams.map(\.outputs), [["A", "B"]], "C is not in the span")
        XCTAssertEqual(report.seam_offset_p99_ms, 0)
        XCTAssertEqual(report.clock, "realtime")
        XCTAssertNil(SpanReport(clock: .monotonic, machine: "m", canvas: canvas, landings: [("A", on)]).seam_offset_p99_ms)
    }
}
