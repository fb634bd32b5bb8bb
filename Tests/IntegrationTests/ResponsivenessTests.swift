import Foundation
import XCTest

/// The main thread answers the compositor whatever the render threads do: a window's
/// thread that takes seconds over a frame delays its own output and nothing else.
final class ResponsivenessTests: IntegrationTestCase {
    /// Lines `WORD NAME-OR-SERIAL MICROSECONDS` of the test compositor's standard output.
    private func latencies(_ word: String, in stdout: String) -> [(String, Int)] {
        stdout.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            guard words.count == 3, words[0] == word, let value = Int(words[2]) else { return nil }
            return (String(words[1]), value)
        }
    }

    func test_pongsAndAHotplugAreAnsweredWithin100MillisecondsWhileEveryRenderThreadIsStalled() throws {
        let compositor = try FaultyCompositor(["--output", "name=A,width=640,height=480", "--output", "name=B,width=640,height=480",
                                               "--ping-every-ms", "150"])
        let glout = try compositor.glout(["run", "--duration", "120", "--stall", "A=2000", "--stall", "B=2000"])
        defer {
            glout.signal(SIGTERM)
            XCTAssertEqual(glout.wait().status, 0, glout.stderr)
        }
        let bound = Timing.promise(0.1) * 1e6
        // Both windows exist and each has drawn a frame: their threads are now in the
        // stall of the next frame, or about to be, for two seconds in every two.
        try waitUntil("a window on A and on B, each with a first frame:\n\(glout.stderr)") {
            Set(latencies("fullscreen", in: compositor.stdout).map(\.0)) == ["A", "B"]
                && glout.stderr.components(separatedBy: "first frame").count == 3
        }
        let before = latencies("pong", in: compositor.stdout).count
        // Fourteen pings span more than one whole stall of each thread.
        try waitUntil("14 pongs with both render threads stalled") {
            latencies("pong", in: compositor.stdout).count >= before + 14
        }
        try compositor.send("add-output name=C,width=640,height=480")
        try waitUntil("glout binds C and puts a window on it:\n\(glout.stderr)") {
            latencies("fullscreen", in: compositor.stdout).contains { $0.0 == "C" }
        }
        let stdout = compositor.stdout
        let stalled = latencies("pong", in: stdout).dropFirst(before)
        XCTAssertLessThanOrEqual(stalled.map(\.1).max() ?? .max, Int(bound),
                                 "pong latencies (µs) with the render threads stalled: \(stalled.map(\.1))")
        XCTAssertFalse(compositor.log.contains("unexpected"), "a ping went unanswered until the next:\n\(compositor.log)")
        let hotplug = (bind: latencies("bound", in: stdout).first { $0.0 == "C" }?.1 ?? .max,
                       window: latencies("fullscreen", in: stdout).first { $0.0 == "C" }?.1 ?? .max)
        XCTAssertLessThanOrEqual(hotplug.bind, Int(bound), "µs from C's global to glout's bind of it")
        XCTAssertLessThanOrEqual(hotplug.window, Int(bound), "µs from C's global to glout's window on it")
    }
}
