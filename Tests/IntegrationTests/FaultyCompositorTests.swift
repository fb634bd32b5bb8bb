import Foundation
import XCTest

/// glout against the project's own test compositor, which sends what no real compositor
/// here will: every class of wrong or extreme value. In each scenario glout must end by
/// itself with a documented status (0 to 4), never by a signal, within a bounded time,
/// and say what the compositor did; the compositor must still be running.
final class FaultyCompositorTests: IntegrationTestCase {
    /// One scenario: the compositor's options, glout's command, the statuses allowed and
    /// what glout's standard error must say.
    struct Scenario {
        var name: String
        var compositor: [String]
        var glout: [String] = ["run", "--duration", "1.5"]
        var statuses: Set<Int32> = [0]
        var says: [String] = []
        /// More checks, given glout's end and its stats (run --stats-json).
        var check: ((Finished, [String: Any]?) throws -> Void)?
    }

    /// Runs each scenario on a compositor of its own.
    func run(_ scenarios: [Scenario], file: StaticString = #filePath, line: UInt = #line) throws {
        for scenario in scenarios {
            let compositor = try FaultyCompositor(scenario.compositor)
            let folder = Paths.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let stats = folder.appendingPathComponent("stats.json").path
            let arguments = scenario.glout + (scenario.glout.first == "run" ? ["--stats-json", stats] : [])
            let started = Date()
            let finished = try compositor.glout(arguments).wait(timeout: Timing.patience, file: file, line: line)
            let what = "\(scenario.name) (\(scenario.compositor.joined(separator: " ")))"
            XCTAssertFalse(finished.signaled, "\(what): glout was killed by signal \(finished.status - 128):\n\(finished.stderr)",
                           file: file, line: line)
            XCTAssertTrue(scenario.statuses.contains(finished.status),
                          "\(what): status \(finished.status), expected \(scenario.statuses.sorted()):\n\(finished.stderr)",
                          file: file, line: line)
            XCTAssertFalse(finished.stderr.contains("Fatal error"), "\(what):\n\(finished.stderr)", file: file, line: line)
            XCTAssertLessThan(Date().timeIntervalSince(started), Timing.patience, what, file: file, line: line)
            for phrase in scenario.says {
                XCTAssertTrue(finished.stderr.contains(phrase), "\(what): glout does not say '\(phrase)':\n\(finished.stderr)",
                              file: file, line: line)
            }
            XCTAssertTrue(compositor.isRunning, "\(what): the test compositor died", file: file, line: line)
            try scenario.check?(finished, try? readJSON(stats))
        }
    }

    /// Presented times glout refused, over every output, from the stats.
    func rejectedPresentations(_ report: [String: Any]?) -> Int {
        outputsByName(report ?? [:]).values.reduce(0) { $0 + ($1["presentation_rejected"] as? Int ?? 0) }
    }

    /// Frames each output committed, from the stats.
    func frames(_ report: [String: Any]?) -> [String: Int] {
        outputsByName(report ?? [:]).mapValues { $0["frames"] as? Int ?? 0 }
    }

    func test_modeScaleTransformAndSizeExtremesAreClampedOrIgnoredAndSaid() throws {
        let drew: (Finished, [String: Any]?) throws -> Void = { finished, report in
            XCTAssertGreaterThan(self.frames(report).values.max() ?? 0, 0, "nothing drawn: \(finished.stderr)")
        }
        try run([
            Scenario(name: "a mode 2147483647 wide", compositor: ["--output", "width=2147483647"],
                     says: ["wl_output.mode 2147483647x720 is out of range; ignoring the mode"], check: drew),
            Scenario(name: "a logical size 2147483647 wide", compositor: ["--output", "logical_width=2147483647"],
                     says: ["zxdg_output_v1.logical_size 2147483647x720 is out of range"], check: drew),
            Scenario(name: "a logical position far away", compositor: ["--output", "logical_x=2147483647,logical_y=-2147483648"],
                     says: ["zxdg_output_v1.logical_position 2147483647,-2147483648 is out of range"], check: drew),
            Scenario(name: "scale 2147483647", compositor: ["--output", "scale=2147483647"],
                     says: ["wl_output.scale 2147483647 is out of range; using 8"], check: drew),
            Scenario(name: "scale 1000", compositor: ["--output", "scale=1000"],
                     says: ["wl_output.scale 1000 is out of range; using 8"], check: drew),
            Scenario(name: "scale 0 and -5", compositor: ["--output", "scale=0", "--output", "name=TEST-2,scale=-5"],
                     says: ["wl_output.scale 0 is out of range; using 1", "wl_output.scale -5 is out of range; using 1"], check: drew),
            Scenario(name: "transform 99", compositor: ["--output", "transform=99"],
                     says: ["wl_output.geometry transform 99 is out of range; using normal"], check: drew),
            Scenario(name: "refresh -1 and 2147483647", compositor: ["--output", "refresh=-1", "--output", "name=TEST-2,refresh=2147483647"],
                     says: ["wl_output.mode refresh -1 mHz is out of range", "wl_output.mode refresh 2147483647 mHz is out of range"],
                     check: drew),
            Scenario(name: "a physical size of 2147 km", compositor: ["--output", "physical_width=2147483647,physical_height=5"],
                     says: ["wl_output.geometry physical size 2147483647x5 mm is out of range; taking it as unknown"], check: drew),
            Scenario(name: "subpixel 77", compositor: ["--output", "subpixel=77"],
                     says: ["wl_output.geometry subpixel 77 is out of range"], check: drew),
        ])
    }

