import Foundation
import XCTest
@testable import glout

/// Outputs that come, go and change under a running glout: a sway whose outputs can be
/// unplugged (``HotplugRig``: nested sway 1.7, or headless sway 1.10), headless sway, and
/// phoc (whose outputs come back under their old names).
final class HotplugTests: IntegrationTestCase {
    var rig: HotplugRig!
    var child: Compositor { rig.compositor }
    var folder: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        folder = Paths.temporaryFolder()
    }

    override func tearDown() {
        rig = nil
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    /// A sway with `outputs` outputs that can be unplugged (see ``HotplugRig``).
    func startRig(outputs: Int = 2) throws {
        rig = try HotplugRig(outputs: outputs)
    }

    /// The n-th output of the rig ("WL-2" or "HEADLESS-2").
    func output(_ n: Int) -> String { rig.name(n) }

    func gloutOutputs(_ compositor: Compositor) throws -> [String] {
        try compositor.views().filter { $0.appID == "glout" && $0.fullscreen }.map(\.output).sorted()
    }

    func test_unplugAndPlugKeepTheOtherOutputDrawingAndGiveTheNewOneAWindowWithinASecond() throws {
        try startRig()
        let stats = folder.appendingPathComponent("stats.json").path
        let glout = try child.glout(["run", "--duration", "60", "--stats-json", stats])
        try child.waitForGlout(on: [output(1), output(2)], frozen: false)

        try rig.unplug(output(2))
        try waitUntil("glout logs the disconnect") { glout.stderr.contains("output \(output(2)): disconnected") }
        // The first output keeps animating: a capture differs from the one before.
        let first = try child.screenshot(output(1))
        try waitUntil("\(output(1)) keeps updating after \(output(2)) left") { try child.screenshot(output(1)) != first }

        try rig.plug()
        let plugged = Date()
        try waitUntil("a glout window on \(output(3))") { try gloutOutputs(child).contains(output(3)) }
        let windowed = Date().timeIntervalSince(plugged)
        try waitUntil("glout's picture on \(output(3))") { !(try child.screenshot(output(3))).isUniform }
        // The promise: a window within a second, and the first frame within a second of the
        // output (first_frame_ms, below). When grim sees it is the compositor's: sway 1.10
        // has shown a new output's first frames 3.3 s late on a loaded machine, while
        // glout had committed its first 0.13 s after the output appeared.
        XCTAssertLessThan(windowed, Timing.promise(1), "the window on \(output(3)) came after \(windowed) s")
        try waitUntil("glout logs \(output(3))'s first frame") { glout.stderr.contains("output \(output(3)): first frame") }
        XCTAssertTrue(glout.isRunning)

        glout.signal(SIGTERM)
        let finished = glout.wait()
        XCTAssertEqual(finished.status, 0, finished.stderr)
        let report = outputsByName(try readJSON(stats))
        XCTAssertEqual(report[output(2)]?["disconnected"] as? Bool, true, "the stats of an output that left are kept")
        XCTAssertEqual(report[output(3)]?["disconnected"] as? Bool, false)
        XCTAssertGreaterThan(report[output(3)]?["first_frame_ms"] as? Double ?? 0, 0)
        XCTAssertLessThan(report[output(3)]?["first_frame_ms"] as? Double ?? .infinity, Timing.promise(1000))
    }

    func test_whenThePrimaryLeavesTheNextOutputShowsTheControlView() throws {
        try startRig()
        let glout = try child.glout(["run", "--duration", "60", "--frozen", "1"])
        try child.waitForGlout(on: [output(1), output(2)])
        XCTAssertTrue(isControlView(try child.screenshot(output(1))))
        XCTAssertFalse(isControlView(try child.screenshot(output(2))))

        try rig.unplug(output(1))
        try waitUntil("\(output(2)) shows the control view") { isControlView(try child.screenshot(output(2))) }
        try waitUntil("glout logs \(output(2)) as the primary") { glout.stderr.contains("output \(output(2)) is now the primary") }

        // A newcomer is a secondary: it shows the content view, the new primary keeps the control view.
        try rig.plug()
        try waitUntil("\(output(3)) shows the content view") {
            let picture = try child.screenshot(output(3))
            return !picture.isUniform && !isControlView(picture)
        }
        XCTAssertTrue(isControlView(try child.screenshot(output(2))))
        glout.signal(SIGINT)
        XCTAssertEqual(glout.wait().status, 0)
    }

    func test_thePrimaryThatReturnsUnderItsNameGetsItsRoleBack() throws {
        // phoc removes a wl_output that is turned off and brings it back under the same
        // name when it is turned on; it lays its two outputs out as HEADLESS-2, HEADLESS-1.
        // The content stays animated: phoc scans a fullscreen client's buffer out, and its
        // screencopy then hands out the last frame it composited itself, so a still
        // picture (which commits nothing more) could be captured as the view before it.
        // phoc 0.24 (Debian 12) goes further: after an output leaves, what it composites
        // for the other keeps the picture of before under the regions a frame damages
        // (wl_surface.damage_buffer) until every frame damages all of it, so there the
        // pictures are what glout commits (GLOUT_DUMP_FRAMES), written each time a window
        // draws its picture whole.
        let phoc = try Compositor.phoc(outputs: 2)
        let dumps = folder.appendingPathComponent("dumps")
        try FileManager.default.createDirectory(at: dumps, withIntermediateDirectories: true)
        let glout = try phoc.glout(["run", "--duration", "60"], extra: ["GLOUT_DUMP_FRAMES": dumps.path])
        func picture(_ name: String) throws -> Image {
            guard Stack.current == .debian12 else { return try phoc.screenshot(name) }
            let path = dumps.appendingPathComponent("\(name).png").path
            guard FileManager.default.fileExists(atPath: path) else { throw HarnessError("no picture of \(name) yet") }
            let image = try ContentImage(png: try FileSystem.readHeld(path, for: "GLOUT_DUMP_FRAMES", limit: 64 << 20), path: path)
            var rgb: [UInt8] = []
            rgb.reserveCapacity(image.width * image.height * 3)
            for pixel in stride(from: 0, to: image.pixels.count, by: 4) { rgb += image.pixels[pixel..<pixel + 3] }
            return Image(width: image.width, height: image.height, pixels: rgb)
        }
        try waitUntil("glout draws on both outputs") {
            glout.stderr.components(separatedBy: "first frame").count == 3
        }
        // phoc 0.46 gives its headless modes no refresh ("1280x720"), 0.24 60 Hz.
        XCTAssertNotNil(glout.stderr.range(of: #"output HEADLESS-2: 1280x720(@60\.000Hz)?, scale 1, 1280x720 at 0,0, primary"#,
                                           options: .regularExpression), glout.stderr)
        // wlr-randr says "failed to apply configuration" (status 1) to phoc 0.24 both ways,
        // although phoc turns the output off and on: what counts is what glout and the
        // screen show.
        _ = try? phoc.tool("wlr-randr", ["--output", "HEADLESS-2", "--off"])
        try waitUntil("HEADLESS-1 shows the control view") { (try? isControlView(picture("HEADLESS-1"))) ?? false }
        try waitUntil("glout logs the disconnect and the new primary") {
            glout.stderr.contains("output HEADLESS-2: disconnected") && glout.stderr.contains("output HEADLESS-1 is now the primary")
        }
        // It returns to the right of HEADLESS-1, so by order alone it would be a secondary.
        // With a mode given: phoc 0.46 lists none for an output that is off, and refuses
        // the empty custom mode wlr-randr otherwise sends ("invalid custom mode").
        try? FileManager.default.removeItem(at: dumps.appendingPathComponent("HEADLESS-2.png"))
        _ = try? phoc.tool("wlr-randr", ["--output", "HEADLESS-2", "--on", "--custom-mode", "1280x720@60Hz", "--pos", "2560,0"])
        try waitUntil("HEADLESS-2 is back and shows the control view") {
            (try? isControlView(picture("HEADLESS-2"))) ?? false
        }
        try waitUntil("HEADLESS-1 shows the content view") { (try? !isControlView(picture("HEADLESS-1"))) ?? false }
        try waitUntil("glout logs HEADLESS-2 as the primary") { glout.stderr.contains("output HEADLESS-2 is now the primary") }
        glout.signal(SIGINT)
        XCTAssertEqual(glout.wait().status, 0)
    }

    func test_watchJSONReportsConnectAndDisconnect() throws {
        try startRig()
        let watch = try child.glout(["outputs", "--watch", "--json", "--duration", "20"])
        try waitUntil("the present outputs") { watch.stdout.split(separator: "\n").count >= 2 }
        try rig.unplug(output(2))
        try waitUntil("a disconnected event") { watch.stdout.contains("\"event\":\"disconnected\"") }
        try rig.plug()
        try waitUntil("\(output(3)) connected") { watch.stdout.contains("\"name\":\"\(output(3))\"") }
        watch.signal(SIGINT)
        let finished = watch.wait()
        XCTAssertEqual(finished.status, 0, finished.stderr)
        let events = finished.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let summary = events.map { event -> String in
            let output = event["output"] as? [String: Any]
            return "\(event["event"] as? String ?? "?") \(output?["name"] as? String ?? "?")"
        }
        XCTAssertEqual(Array(summary.prefix(2)), ["connected \(output(1))", "connected \(output(2))"])
        XCTAssertTrue(summary.contains("disconnected \(output(2))"), "\(summary)")
        XCTAssertTrue(summary.contains("connected \(output(3))"), "\(summary)")
        XCTAssertLessThan(summary.firstIndex(of: "disconnected \(output(2))")!, summary.firstIndex(of: "connected \(output(3))")!)
        // Every line is a whole output description in the documented schema.
        for event in events {
            let output = event["output"] as? [String: Any]
            XCTAssertNotNil(output?["logical"] as? [String: Any])
            XCTAssertNotNil(output?["modes"] as? [[String: Any]])
        }
    }

    func test_zeroOutputsWaitsOrExitsWhenAsked() throws {
        try startRig(outputs: 1)
        let waiting = try child.glout(["run", "--duration", "60"])
        try child.waitForGlout(on: [output(1)], frozen: false)
        try rig.unplug(output(1))
        try waitUntil("glout says it waits") { waiting.stderr.contains("waiting for one to connect") }
        XCTAssertTrue(waiting.isRunning)
        try rig.plug()
        try waitUntil("a window on the new output") { try gloutOutputs(child).contains(output(2)) }
        XCTAssertEqual(waiting.stderr.components(separatedBy: "waiting for one to connect").count, 2, "said once")

        let exiting = try child.glout(["run", "--duration", "60", "--exit-when-no-outputs"])
        try waitUntil("both glouts on \(output(2))") { try child.views().filter { $0.appID == "glout" }.count == 2 }
        try rig.unplug(output(2))
        let finished = exiting.wait()
        XCTAssertEqual(finished.status, 0, finished.stderr)
        XCTAssertTrue(finished.stderr.contains("--exit-when-no-outputs"), finished.stderr)
        waiting.signal(SIGTERM)
        XCTAssertEqual(waiting.wait().status, 0)
    }

    func test_killingTheCompositorEndsGloutWithinASecondAndKeepsTheStats() throws {
        let sway = try Compositor.sway(["1280x720@60", "800x600@30"])
        let stats = folder.appendingPathComponent("stats.json").path
        let glout = try sway.glout(["run", "--duration", "60", "--stats-json", stats])
        try sway.waitForGlout(on: ["HEADLESS-1", "HEADLESS-2"], frozen: false)
        kill(sway.pid!, SIGKILL)
        let killed = Date()
        let finished = glout.wait()
        XCTAssertLessThan(Date().timeIntervalSince(killed), Timing.promise(1))
        XCTAssertEqual(finished.status, 4, finished.stderr)
        XCTAssertTrue(finished.stderr.contains("lost the compositor"), finished.stderr)
        XCTAssertFalse(finished.signaled, "glout crashed: \(finished.stderr)")
        let report = try readJSON(stats)
        XCTAssertEqual(report["ended_by"] as? String, "error")
        XCTAssertEqual(outputsByName(report).count, 2)
        XCTAssertGreaterThan(outputsByName(report)["HEADLESS-1"]?["frames"] as? Int ?? 0, 10)
    }
}

