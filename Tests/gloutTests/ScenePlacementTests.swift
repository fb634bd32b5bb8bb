import XCTest
import WaylandOutputs
@testable import glout

final class ScenePlacementTests: XCTestCase {
    func target(_ output: Output, _ width: Int32, _ height: Int32) -> RenderTarget {
        RenderTarget(output: output, pixelSize: Size(width: width, height: height), bufferScale: 1)
    }

    func test_independentGivesThePrimaryTheControlViewAndOthersTheContentView() {
        let state = Scene.State(layout: .independent, primary: "A", start: 0)
        let a = Output(id: 1, name: "A"), b = Output(id: 2, name: "B")
        XCTAssertEqual(SceneRenderer.placement(of: a, target: target(a, 1280, 720), state: state).view, .control)
        let (view, layout) = SceneRenderer.placement(of: b, target: target(b, 800, 600), state: state)
        XCTAssertEqual(view, .content)
        XCTAssertEqual(layout.canvas, Rect(x: 0, y: 0, width: 800, height: 600))
    }

    func test_mirrorLetterboxesThePrimaryPictureEverywhereWithThePrimarysLayout() {
        var state = Scene.State(layout: .mirror, primary: "A", start: 0)
        state.primaryPixelSize = Size(width: 1280, height: 720)
        let a = Output(id: 1, name: "A"), b = Output(id: 2, name: "B")
        let (view, small) = SceneRenderer.placement(of: b, target: target(b, 800, 600), state: state)
        XCTAssertEqual(view, .control)
        XCTAssertEqual(small.canvas, Rect(x: 0, y: 75, width: 800, height: 450))
        let large = SceneRenderer.placement(of: a, target: target(a, 1280, 720), state: state).layout
        // The same picture: every position scales by 800/1280.
        XCTAssertEqual(small.horizontal, large.horizontal)
        XCTAssertEqual(small.dial.x, large.dial.x * 0.625, accuracy: 1e-9)
        XCTAssertEqual(small.dial.radius, large.dial.radius * 0.625, accuracy: 1e-9)
        XCTAssertEqual(small.tiles.width, large.tiles.width * 0.625, accuracy: 1e-9)
    }

    func test_frozenSceneTimeIgnoresTheClock() {
        let state = Scene.State(layout: .independent, frozen: 2.5, start: 100)
        XCTAssertEqual(state.time(at: MonotonicInstant(nanoseconds: 9_000_000_000)), 2.5)
        let running = Scene.State(layout: .independent, start: 1_000_000_000)
        XCTAssertEqual(running.time(at: MonotonicInstant(nanoseconds: 3_000_000_000)), 2.0)
    }
}

final class SceneLayoutTests: XCTestCase {
    let full = Rect(x: 0, y: 0, width: 1280, height: 720)

    func test_dynamicRegionsStayInsideTheCanvasAndCoverTheMovingParts() {
        let layout = SceneLayout.make(area: Rect(x: 0, y: 75, width: 800, height: 450))
        for view in [SceneView.control, .content] {
            for region in layout.dynamicRegions(of: view) {
                XCTAssertGreaterThanOrEqual(region.x, layout.canvas.x)
                XCTAssertGreaterThanOrEqual(region.y, layout.canvas.y)
                XCTAssertLessThanOrEqual(region.x + region.width, layout.canvas.x + layout.canvas.width)
                XCTAssertLessThanOrEqual(region.y + region.height, layout.canvas.y + layout.canvas.height)
            }
        }
        // The hand's region holds the centre dot and the tip, whichever way it points, and
        // is a fraction of the dial's square.
        let (cx, cy, r) = (layout.dial.x, 75 + layout.dial.y, layout.dial.radius)
        let dot = 6 * max(1, 450.0 / 480)
        for step in 0..<16 {
            let direction = MovingParts.handDirection(time: Double(step) / 4)
            let hand = layout.dialHand(pointing: direction)
            let (tipX, tipY) = (cx + 0.9 * r * direction.x, cy + 0.9 * r * direction.y)
            for (x, y) in [(cx - dot, cy - dot), (cx + dot, cy + dot), (tipX, tipY)] {
                XCTAssertTrue(Double(hand.x) <= x && x <= Double(hand.x + hand.width), "step \(step): x \(x) outside \(hand)")
                XCTAssertTrue(Double(hand.y) <= y && y <= Double(hand.y + hand.height), "step \(step): y \(y) outside \(hand)")
            }
            XCTAssertLessThan(Double(hand.width * hand.height), 0.3 * 4 * r * r, "step \(step): \(hand)")
        }
        XCTAssertEqual(layout.dynamicRegions(of: .control), [])
        XCTAssertEqual(layout.dynamicRegions(of: .content).count, 1, "the rings; the bar moves its own region")
        // The pacing bar's region spans the strip's height, holds the bar at every frame
        // (entering, wrapping) and is a sliver of the strip.
        for scale in [1.0, 2.0] {
            let stripTop = 75 + layout.strip.y
            for frame in stride(from: 0.0, through: 400, by: 7) {
                let x = layout.pacingBarX(frame: frame, pixelsPerPoint: scale)
                XCTAssertTrue(x >= -12 * scale && x < layout.strip.width, "frame \(frame): bar at \(x)")
                let bar = layout.pacingBar(x: x, pixelsPerPoint: scale)
                let left = max(0, layout.strip.x + x), right = min(800, layout.strip.x + x + 12 * scale)
                if right > left {
                    XCTAssertLessThanOrEqual(Double(bar.x), left, "frame \(frame)")
                    XCTAssertGreaterThanOrEqual(Double(bar.maxX), right, "frame \(frame)")
                }
                XCTAssertLessThanOrEqual(Double(bar.y), stripTop)
                XCTAssertEqual(bar.maxY, 75 + 450)
                XCTAssertLessThanOrEqual(bar.width, Int32(12 * scale) + 3)
            }
        }
    }