    func test_configureExtremesAndStormsNeverReachTheArithmeticOrGL() throws {
        try run([
            Scenario(name: "configure 2147483647x2147483647", compositor: ["--configure", "2147483647x2147483647"],
                     says: ["xdg_toplevel.configure 2147483647x2147483647 is out of range; using 32768x32768",
                            "a buffer of 32768x32768 is more than the driver draws"]),
            Scenario(name: "configure 100000x100000", compositor: ["--configure", "100000x100000"],
                     says: ["xdg_toplevel.configure 100000x100000 is out of range"]) { _, report in
                // Drawn within what GL holds: at most 16384 a side and 8K's pixels.
                for (name, entry) in outputsByName(report ?? [:]) {
                    let placement = entry["placement"] as? [String: Any] ?? [:]
                    let width = placement["buffer_width"] as? Int ?? 0, height = placement["buffer_height"] as? Int ?? 0
                    XCTAssertTrue(width > 0 && width <= 16384 && height <= 16384 && width * height <= 7680 * 4320,
                                  "\(name): buffer \(width)x\(height)")
                }
            },
            Scenario(name: "configure -5x-5", compositor: ["--configure", "-5x-5"],
                     says: ["xdg_toplevel.configure -5x-5 is out of range; using 0x0"]),
            Scenario(name: "a storm of 2000 configures", compositor: ["--configure-storm", "2000",
                                                                     "--configure-storm-sizes", "640x480;1280x720;7x3;0x0"]),
        ])
    }

    func test_aWindowWithoutAConfigureIsSaidWithinSecondsAndTheOthersDraw() throws {
        // The test compositor configures no window at all: glout says so after 3 s and
        // ends at its duration. Then only TEST-2's window goes without: TEST-1's draws on.
        try run([
            Scenario(name: "no configure", compositor: ["--no-configure"], glout: ["run", "--duration", "4.5"],
                     says: ["the compositor has sent its window no xdg_toplevel.configure in 3 s"]),
            Scenario(name: "no configure for TEST-2", compositor: ["--output", "name=TEST-1", "--output", "name=TEST-2",
                                                                   "--no-configure", "--faults-on", "TEST-2"],
                     glout: ["run", "--duration", "4.5"],
                     says: ["output TEST-2: the compositor has sent its window no xdg_toplevel.configure in 3 s"]) { finished, report in
                let frames = self.frames(report)
                XCTAssertEqual(frames["TEST-2"] ?? 0, 0, "TEST-2 drew without a configure: \(finished.stderr)")
                XCTAssertGreaterThan(frames["TEST-1"] ?? 0, 30, "TEST-1 stopped beside the unconfigured window: \(finished.stderr)")
                XCTAssertFalse(finished.stderr.contains("output TEST-1: the compositor has sent"), finished.stderr)
            },
        ])
    }

    func test_frameCallbacksThatNeverComeOrComeOddlyAreSurvived() throws {
        try run([
            // A surface's first callback is waited for a second.
            Scenario(name: "frame callbacks never", compositor: ["--frame-callbacks", "never"],
                     glout: ["run", "--duration", "3"],
                     says: ["no frame callback for 1000 ms; its display link waits"]),
            Scenario(name: "frame callbacks at once", compositor: ["--frame-callbacks", "immediate"]),
            Scenario(name: "frame callback times 0, 2^32-1, backwards", compositor: ["--frame-callbacks", "odd-times"],
                     glout: ["bench", "--duration", "1"]),
        ])
    }

