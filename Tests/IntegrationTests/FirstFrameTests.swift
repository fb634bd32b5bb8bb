import Foundation
import XCTest

/// On a CPU rasterizer (llvmpipe here) glout's first frame on each output is a draft at
/// half the width and height that the compositor scales to the whole output; the second
/// frame is whole (FullscreenSurface.Options.draftFirstFrame).
final class FirstFrameTests: IntegrationTestCase {
    func test_theDraftFirstFrameCoversTheOutputAndTheWholeFrameFollows() throws {
        for scale in [1, 2] {
            let sway = try Compositor.sway(["1280x720@60"], scale: scale)
            var environment = sway.environment
            environment["GLOUT_DEBUG"] = "1"
            // Every frame waits 3 s before it is drawn: the draft stays on screen that long.
            let glout = try Child(Paths.glout, ["run", "--control", "none", "--no-label", "--frozen", "1",
                                                "--stall", "HEADLESS-1=3000", "--duration", "120"], environment: environment)
            // The content view's draft is written by the CPU: no program's code waits to be
            // compiled for it.
            let draftLine = "output HEADLESS-1: the first frame was a draft of 640x360 scaled to the output, written without GL"
            try waitUntil("glout commits its draft first frame (scale \(scale))") { glout.stderr.contains(draftLine) }
            // sway shows a newly mapped window once it has answered sway's next configure
            // or 200 ms later (its transaction timeout).
            var draft = try sway.screenshot("HEADLESS-1")
            try waitUntil("sway shows the draft") {
                draft = try sway.screenshot("HEADLESS-1")
                return !draft.isUniform
            }
            XCTAssertFalse(glout.stderr.contains("HEADLESS-1: idle after"),
                           "the whole frame came before the draft could be captured (scale \(scale))")
            try waitUntil("the whole frame follows, then the picture rests") { glout.stderr.contains("HEADLESS-1: idle after") }
            let whole = try sway.screenshot("HEADLESS-1")
            XCTAssertEqual([draft.width, draft.height], [1280, 720])
            // The draft is the same picture at a quarter of the pixels: not equal to the
            // whole one, but close to it everywhere. (Shown unscaled, it would fill the
            // top left quarter and leave the rest of the output blank.)
            XCTAssertNotEqual(draft, whole, "scale \(scale): the draft is the whole picture")
            let (coarseDraft, coarseWhole) = (draft.scaled(width: 32, height: 18), whole.scaled(width: 32, height: 18))
            var worst = 0
            for y in 0..<18 {
                for x in 0..<32 {
                    let (a, b) = (coarseDraft.pixel(x, y), coarseWhole.pixel(x, y))
                    worst = max(worst, abs(a.r - b.r), abs(a.g - b.g), abs(a.b - b.b))
                }
            }
            XCTAssertLessThanOrEqual(worst, 12, "scale \(scale): the draft does not cover the output like the whole picture")
            glout.signal(SIGTERM)
            let finished = glout.wait()
            XCTAssertEqual(finished.status, 0, finished.stderr)
            sway.stop()
        }
    }

    /// With Mesa's shader cache empty, llvmpipe compiles every program with LLVM and the
    /// first frames take hundreds of milliseconds. That is glout's own time: its display
    /// links count the wait for a frame callback from the commit, so none of the eight
    /// outputs is said to have stopped getting callbacks.
    func test_aColdStartOnEightOutputsSaysNoOutputStoppedGettingCallbacks() throws {
        let names = (1...8).map { "HEADLESS-\($0)" }
        let sway = try Compositor.sway(["1280x720@60", "1280x720@60"] + Array(repeating: "800x600@60", count: 6))
        let cache = Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: cache) }
        // Four seconds in all (first frames take about half a second cold here): the first
        // frames, and the frames after them in which a suspension said late would be.
        let finished = try sway.glout(["run", "--duration", "\(4 * Timing.slowdown)"],
                                      extra: ["XDG_CACHE_HOME": cache.path,
                                              "MESA_SHADER_CACHE_DIR": cache.appendingPathComponent("mesa").path]).wait()
        XCTAssertEqual(finished.status, 0, finished.stderr)
        for name in names {
            XCTAssertTrue(finished.stderr.contains("output \(name): first frame"), "no first frame on \(name): \(finished.stderr)")
        }
        XCTAssertFalse(finished.stderr.contains("no frame callback"), finished.stderr)
        let cached = FileManager.default.enumerator(atPath: cache.path)?.allObjects.count ?? 0
        XCTAssertGreaterThan(cached, 0, "Mesa wrote nothing into the empty cache: the start was not cold")
    }

    /// A renderer slower than the stall timeout (250 ms) is glout's own time too: the link
    /// that waits 400 ms in every frame is never said to be suspended.
    func test_aFrameSlowerThanTheStallTimeoutIsNoSuspension() throws {
        let sway = try Compositor.sway(["1280x720@60", "800x600@60"])
        let stats = Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: stats) }
        let file = stats.appendingPathComponent("stats.json").path
        let run = try sway.glout(["run", "--duration", "3", "--stall", "HEADLESS-2=400", "--stats-json", file]).wait()
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertFalse(run.stderr.contains("no frame callback"), run.stderr)
        let outputs = outputsByName(try readJSON(file))
        XCTAssertEqual(outputs["HEADLESS-2"]?["suspensions"] as? Int, 0, "\(outputs)")
        XCTAssertGreaterThanOrEqual(outputs["HEADLESS-2"]?["frames"] as? Int ?? 0, 3, "the stalled output still draws")
    }
}
