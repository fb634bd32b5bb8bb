import XCTest
@testable import WaylandOutputs

final class ScreenOrderTests: XCTestCase {
    func output(_ name: String, x: Int32, y: Int32) -> Output {
        Output(id: UInt32(name.hashValue & 0xffff), name: name, logicalX: x, logicalY: y, logicalWidth: 100, logicalHeight: 100)
    }

    func test_orderIsLogicalXThenYThenName() {
        let outputs = [output("C", x: 100, y: 0), output("B", x: 0, y: 100), output("A2", x: 0, y: 0),
                       output("A1", x: 0, y: 0)]
        XCTAssertEqual(ScreenOrder.sorted(outputs).map(\.name), ["A1", "A2", "B", "C"])
    }

    func test_primaryIsTheNamedOutputElseTheFirstInOrder() {
        let outputs = [output("DP-2", x: 1920, y: 0), output("DP-1", x: 0, y: 0)]
        XCTAssertEqual(ScreenOrder.primary(of: outputs, preferred: nil)?.name, "DP-1")
        XCTAssertEqual(ScreenOrder.primary(of: outputs, preferred: "DP-2")?.name, "DP-2")
        XCTAssertEqual(ScreenOrder.primary(of: outputs, preferred: "HDMI-A-1")?.name, "DP-1",
                       "an absent preferred output falls back to the order")
        XCTAssertNil(ScreenOrder.primary(of: [], preferred: "DP-1"))
    }
}

final class LayoutTests: XCTestCase {
    func test_aspectFitLetterboxesAWidePictureOnA4By3Output() {
        let rect = Layout.aspectFit(contentWidth: 1280, contentHeight: 720, intoWidth: 800, height: 600)
        XCTAssertEqual(rect, PixelRect(x: 0, y: 75, width: 800, height: 450))
    }

    func test_aspectFitPillarboxes4By3OnAWideOutput() {
        let rect = Layout.aspectFit(contentWidth: 640, contentHeight: 480, intoWidth: 1280, height: 720)
        XCTAssertEqual(rect, PixelRect(x: 160, y: 0, width: 960, height: 720))
    }

    func test_aspectFitOfTheSameAspectFillsEverything() {
        XCTAssertEqual(Layout.aspectFit(contentWidth: 16, contentHeight: 9, intoWidth: 1920, height: 1080),
                       PixelRect(x: 0, y: 0, width: 1920, height: 1080))
    }

    func test_aspectFitRoundsToWholePixelsAndPutsTheOddPixelAfter() {
        // 1000x1000 into 101x50: 50x50 square, 51 px of bars split 25 left, 26 right.
        XCTAssertEqual(Layout.aspectFit(contentWidth: 1000, contentHeight: 1000, intoWidth: 101, height: 50),
                       PixelRect(x: 25, y: 0, width: 50, height: 50))
        // 1366x768 into 1024x768: height 575.7 rounds to 576, bars 96 above and below.
        XCTAssertEqual(Layout.aspectFit(contentWidth: 1366, contentHeight: 768, intoWidth: 1024, height: 768),
                       PixelRect(x: 0, y: 96, width: 1024, height: 576))
    }

    func test_aspectFitOfEmptySizesIsTheWholeTargetOrNothing() {
        XCTAssertEqual(Layout.aspectFit(contentWidth: 0, contentHeight: 9, intoWidth: 10, height: 10),
                       PixelRect(x: 0, y: 0, width: 10, height: 10))
        XCTAssertEqual(Layout.aspectFit(contentWidth: 16, contentHeight: 9, intoWidth: 0, height: 10).width, 0)
    }

    func test_flippedYConvertsTopLeftToGLBottomLeft() {
        let rect = PixelRect(x: 0, y: 75, width: 800, height: 440)
        XCTAssertEqual(rect.flippedY(containerHeight: 600), PixelRect(x: 0, y: 85, width: 800, height: 440))
    }

