import XCTest
import WaylandOutputs
@testable import glout

/// The draft first frame the CPU writes: the shaders' picture, in the canvas only.
/// (FirstFrameTests compares it on screen with the whole frame the shader draws.)
final class DraftFrameTests: XCTestCase {
    func picture(_ view: SceneView, size: Size, canvas: Rect) -> DraftFrame {
        DraftFrame(view: view, size: size, canvas: canvas, accent: RGB(r: 1, g: 0.5, b: 0), time: 1, pixelsPerPoint: 1,
                     bandHeight: 20, hand: (1, 0), dial: Circle(x: 30, y: 50, radius: 15),
                     tiles: Box(x: 60, y: 30, width: 30, height: 30), grid: (2, 2, 3, 1),
                     rings: Circle(x: 50, y: 40, radius: 20), strip: Box(x: 10, y: 70, width: 80, height: 8), barX: 5)
    }

    func pixels(_ picture: DraftFrame) -> [UInt32] {
        var pixels = [UInt32](repeating: 0, count: Int(picture.size.width * picture.size.height))
        pixels.withUnsafeMutableBufferPointer { picture.draw(into: $0) }
        return pixels
    }

    func test_theHelpersAreTheShadersOwn() {
        XCTAssertEqual(DraftFrame.wave(0), 1)
        XCTAssertEqual(DraftFrame.wave(0.5), -1)
        XCTAssertEqual(DraftFrame.wave(0.25), 0, accuracy: 1e-6)
        XCTAssertEqual(DraftFrame.fract(-0.25), 0.75)
        XCTAssertEqual(DraftFrame.smoothstep(0.97, 0.13, 0.0), 1)
        XCTAssertEqual(DraftFrame.smoothstep(0.35, 0.5, 0.425), 0.5, accuracy: 1e-6)
        XCTAssertEqual(DraftFrame.band(0, 1), 1)
        XCTAssertEqual(DraftFrame.band(2, 1), 0)
        XCTAssertEqual(DraftFrame.packed(.init(1, 0.5, 0)), 0xFFFF_8000)
        XCTAssertEqual(DraftFrame.packed(.init(2, -1, 0.2)), 0xFF_FF_00_33)
    }

    /// A letterboxed canvas (mirror): black around it, the picture inside, every pixel opaque.
    func test_onlyTheCanvasIsDrawnAndEveryPixelIsOpaque() {
        for view in [SceneView.control, .content] {
            let size = Size(width: 120, height: 100)
            let canvas = Rect(x: 10, y: 5, width: 100, height: 90)
            let drawn = pixels(picture(view, size: size, canvas: canvas))
            for y in 0..<100 {
                for x in 0..<120 {
                    let pixel = drawn[y * 120 + x]
                    XCTAssertEqual(pixel >> 24, 0xFF, "\(view) (\(x), \(y)) opaque")
                    let inside = x >= 10 && x < 110 && y >= 5 && y < 95
                    if !inside { XCTAssertEqual(pixel, 0xFF00_0000, "\(view) (\(x), \(y)) outside the canvas") }
                }
            }
            XCTAssertNotEqual(drawn[50 * 120 + 60], 0xFF00_0000, "\(view): the picture is drawn")
        }
    }

    /// The control view's parts where control.frag puts them: the band in the accent, the
    /// lit tile (index 1, top right) in the accent, the others grey-blue, the dial's ring.
    func test_theControlViewsPartsAreWhereTheShaderPutsThem() {
        let drawn = pixels(picture(.control, size: Size(width: 100, height: 100), canvas: Rect(x: 0, y: 0, width: 100, height: 100)))
        func rgb(_ x: Int, _ y: Int) -> (Int, Int, Int) {
            let p = drawn[y * 100 + x]
            return (Int(p >> 16 & 0xFF), Int(p >> 8 & 0xFF), Int(p & 0xFF))
        }
        // Band: mix(background, accent * 0.55, 0.9): red well above blue.
        let band = rgb(3, 10)
        XCTAssertGreaterThan(band.0, 120)
        XCTAssertLessThan(band.2, 40)
        // Tiles of 15x15 from (60, 30): index 1 (lit) at (82, 37), index 0 at (67, 37).
        XCTAssertEqual(drawn[37 * 100 + 82], DraftFrame.packed(.init(0.55, 0.275, 0)))
        XCTAssertEqual(drawn[37 * 100 + 67], DraftFrame.packed(.init(0.16, 0.19, 0.26)))
        // Index 3 is past the count (3): not a tile.
        XCTAssertNotEqual(drawn[52 * 100 + 82], DraftFrame.packed(.init(0.16, 0.19, 0.26)))
        // The dial's ring, 15 pixels from (30, 50): light.
        XCTAssertGreaterThan(rgb(30, 35).1, 150)
    }
}
