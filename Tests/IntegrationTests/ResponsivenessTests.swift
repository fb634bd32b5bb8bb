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

    /// The serials N of the test compositor's log lines `WORD N` followed by `rest`
    /// (`ping N`; `pong N unexpected`).
    private func serials(in log: String, _ word: String, then rest: [String] = []) -> [Int] {
        log.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ").map(String.init)
            guard words.count == 2 + rest.count, words[0] == word, Array(words.dropFirst(2)) == rest else { return nil }
            return Int(words[1])
        }
    }

    func test_pongsAndAHotplugAreAnsweredWithin100MillisecondsWhileEveryRenderThreadIsStalled() throws {
        try check(outputs: ["A", "B"], stalled: ["A", "B"])
    }

    func test_pongsAndAHotplugAreAnsweredWithin100MillisecondsWhileTheOnlyRenderThreadIsStalled() throws {
        try check(outputs: ["A"], stalled: ["A"])
    }

    /// glout on `outputs` (640x480 each) with the render threads of `stalled` busy two
    /// seconds a frame: every ping (one each 150 ms) and a new output C are answered
    /// within 100 ms.
    func check(outputs: [String], stalled: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let compositor = try FaultyCompositor(outputs.flatMap { ["--output", "name=\($0),width=640,height=480"] }
                                              + ["--ping-every-ms", "150"])
        let glout = try compositor.glout(["run", "--duration", "120"] + stalled.flatMap { ["--stall", "\($0)=2000"] })
        defer {
            glout.signal(SIGTERM)
            XCTAssertEqual(glout.wait().status, 0, glout.stderr, file: file, line: line)
        }
        let bound = Timing.promise(0.1) * 1e6
        // Every window exists and has drawn a frame: their threads are now in the stall of
        // the next frame, or about to be, for two seconds in every two.
        try waitUntil("a window on each of \(outputs), each with a first frame:\n\(glout.stderr)") {
            Set(latencies("fullscreen", in: compositor.stdout).map(\.0)) == Set(outputs)
                && glout.stderr.components(separatedBy: "first frame").count == outputs.count + 1
        }
        let before = latencies("pong", in: compositor.stdout).count
        // Pings sent before now came while glout was starting (start() binds and opens the
        // windows in one go; under ThreadSanitizer that took longer than a ping's 150 ms):
        // what is checked is every ping after, with the render threads stalled.
        let startupPings = serials(in: compositor.log, "ping").max() ?? 0
        // Fourteen pings span more than one whole stall of each thread.
        try waitUntil("14 pongs with the render threads stalled") {
            latencies("pong", in: compositor.stdout).count >= before + 14
        }
        try compositor.send("add-output name=C,width=640,height=480")
        try waitUntil("glout binds C and puts a window on it:\n\(glout.stderr)") {
            latencies("fullscreen", in: compositor.stdout).contains { $0.0 == "C" }
        }
        let stdout = compositor.stdout
        let stalledPongs = latencies("pong", in: stdout).dropFirst(before)
        XCTAssertLessThanOrEqual(stalledPongs.map(\.1).max() ?? .max, Int(bound),
                                 "pong latencies (µs) with the render threads stalled: \(stalledPongs.map(\.1))", file: file, line: line)
        let superseded = serials(in: compositor.log, "pong", then: ["unexpected"]).filter { $0 > startupPings }
        XCTAssertEqual(superseded, [], "a ping went unanswered until the next:\n\(compositor.log)", file: file, line: line)
        let hotplug = (bind: latencies("bound", in: stdout).first { $0.0 == "C" }?.1 ?? .max,
                       window: latencies("fullscreen", in: stdout).first { $0.0 == "C" }?.1 ?? .max)
        XCTAssertLessThanOrEqual(hotplug.bind, Int(bound), "µs from C's global to glout's bind of it", file: file, line: line)
        XCTAssertLessThanOrEqual(hotplug.window, Int(bound), "µs from C's global to glout's window on it", file: file, line: line)
    }
}