    func test_fullscreenTargetUsesLogicalSizeTimesScaleWhenTheConfigureIsZero() {
        let output = Output(id: 1, name: "HEADLESS-1", scale: 2, logicalWidth: 640, logicalHeight: 360)
        let first = RenderTarget.fullscreen(on: output, proposed: (0, 0))
        XCTAssertEqual([first.pixelWidth, first.pixelHeight, first.bufferScale], [1280, 720, 2])
        let configured = RenderTarget.fullscreen(on: output, proposed: (600, 300))
        XCTAssertEqual([configured.pixelWidth, configured.pixelHeight], [1200, 600])
    }

    func test_modeDescriptionAndPeriod() {
        let mode = OutputMode(width: 1920, height: 1080, refreshMilliHertz: 59940)
        XCTAssertEqual(mode.description, "1920x1080@59.940Hz")
        XCTAssertEqual(mode.refreshPeriodNanoseconds, 16_683_350)
        XCTAssertNil(OutputMode(width: 1, height: 1, refreshMilliHertz: 0).refreshPeriodNanoseconds)
        XCTAssertEqual(OutputMode(width: 800, height: 600, refreshMilliHertz: 30005).description, "800x600@30.005Hz")
    }
}

final class ScreenListTests: XCTestCase {
    func test_firstDescriptionConnectsLaterOnesChangeRemovalDisconnects() {
        var list = ScreenList()
        let a = Output(id: 1, name: "A", logicalWidth: 100, logicalHeight: 100)
        var moved = a
        moved.logicalX = 50
        XCTAssertEqual(list.publish(a), .connected(a))
        XCTAssertEqual(list.publish(moved), .changed(moved, previous: a))
        XCTAssertEqual(list.remove(id: 1), .disconnected(moved))
        XCTAssertTrue(list.ordered.isEmpty)
    }

    func test_anOutputRemovedBeforeItsFirstDoneMakesNoEvent() {
        var list = ScreenList()
        var state = OutputState(id: 40)
        // Geometry and mode arrived, then the global went away before done.
        XCTAssertNil(state.apply(.mode(flags: 1, width: 640, height: 480, refresh: 60000)))
        XCTAssertNil(list.remove(id: 40))
        XCTAssertTrue(list.ordered.isEmpty)
    }

    func test_orderFollowsLogicalPositionNotArrival() {
        var list = ScreenList()
        _ = list.publish(Output(id: 2, name: "right", logicalX: 1920))
        _ = list.publish(Output(id: 1, name: "left", logicalX: 0))
        XCTAssertEqual(list.ordered.map(\.name), ["left", "right"])
    }
}

/// Which drivers get their GL calls kept apart between render threads.
final class GraphicsSerializationTests: XCTestCase {
    func test_llvmpipeBeforeMesa23_1_6IsSerializedAndNothingElse() {
        let llvmpipe = "llvmpipe (LLVM 15.0.6, 256 bits)"
        XCTAssertTrue(Graphics.needsSerializedGL(renderer: llvmpipe, version: "OpenGL ES 3.2 Mesa 22.3.6"))
        XCTAssertTrue(Graphics.needsSerializedGL(renderer: llvmpipe, version: "OpenGL ES 3.2 Mesa 23.1.5"))
        XCTAssertTrue(Graphics.needsSerializedGL(renderer: llvmpipe, version: "OpenGL ES 3.2 Mesa 23.0.4-1~bpo12+1"))
        XCTAssertFalse(Graphics.needsSerializedGL(renderer: llvmpipe, version: "OpenGL ES 3.2 Mesa 23.1.6"))
        XCTAssertFalse(Graphics.needsSerializedGL(renderer: llvmpipe, version: "OpenGL ES 3.2 Mesa 24.0.3-devel"))
        // A version that cannot be read is treated as affected.
        XCTAssertTrue(Graphics.needsSerializedGL(renderer: llvmpipe, version: "OpenGL ES 3.2"))
        XCTAssertFalse(Graphics.needsSerializedGL(renderer: "AMD Radeon RX 6600 (radeonsi, navi23)",
                                                  version: "OpenGL ES 3.2 Mesa 22.3.6"))
    }
}