    func test_sizeClassesFollowTheLogicalSizeNotTheOrientation() {
        let landscape = SceneLayout.make(area: full)
        XCTAssertEqual([landscape.horizontal, landscape.vertical], [.regular, .regular])
        XCTAssertGreaterThan(landscape.tiles.x, landscape.dial.x, "side by side")

        let portrait = SceneLayout.make(area: Rect(x: 0, y: 0, width: 720, height: 1280))
        XCTAssertEqual([portrait.horizontal, portrait.vertical], [.compact, .regular])
        XCTAssertGreaterThan(portrait.tiles.y, portrait.dial.y + portrait.dial.radius, "stacked: tiles below the dial")
        XCTAssertLessThanOrEqual(portrait.dial.x + portrait.dial.radius, 720)

        // 1280x720 pixels at scale 2 is 640x360 points: compact both ways.
        let small = SceneLayout.make(area: full, pixelsPerPoint: 2)
        XCTAssertEqual([small.horizontal, small.vertical], [.compact, .compact])
        // A short wide strip stays side by side.
        let strip = SceneLayout.make(area: Rect(x: 0, y: 0, width: 1920, height: 400))
        XCTAssertEqual([strip.horizontal, strip.vertical], [.regular, .compact])
        XCTAssertGreaterThan(strip.tiles.x, strip.dial.x)
    }

    func test_overscanScaleShrinksThePictureByHalfThePercentageOnEachSide() {
        let layout = SceneLayout.make(area: full, overscan: .scale(percent: 10))
        XCTAssertEqual(layout.canvas, Rect(x: 64, y: 36, width: 1152, height: 648))
        XCTAssertEqual(layout.safe, layout.canvas)
    }

    func test_overscanInsetKeepsTheBackgroundToTheEdgesAndEachEdgeIsItsOwn() {
        let layout = SceneLayout.make(area: full, overscan: .inset(Insets(top: 10, right: 0, bottom: 5, left: 20)))
        XCTAssertEqual(layout.canvas, full)
        XCTAssertEqual(layout.safe, Rect(x: 256, y: 72, width: 1024, height: 612))
        XCTAssertGreaterThanOrEqual(layout.dial.x - layout.dial.radius, 256, "the dial keeps out of the left inset")
        XCTAssertLessThanOrEqual(layout.tiles.x + layout.tiles.width, 1280)
    }

    func test_anAsymmetricSafeAreaInPointsMovesTheForegroundOffOneEdgeOnly() {
        let plain = SceneLayout.make(area: full, pixelsPerPoint: 1)
        let inset = SceneLayout.make(area: full, pixelsPerPoint: 1, safeArea: Insets(top: 0, right: 0, bottom: 0, left: 200))
        XCTAssertEqual(inset.safe, Rect(x: 200, y: 0, width: 1080, height: 720))
        XCTAssertGreaterThan(inset.dial.x, plain.dial.x)
        // Only the left edge moved: the safe area still reaches the other three.
        XCTAssertEqual(inset.safe.x + inset.safe.width, 1280)
        XCTAssertEqual([inset.safe.y, inset.safe.height], [0, 720])
        XCTAssertLessThanOrEqual(inset.tiles.x + inset.tiles.width, 1280)
        XCTAssertEqual(inset.bandHeight, plain.bandHeight)
        // Points become pixels at the output's scale.
        let scaled = SceneLayout.make(area: Rect(x: 0, y: 0, width: 2560, height: 1440), pixelsPerPoint: 2,
                                      safeArea: Insets(top: 10, right: 0, bottom: 0, left: 0))
        XCTAssertEqual(scaled.safe.y, 20)
    }

    func test_overscanAndSafeAreaCombine() {
        let layout = SceneLayout.make(area: full, overscan: .scale(percent: 10), safeArea: Insets(all: 10))
        XCTAssertEqual(layout.canvas, Rect(x: 64, y: 36, width: 1152, height: 648))
        XCTAssertEqual(layout.safe, Rect(x: 74, y: 46, width: 1132, height: 628))
    }
}