    func test_presentationTimesOutOfRangeNeverReachALandingFigure() throws {
        let counted: (Finished, [String: Any]?) throws -> Void = { finished, report in
            XCTAssertGreaterThan(self.rejectedPresentations(report), 0, "no presented time counted as rejected: \(finished.stderr)")
        }
        /// Every output's landing figures come from frame callbacks, not from the times sent,
        /// and the times were counted as rejected.
        let noPresentedLanding: (Finished, [String: Any]?) throws -> Void = { finished, report in
            for (name, entry) in outputsByName(report ?? [:]) {
                let landing = entry["landing"] as? [String: Any] ?? [:]
                XCTAssertNotEqual(landing["source"] as? String, "presentation", "\(name): \(landing)")
                XCTAssertNotEqual(landing["source"] as? String, "mixed", "\(name): \(landing)")
                for key in ["p50_ms", "p99_ms", "max_ms", "mean_ms"] {
                    XCTAssertLessThan(abs(landing[key] as? Double ?? 0), 1000, "\(name) \(key): \(landing)")
                }
            }
            try counted(finished, report)
        }
        let unusable = "wp_presentation_feedback.presented time"
        try run([
            Scenario(name: "tv_sec 2^64-1", compositor: ["--presentation", "huge-seconds"],
                     says: [unusable, "it is seconds away from now"], check: noPresentedLanding),
            Scenario(name: "tv_nsec 2^32-1", compositor: ["--presentation", "bad-nsec"],
                     says: [unusable, "its nanoseconds are 10^9 or more"], check: noPresentedLanding),
            Scenario(name: "an unknown clock", compositor: ["--presentation-clock", "99"],
                     says: [unusable, "its clock cannot be read here"], check: noPresentedLanding),
            Scenario(name: "clock 2^32-1", compositor: ["--presentation-clock", "4294967295"],
                     says: [unusable, "its clock cannot be read here"], check: noPresentedLanding),
            Scenario(name: "times going backwards", compositor: ["--presentation", "backwards"],
                     says: [unusable, "it is earlier than the frame before"], check: counted),
            Scenario(name: "refresh 2^32-1 ns", compositor: ["--presentation", "huge-refresh"],
                     says: ["wp_presentation_feedback.presented refresh 4294967295 ns is out of range"]),
            Scenario(name: "refresh 0 (unknown, as the protocol allows)", compositor: ["--presentation", "zero-refresh"]),
            Scenario(name: "feedback never answered", compositor: ["--presentation", "never"],
                     glout: ["bench", "--duration", "1", "--json", "/dev/null"]),
        ])
    }