/// Live changes to the outputs of a headless sway under a running glout.
final class OutputChangeTests: IntegrationTestCase {
    /// Where the control view does not cover `picture` (empty when it does): the accent
    /// band must run along the whole top and the dark panel reach both bottom corners
    /// (sway's own background would show as grey or black).
    func gapsInControlView(_ picture: Image) -> [String] {
        let w = picture.width, h = picture.height
        var gaps: [String] = []
        for x in [1, w / 2, w - 2] {
            let band = picture.pixel(x, max(1, h / 50))
            if !(band.r > band.g && band.g > band.b && band.r > 90) { gaps.append("no band at \(x): \(band)") }
        }
        for (x, y) in [(1, h - 2), (w - 2, h - 2)] {
            let panel = picture.pixel(x, y)
            if !(panel.b > panel.r && panel.b > 10 && panel.b < 80) { gaps.append("no panel at \(x),\(y): \(panel)") }
        }
        return gaps
    }

    func test_modeScaleAndTransformChangesResizeTheWindowToCoverTheOutput() throws {
        let sway = try Compositor.sway(["1280x720@60"])
        let glout = try sway.glout(["run", "--frozen", "1", "--duration", "120"])
        try sway.waitForGlout(on: ["HEADLESS-1"])
        XCTAssertEqual(gapsInControlView(try sway.screenshot("HEADLESS-1")), [], "start")

        let changes: [(command: [String], width: Int, height: Int)] = [
            (["output", "HEADLESS-1", "mode", "1024x768@60Hz"], 1024, 768),
            (["output", "HEADLESS-1", "scale", "2"], 1024, 768),
            (["output", "HEADLESS-1", "transform", "90"], 768, 1024),
            (["output", "HEADLESS-1", "transform", "normal", "scale", "1", "mode", "800x600@30Hz"], 800, 600),
        ]
        for change in changes {
            _ = try sway.swaymsg(change.command)
            let what = change.command.joined(separator: " ")
            // The output takes its new size at once; glout's window follows a few frames later.
            var gaps: [String] = []
            try waitUntil("after \(what), glout covers the output at \(change.width)x\(change.height) (\(gaps))") {
                let picture = try sway.screenshot("HEADLESS-1")
                gaps = picture.width == change.width && picture.height == change.height
                    ? gapsInControlView(picture) : ["size \(picture.width)x\(picture.height)"]
                return gaps.isEmpty
            }
        }
        XCTAssertTrue(glout.stderr.contains("changed"), glout.stderr)

        // A new output while running gets its own window.
        _ = try sway.swaymsg("create_output")
        try sway.waitForGlout(on: ["HEADLESS-2"])
        XCTAssertTrue(glout.isRunning)
        glout.signal(SIGTERM)
        XCTAssertEqual(glout.wait().status, 0)
    }

