import Foundation
import XCTest
@testable import glout

/// Video items of a show on headless sway: the frame the show's clock calls for, upright
/// in its zone; played in turn with another item, from its first frame each time, with no
/// gap at either change; what the play log says of them.
extension ShowPlaybackTests {
    /// A coded clip (3 s at 24 fps, its own length) then 1 s of green in one zone, and a clip
    /// red on top and blue below in another, both at the right sizes for a 1280x720 output.
    private func makeVideoShow() throws -> String {
        try CodedClip.make(at: folder.appendingPathComponent("coded.mp4").path, fps: 24, seconds: 3)
        let made = try Child("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=red:s=320x90:r=30:d=2",
                                                 "-f", "lavfi", "-i", "color=c=blue:s=320x90:r=30:d=2", "-filter_complex",
                                                 "vstack", "-c:v", "libx264", "-pix_fmt", "yuv420p",
                                                 folder.appendingPathComponent("halves.mp4").path]).wait()
        guard made.status == 0 else { throw HarnessError("ffmpeg could not make halves.mp4: \(made.stderr)") }
        return try write("videos.json", """
            {"background": "#202020", "outputs": {"*": {"zones": [
              {"name": "coded", "rect": {"width": 640, "height": 360}, "items": [
                {"video": "coded.mp4", "fit": "stretch"}, {"color": "#00ff00", "seconds": 1}]},
              {"name": "halves", "rect": {"x": 640, "width": 640, "height": 360}, "items": [{"video": "halves.mp4"}]}]}}}
            """)
    }

    /// Held at an instant half a second into a pass of the coded clip (the zone's list is
    /// 4 s long and loops from 1970): frame 12 fills the zone, and the other clip is upright.
    func test_aVideoItemShowsTheFrameItsTimeCallsForUpright() throws {
        let sway = try Compositor.sway(["1280x720@60"])
        let show = try makeVideoShow()
        let glout = try sway.glout(["run", "--show", show, "--frozen", "1800000000.5", "--duration", "60"])
        try sway.waitForGlout(on: ["HEADLESS-1"])
        let screen = try sway.screenshot("HEADLESS-1")
        XCTAssertEqual(CodedClip.frameNumber(screen, width: 640, row: 180), 12, "the coded clip's frame")
        XCTAssertTrue(near(screen.pixel(960, 40), 255, 0, 0, within: 24), "red on top: \(screen.pixel(960, 40))")
        XCTAssertTrue(near(screen.pixel(960, 320), 0, 0, 255, within: 24), "blue below: \(screen.pixel(960, 320))")
        XCTAssertTrue(near(screen.pixel(640, 500), 32, 32, 32), "the background below the zones")
        glout.signal(SIGTERM)
        let finished = glout.wait()
        XCTAssertEqual(finished.status, 0, finished.stderr)
    }

    /// Live: the coded clip's frames go forward on the screen, green follows it, and it
    /// comes back from its start; the play log has each item end at the refresh the next
    /// starts, the clip for its 3 s.
    func test_aVideoItemPlaysInTurnFromItsStartWithNoGap() throws {
        let sway = try Compositor.sway(["1280x720@60"])
        let show = try makeVideoShow()
        let log = folder.appendingPathComponent("play.jsonl").path
        let glout = try sway.glout(["run", "--show", show, "--play-log", log, "--duration", "60"])
        try sway.waitForGlout(on: ["HEADLESS-1"], frozen: false)
        var frames: [Int] = []
        var sawGreen = false, cameBack = false
        try waitUntil("the clip, then green, then the clip from its start (frames seen: \(frames.suffix(20)))") {
            let screen = try sway.screenshot("HEADLESS-1")
            if let number = CodedClip.frameNumber(screen, width: 640, row: 180) {
                if sawGreen && number < 36 { cameBack = true }
                frames.append(number)
            } else if near(screen.pixel(320, 180), 0, 255, 0) {
                sawGreen = true
            }
            return cameBack && Set(frames).count >= 4
        }
        XCTAssertTrue(frames.allSatisfy { $0 < 72 }, "a 3 s clip at 24 fps has frames 0 to 71: \(frames)")
        try waitUntil("four lines of the coded zone in the play log") {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").components(separatedBy: "\"zone\":\"coded\"").count > 4
        }
        glout.signal(SIGTERM)
        let finished = glout.wait()
        XCTAssertEqual(finished.status, 0, finished.stderr)
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map { line in
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], String(line))
        }
        let coded = lines.filter { $0["zone"] as? String == "coded" }
        for (before, after) in zip(coded, coded.dropFirst()) {
            XCTAssertNotEqual(before["item"] as? String, after["item"] as? String, "the clip and green in turn")
            XCTAssertEqual(before["end"] as! Double, after["start"] as! Double, "\(before) ends where \(after) starts")
        }
        for line in coded.dropFirst().dropLast() where line["item"] as? String == "coded.mp4" {
            let length = (line["end"] as! Double) - (line["start"] as! Double)
            XCTAssertEqual(length, 3, accuracy: Double((line["missed"] as! Int) + 2) / 60, "the clip's own length: \(line)")
        }
    }
}