    func test_namesWithControlCharactersAreEscapedOnTheTerminalAndExactInJSON() throws {
        // ESC [ 2 J clears a terminal; the newline would forge a line of glout's own.
        let evil = "name=EVIL%1B[2J%0Aglout:%20forged%E2%80%AEtxt,description=d%07%FFe,make=m%1Bk"
        let compositor = try FaultyCompositor(["--output", evil])
        let run = try compositor.glout(["run", "--duration", "1"]).wait()
        XCTAssertEqual(run.status, 0, run.stderr)
        let table = try compositor.glout(["outputs"]).wait()
        let json = try compositor.glout(["outputs", "--json"]).wait()
        for (what, text) in [("run's stderr", run.stderr), ("glout outputs", table.stdout)] {
            XCTAssertFalse(text.unicodeScalars.contains("\u{1b}"), "\(what) holds a raw ESC: \(text)")
            XCTAssertFalse(text.unicodeScalars.contains("\u{7}"), "\(what) holds a raw BEL")
            XCTAssertFalse(text.unicodeScalars.contains("\u{202E}"), "\(what) holds a raw right-to-left override")
            XCTAssertFalse(text.split(separator: "\n").contains { $0.hasPrefix("glout: forged") }, "\(what) has a forged line")
            XCTAssertTrue(text.contains(#"EVIL\x1b[2J\nglout: forged\u{202e}txt"#), "\(what): \(text)")
        }
        // The description's 0xFF byte is not UTF-8: it is shown as U+FFFD.
        XCTAssertTrue(table.stdout.contains(#"d\x07"# + "\u{FFFD}e"), table.stdout)
        // JSON carries the name exactly, in JSON's own escapes.
        let report = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let name = (report?["outputs"] as? [[String: Any]])?.first?["name"] as? String
        XCTAssertEqual(name, "EVIL\u{1b}[2J\nglout: forged\u{202E}txt")
        XCTAssertFalse(json.stdout.unicodeScalars.contains("\u{1b}"), "JSON holds a raw ESC")
    }

    func test_buffersNeverReleasedAreWaitedForWithoutACrashAndSaid() throws {
        // Mesa's own path crashes (22.3) or hangs (25) here; glout's own buffers wait.
        try run([Scenario(name: "buffers never released", compositor: ["--release", "never"], glout: ["run", "--duration", "3.5"],
                          says: ["the compositor has released none of the window's 3 buffers for 2.0 s"]) { _, report in
            for (name, count) in self.frames(report) {
                // The draft first frame's buffer, then the three of the whole size.
                XCTAssertLessThanOrEqual(count, 4, "\(name) committed more frames than it has buffers")
                XCTAssertGreaterThan(count, 0, name)
            }
        }])
        // Only TEST-2's buffers are kept: it is suspended, said once, and TEST-1 draws on.
        try run([Scenario(name: "TEST-2's buffers never released",
                          compositor: ["--output", "name=TEST-1", "--output", "name=TEST-2", "--release", "never", "--faults-on", "TEST-2"],
                          glout: ["run", "--duration", "4.5"],
                          says: ["output TEST-2: the compositor has released none of the window's 3 buffers for 2.0 s"]) { finished, report in
            let frames = self.frames(report)
            XCTAssertLessThanOrEqual(frames["TEST-2"] ?? 0, 4, "TEST-2 committed more frames than it has buffers")
            XCTAssertGreaterThan(frames["TEST-1"] ?? 0, 60, "TEST-1 stopped beside the window waiting for buffers: \(finished.stderr)")
            XCTAssertEqual(finished.stderr.components(separatedBy: "has released none of the window's").count - 1, 1,
                           "said more than once, or for TEST-1 too: \(finished.stderr)")
        }])
    }

    func test_outputsThatComeAndGoAtEveryStepOfAWindowsSetUpAreHandled() throws {
        let moments = ["bind", "xdg-output", "xdg-surface", "toplevel", "fullscreen", "configure", "ack", "first-commit", "frame"]
        var scenarios: [Scenario] = []
        for moment in moments {
            // Two outputs: TEST-2 goes at this moment; TEST-1 must keep drawing.
            scenarios.append(Scenario(name: "TEST-2 removed at \(moment)",
                                      compositor: ["--output", "name=TEST-1", "--output", "name=TEST-2",
                                                   "--remove-output-at", moment, "TEST-2"]) { finished, report in
                XCTAssertGreaterThan(self.frames(report)["TEST-1"] ?? 0, 10, "TEST-1 stopped: \(finished.stderr)")
            })
            scenarios.append(Scenario(name: "TEST-1 removed at \(moment) and back 300 ms later",
                                      compositor: ["--output", "name=TEST-1", "--remove-output-at", moment, "TEST-1",
                                                   "--readd-after-ms", "300"], glout: ["run", "--duration", "2.5"]) { finished, _ in
                XCTAssertTrue(finished.stderr.contains("output TEST-1: first frame"), "TEST-1 never drew: \(finished.stderr)")
            })
        }
        try run(scenarios)
    }

    func test_manyOutputsEachGetAWindow() throws {
        try run([Scenario(name: "16 outputs", compositor: ["--outputs-count", "16"], glout: ["run", "--duration", "3"]) { _, report in
            let counts = self.frames(report)
            XCTAssertEqual(counts.count, 16)
            XCTAssertTrue(counts.values.allSatisfy { $0 > 0 }, "\(counts)")
        }])
    }

    func test_outputsOfOldVersionsOrWithoutADoneAreLeftOutAndSaid() throws {
        try run([
            Scenario(name: "wl_output version 1", compositor: ["--output", "version=1", "--output", "name=TEST-2"],
                     says: ["version 1, version 2 or later is required"]) { _, report in
                XCTAssertEqual(Set(self.frames(report).keys), ["TEST-2"])
            },
            Scenario(name: "wl_output version 2 (no name)", compositor: ["--output", "version=2"]),
            Scenario(name: "an output that never sends done", compositor: ["--output", "done=no", "--output", "name=TEST-2"],
                     glout: ["outputs"], says: ["has not completed its description"]),
        ])
    }

    func test_preferredScalesOutOfRangeAreIgnoredAndSaid() throws {
        var scenarios = [
            Scenario(name: "fractional scale 2^32-1", compositor: ["--fractional-scale", "4294967295"],
                     says: ["wp_fractional_scale_v1.preferred_scale 4294967295/120 is out of range; using the integer scale"]),
            Scenario(name: "fractional scale 0", compositor: ["--fractional-scale", "0"],
                     says: ["wp_fractional_scale_v1.preferred_scale 0/120 is out of range"]),
        ]
        // wl_surface 6's events reach a glout built against libwayland 1.22 or later only.
        let builtWithSurface6 = Stack.current == .debian13 && !Stack.hostBuilt
        scenarios.append(Scenario(name: "preferred buffer scale -5 and transform 2^32-1",
                                  compositor: ["--compositor-version", "6", "--preferred-buffer-scale", "-5",
                                               "--preferred-transform", "4294967295"],
                                  says: builtWithSurface6 ? ["wl_surface.preferred_buffer_scale -5 is out of range",
                                                             "wl_surface.preferred_buffer_transform 4294967295 is out of range"] : []))
        try run(scenarios)
    }
}

/// Real touch sequences, which no Debian compositor here can send: the test compositor's
/// wl_touch gives glout down, motion, up, frame and cancel, several fingers on two
/// outputs, and the markers are checked in what glout commits.
final class TouchTests: IntegrationTestCase {
    func test_fingersOnTwoOutputsLeaveMarkersThatFollowThemAndGoOnUpAndCancel() throws {
        let compositor = try FaultyCompositor(["--output", "name=TEST-1,width=800,height=600",
                                               "--output", "name=TEST-2,width=800,height=600", "--seat-capabilities", "touch"])
        let glout = try compositor.glout(["run", "--control", "none", "--frozen", "1", "--no-label", "--duration", "120"])
        defer {
            glout.signal(SIGTERM)
            XCTAssertEqual(glout.wait().status, 0, glout.stderr)
        }
        /// A still picture of both outputs: two captures in a row equal, each of the
        /// output's own 800x600 pixels (the first, CPU-written draft is a smaller buffer the
        /// compositor scales, and may stay up for a while in a slow sanitizer build).
        func settled() throws -> (Image, Image) {
            var last: (Image, Image)?
            var now: (Image, Image)?
            try waitUntil("both outputs settle") {
                guard let one = try compositor.screenshot("TEST-1"), let two = try compositor.screenshot("TEST-2"),
                      [one.width, one.height, two.width, two.height] == [800, 600, 800, 600] else { return false }
                defer { last = (one, two) }
                now = (one, two)
                return last.map { $0.0 == one && $0.1 == two } ?? false
            }
            return now!
        }
        func region(_ image: Image, x: Int, y: Int) -> Image { image.cropped(x: x - 20, y: y - 20, width: 40, height: 40) }
        try waitUntil("glout draws on both outputs") { glout.stderr.components(separatedBy: "first frame").count == 3 }
        let clean = try settled()

        // One finger on each output, in one frame.
        try compositor.send("touch down 1 TEST-1 200 150")
        try compositor.send("touch down 2 TEST-2 600 450")
        try compositor.send("touch frame")
        try waitUntil("a marker under each finger") {
            guard let one = try compositor.screenshot("TEST-1"), let two = try compositor.screenshot("TEST-2") else { return false }
            return region(one, x: 200, y: 150) != region(clean.0, x: 200, y: 150)
                && region(two, x: 600, y: 450) != region(clean.1, x: 600, y: 450)
        }
        var (one, two) = try settled()
        // Nothing else moved: the far corners are as before.
        XCTAssertTrue(region(one, x: 600, y: 450) == region(clean.0, x: 600, y: 450), "a marker where no finger is on TEST-1")
        XCTAssertTrue(region(two, x: 200, y: 150) == region(clean.1, x: 200, y: 150), "a marker where no finger is on TEST-2")

        // The first finger moves; a third comes down on TEST-1 and the second lifts.
        try compositor.send("touch motion 1 400 300")
        try compositor.send("touch down 3 TEST-1 700 100")
        try compositor.send("touch up 2")
        try compositor.send("touch frame")
        try waitUntil("the markers follow: finger 1 moved, finger 3 down, finger 2 gone") {
            guard let one = try compositor.screenshot("TEST-1"), let two = try compositor.screenshot("TEST-2") else { return false }
            return region(one, x: 200, y: 150) == region(clean.0, x: 200, y: 150)
                && region(one, x: 400, y: 300) != region(clean.0, x: 400, y: 300)
                && region(one, x: 700, y: 100) != region(clean.0, x: 700, y: 100)
                && two == clean.1
        }
        (one, two) = try settled()
        XCTAssertTrue(two == clean.1, "TEST-2 keeps a marker after its finger lifted")

        // The compositor takes the sequence over: every marker goes.
        try compositor.send("touch cancel")
        try waitUntil("cancel takes every marker away") {
            guard let one = try compositor.screenshot("TEST-1"), let two = try compositor.screenshot("TEST-2") else { return false }
            return one == clean.0 && two == clean.1
        }
    }
}