    func test_aHiddenOutputSuspendsOnlyItsOwnDisplayLinkAndResumes() throws {
        let sway = try Compositor.sway(["1280x720@60", "800x600@30"])
        let folder = Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stats = folder.appendingPathComponent("stats.json").path
        let glout = try sway.glout(["run", "--duration", "6", "--stats-json", stats])
        try sway.waitForGlout(on: ["HEADLESS-1", "HEADLESS-2"], frozen: false)
        // Show an empty workspace on HEADLESS-2: glout's window there is hidden and gets
        // no frame callbacks; later show it again.
        _ = try sway.swaymsg("focus output HEADLESS-2")
        _ = try sway.swaymsg("workspace hidden")
        try waitUntil("glout suspends HEADLESS-2's display link") {
            glout.stderr.contains("output HEADLESS-2: no frame callback")
        }
        _ = try sway.swaymsg("workspace back_and_forth")
        try waitUntil("HEADLESS-2's callbacks resume") { glout.stderr.contains("output HEADLESS-2: frame callbacks resumed") }
        let finished = glout.wait(timeout: 6 + Timing.patience)
        XCTAssertEqual(finished.status, 0, finished.stderr)
        XCTAssertTrue(finished.stderr.contains("output HEADLESS-2: no frame callback"), finished.stderr)
        XCTAssertTrue(finished.stderr.contains("output HEADLESS-2: frame callbacks resumed"), finished.stderr)
        let report = outputsByName(try readJSON(stats))
        XCTAssertEqual(report["HEADLESS-2"]?["suspensions"] as? Int, 1)
        XCTAssertEqual(report["HEADLESS-1"]?["suspensions"] as? Int, 0)
        // HEADLESS-1 never waited for HEADLESS-2.
        XCTAssertGreaterThan(report["HEADLESS-1"]?["fps"] as? Double ?? 0, 0.8 * 62.5)
    }
}

