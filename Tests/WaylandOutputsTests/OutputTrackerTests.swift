import XCTest
@testable import WaylandOutputs

final class OutputOrderTests: XCTestCase {
    func output(_ name: String, x: Int32, y: Int32) -> Output {
        Output(id: UInt32(name.hashValue & 0xffff), name: name, logicalFrame: Rect(x: x, y: y, width: 100, height: 100))
    }

    func test_orderIsLogicalXThenYThenName() {
        let outputs = [output("C", x: 100, y: 0), output("B", x: 0, y: 100), output("A2", x: 0, y: 0),
                       output("A1", x: 0, y: 0)]
        XCTAssertEqual(OutputOrder.sorted(outputs).map(\.name), ["A1", "A2", "B", "C"])
    }

}

final class OutputListTests: XCTestCase {
    func test_firstDescriptionConnectsLaterOnesChangeRemovalDisconnects() {
        var list = OutputList()
        let a = Output(id: 1, name: "A", logicalFrame: Rect(x: 0, y: 0, width: 100, height: 100))
        var moved = a
        moved.logicalFrame.x = 50
        XCTAssertEqual(list.publish(a), .connected(a))
        XCTAssertEqual(list.publish(moved), .changed(moved, previous: a))
        XCTAssertEqual(list.remove(id: 1), .disconnected(moved))
        XCTAssertTrue(list.ordered.isEmpty)
    }

    func test_anOutputRemovedBeforeItsFirstDoneMakesNoEvent() {
        var list = OutputList()
        var state = OutputState(id: 40)
        // Geometry and mode arrived, then the global went away before done.
        XCTAssertNil(state.apply(.mode(flags: 1, width: 640, height: 480, refresh: 60000)))
        XCTAssertNil(list.remove(id: 40))
        XCTAssertTrue(list.ordered.isEmpty)
    }

    func test_orderFollowsLogicalPositionNotArrival() {
        var list = OutputList()
        _ = list.publish(Output(id: 2, name: "right", logicalFrame: Rect(x: 1920, y: 0, width: 0, height: 0)))
        _ = list.publish(Output(id: 1, name: "left", logicalFrame: .zero))
        XCTAssertEqual(list.ordered.map(\.name), ["left", "right"])
    }
}

/// Rectangles, targets and modes.
final class GeometryValueTests: XCTestCase {
    func test_flippedYConvertsTopLeftToGLBottomLeft() {
        let rect = Rect(x: 0, y: 75, width: 800, height: 440)
        XCTAssertEqual(rect.flippedY(containerHeight: 600), Rect(x: 0, y: 85, width: 800, height: 440))
    }

    func test_fullscreenTargetUsesLogicalSizeTimesScaleWhenTheConfigureIsZero() {
        let output = Output(id: 1, name: "HEADLESS-1", scale: 2, logicalFrame: Rect(x: 0, y: 0, width: 640, height: 360))
        let first = RenderTarget.fullscreen(on: output, proposed: .zero)
        XCTAssertEqual(first.pixelSize, Size(width: 1280, height: 720))
        XCTAssertEqual(first.bufferScale, 2)
        let configured = RenderTarget.fullscreen(on: output, proposed: Size(width: 600, height: 300))
        XCTAssertEqual(configured.pixelSize, Size(width: 1200, height: 600))
    }

    func test_modeDescriptionAndPeriod() {
        let mode = OutputMode(size: Size(width: 1920, height: 1080), refreshMilliHertz: 59940)
        XCTAssertEqual(mode.description, "1920x1080@59.940Hz")
        XCTAssertEqual(mode.refreshPeriod, .nanoseconds(16_683_350))
        XCTAssertEqual(mode.refreshRate, 59.94, accuracy: 1e-9)
        XCTAssertNil(OutputMode(size: Size(width: 1, height: 1), refreshMilliHertz: 0).refreshPeriod)
        XCTAssertEqual(OutputMode(size: Size(width: 800, height: 600), refreshMilliHertz: 30005).description, "800x600@30.005Hz")
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
