import XCTest
import WaylandOutputs
@testable import glout

final class ScenePlacementTests: XCTestCase {
    let programs = ScenePrograms(control: 1, content: 2)

    func test_independentGivesThePrimaryTheControlViewAndOthersTheContentView() {
        let state = Scene.State(layout: .independent, primary: "A", start: 0)
        let a = Output(id: 1, name: "A"), b = Output(id: 2, name: "B")
        XCTAssertEqual(SceneRenderer.placement(of: a, width: 1280, height: 720, state: state, programs: programs).program, 1)
        let (program, canvas) = SceneRenderer.placement(of: b, width: 800, height: 600, state: state, programs: programs)
        XCTAssertEqual(program, 2)
        XCTAssertEqual(canvas, PixelRect(x: 0, y: 0, width: 800, height: 600))
    }

    func test_mirrorLetterboxesThePrimaryPictureEverywhere() {
        var state = Scene.State(layout: .mirror, primary: "A", start: 0)
        state.primaryPixelWidth = 1280
        state.primaryPixelHeight = 720
        let b = Output(id: 2, name: "B")
        let (program, canvas) = SceneRenderer.placement(of: b, width: 800, height: 600, state: state, programs: programs)
        XCTAssertEqual(program, 1)
        XCTAssertEqual(canvas, PixelRect(x: 0, y: 75, width: 800, height: 450))
    }

    func test_frozenSceneTimeIgnoresTheClock() {
        let state = Scene.State(layout: .independent, frozen: 2.5, start: 100)
        XCTAssertEqual(state.time(at: 9_000_000_000), 2.5)
        let running = Scene.State(layout: .independent, start: 1_000_000_000)
        XCTAssertEqual(running.time(at: 3_000_000_000), 2.0)
    }
}