/// Many unplug and plug cycles while glout renders: nothing may leak or crash.
final class StormTests: IntegrationTestCase {
    struct Usage: CustomStringConvertible {
        var descriptors: Int
        var threads: Int
        var description: String { "\(descriptors) fds, \(threads) threads" }
    }

    func usage(of pid: pid_t) throws -> Usage {
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count
        let threads = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").count
        return Usage(descriptors: descriptors, threads: threads)
    }

    /// A field of /proc/PID/status in kB ("RssAnon", "VmRSS").
    func status(_ field: String, of pid: pid_t) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        return status.split(separator: "\n").first { $0.hasPrefix(field + ":") }?
            .split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    }

    /// Anonymous resident memory (RssAnon: the heap and llvmpipe's buffers, not the pages
    /// of libraries, which grow as new code runs), the smallest of three readings 100 ms
    /// apart: while windows draw, buffers come and go between readings.
    func anonymousFloor(of pid: pid_t) throws -> Int {
        var floor = Int.max
        for _ in 0..<3 {
            usleep(100_000)
            floor = min(floor, try status("RssAnon", of: pid))
        }
        return floor
    }

    /// How far the median anonymous floor of the last ten cycles may lie above that of
    /// the first ten (kB). Measured without a leak, 7 storms of 50 cycles with one core
    /// held by a busy loop (2026-11-30, debug glout): +44 to +168 kB, on floors of about
    /// 49 MB. 1 MB is six times the widest seen; a window's buffers left behind
    /// per cycle (about 2 MB each at 800x600) would add 80 MB, and a leak of 25 kB a
    /// cycle crosses it.
    static let floorNoise = 1024

    /// GLOUT_STORM_CYCLES overrides the 50 cycles (scripts/storm-asan runs fewer, slower).
    var cycles: Int { ProcessInfo.processInfo.environment["GLOUT_STORM_CYCLES"].flatMap(Int.init) ?? 50 }

    func test_fiftyUnplugAndPlugCyclesLeakNoThreadsDescriptorsOrMemory() throws {
        let rig = try HotplugRig(outputs: 2)
        let child = rig.compositor
        let glout = try child.glout(["run", "--duration", "600"])
        try child.waitForGlout(on: [rig.name(1), rig.name(2)], frozen: false)

        func gloutOn(_ name: String) throws -> Bool {
            try child.views().contains { $0.appID == "glout" && $0.output == name && $0.fullscreen }
        }
        /// Unplugs `old`, plugs a new output and waits until glout has drawn on it.
        func cycle(unplugging old: String, plugging new: String) throws {
            try rig.unplug(old)
            try waitUntil("glout logs that \(old) left") { glout.stderr.contains("output \(old): disconnected") }
            try rig.plug()
            try waitUntil("glout draws on \(new)") { glout.stderr.contains("output \(new): first frame") }
        }

        // Two warm-up cycles: Mesa and the allocator reach their steady size.
        try cycle(unplugging: rig.name(2), plugging: rig.name(3))
        try cycle(unplugging: rig.name(3), plugging: rig.name(4))
        let start = try usage(of: glout.pid)
        // Memory is judged by like readings: the anonymous floor after each cycle, the
        // median of the last ten cycles against that of the first ten.
        var floors: [Int] = []
        var newest = 4
        for _ in 0..<cycles {
            try cycle(unplugging: rig.name(newest), plugging: rig.name(newest + 1))
            newest += 1
            guard glout.isRunning else { break }
            floors.append(try anonymousFloor(of: glout.pid))
        }
        XCTAssertTrue(glout.isRunning, "glout died in the storm: \(glout.stderr.suffix(2000))")
        let end = try usage(of: glout.pid)
        func median(_ values: ArraySlice<Int>) -> Int { values.sorted()[values.count / 2] }
        let first = median(floors.prefix(10)), last = median(floors.suffix(10))
        print("storm anonymous floors (kB): \(floors)")
        print("storm: \(cycles) cycles: before \(start), after \(end); anonymous floor \(first) -> \(last) kB")
        XCTAssertLessThanOrEqual(abs(end.descriptors - start.descriptors), 2, "descriptors: \(start) -> \(end)")
        XCTAssertLessThanOrEqual(abs(end.threads - start.threads), 2, "threads: \(start) -> \(end)")
        // Under AddressSanitizer (scripts/sanitize address) freed memory sits in its quarantine.
        if !Timing.sanitized {
            XCTAssertLessThan(last - first, StormTests.floorNoise, "anonymous floor grew from \(first) to \(last) kB")
        }
        // Compositors shuffle windows as outputs go; glout puts them back within seconds.
        try waitUntil("glout's windows on \(rig.name(1)) and \(rig.name(newest))") {
            try gloutOn(rig.name(1)) && gloutOn(rig.name(newest))
        }
        glout.signal(SIGTERM)
        let finished = glout.wait()
        XCTAssertEqual(finished.status, 0)
        XCTAssertFalse(finished.stderr.contains("AddressSanitizer"), finished.stderr)
    }
}
