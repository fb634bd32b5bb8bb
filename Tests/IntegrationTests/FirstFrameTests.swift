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
            let draftLine = "output HEADLESS-1: the first frame was a draft of 640x360 scaled to the output"
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
}
