import XCTest
import WaylandOutputs
@testable import glout

final class ScenePlacementTests: XCTestCase {
    func test_independentGivesThePrimaryTheControlViewAndOthersTheContentView() {
        let state = Scene.State(layout: .independent, primary: "A", start: 0)
        let a = Output(id: 1, name: "A"), b = Output(id: 2, name: "B")
        XCTAssertEqual(SceneRenderer.placement(of: a, width: 1280, height: 720, state: state).view, .control)
        let (view, canvas) = SceneRenderer.placement(of: b, width: 800, height: 600, state: state)
        XCTAssertEqual(view, .content)
        XCTAssertEqual(canvas, PixelRect(x: 0, y: 0, width: 800, height: 600))
    }

    func test_mirrorLetterboxesThePrimaryPictureEverywhere() {
        var state = Scene.State(layout: .mirror, primary: "A", start: 0)
        state.primaryPixelWidth = 1280
        state.primaryPixelHeight = 720
        let b = Output(id: 2, name: "B")
        let (view, canvas) = SceneRenderer.placement(of: b, width: 800, height: 600, state: state)
        XCTAssertEqual(view, .control)
        XCTAssertEqual(canvas, PixelRect(x: 0, y: 75, width: 800, height: 450))
    }

    func test_frozenSceneTimeIgnoresTheClock() {
        let state = Scene.State(layout: .independent, frozen: 2.5, start: 100)
        XCTAssertEqual(state.time(at: 9_000_000_000), 2.5)
        let running = Scene.State(layout: .independent, start: 1_000_000_000)
        XCTAssertEqual(running.time(at: 3_000_000_000), 2.0)
    }

    func test_dynamicRegionsStayInsideTheCanvasAndCoverTheMovingParts() {
        let canvas = PixelRect(x: 0, y: 75, width: 800, height: 450)
        for view in [SceneView.control, .content] {
            for region in SceneRenderer.dynamicRegions(of: view, canvas: canvas) {
                XCTAssertGreaterThanOrEqual(region.x, canvas.x)
                XCTAssertGreaterThanOrEqual(region.y, canvas.y)
                XCTAssertLessThanOrEqual(region.x + region.width, canvas.x + canvas.width)
                XCTAssertLessThanOrEqual(region.y + region.height, canvas.y + canvas.height)
            }
        }
        // The dial (centre 0.25 w, 0.52 h, radius 0.28 h) lies inside the control region.
        let dial = SceneRenderer.dynamicRegions(of: .control, canvas: canvas)[0]
        let centre = (x: 0.25 * 800.0, y: 75 + 0.52 * 450.0), radius = 0.28 * 450.0
        XCTAssertLessThanOrEqual(Double(dial.x), centre.x - radius)
        XCTAssertGreaterThanOrEqual(Double(dial.x + dial.width), centre.x + radius)
        XCTAssertLessThanOrEqual(Double(dial.y), centre.y - radius)
        XCTAssertGreaterThanOrEqual(Double(dial.y + dial.height), centre.y + radius)
        // The pacing strip spans the whole width of the bottom tenth.
        let strip = SceneRenderer.dynamicRegions(of: .content, canvas: canvas)[1]
        XCTAssertEqual(strip.width, 800)
        XCTAssertEqual(strip.y + strip.height, 75 + 450)
    }
}
