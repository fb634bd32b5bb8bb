import Foundation
import XCTest

/// The same checks on one compositor of each family: wlroots (sway, phoc, cage, and on
/// Debian 13 labwc), weston (desktop and kiosk), GNOME (mutter) and KDE (kwin), from
/// Debian 12 or, with GLOUT_STACK=debian-13, from Debian 13 (see ``Stack``). Where a
/// compositor offers no screenshot, the stats' placement facts (wl_surface.enter,
/// configure and buffer sizes) show that a window covers its output.
final class CompositorMatrixTests: IntegrationTestCase {
    /// How one compositor is started and what it can do.
    struct Entry {
        var name: String
        var start: () throws -> Compositor
        /// The outputs it starts with, in glout's order.
        var outputs: [String]
        /// Whether each window is sized to its own output (cage sizes every window to the
        /// whole layout) and the compositor says which output it is on (wl_surface.enter).
        var perOutputWindows = true
        /// Adds an output while glout runs and returns its name; nil where the compositor
        /// cannot add one.
        var addOutput: ((Compositor) throws -> String)?
        /// What glout says to --set-mode there.
        var setModeSays: String
    }

    /// What glout says where the compositor switches a headless output's mode for it.
    static let switched = "mode set to 640x480"
    /// What it says where the compositor has no wlr-output-management.
    static let notOffered = "does not offer zwlr_output_manager_v1"

    func test_sway() throws {
        // sway 1.7 describes its headless outputs to wlr-output-management as off with no
        // mode, and glout declines; sway 1.10 switches them.
        try check(Entry(name: "sway", start: { try .sway(["1280x720@60", "800x600@30"]) },
                        outputs: ["HEADLESS-1", "HEADLESS-2"],
                        addOutput: { sway in
                            _ = try sway.swaymsg("create_output")
                            return "HEADLESS-3"
                        },
                        setModeSays: Stack.current.swaySetsHeadlessModes
                            ? Self.switched : "wlr-output-management describes HEADLESS-"))
    }

    func test_phoc() throws {
        try check(Entry(name: "phoc", start: { try .phoc(outputs: 2) }, outputs: ["HEADLESS-2", "HEADLESS-1"],
                        setModeSays: Self.switched))
    }

    func test_cage() throws {
        try check(Entry(name: "cage", start: { try .cage(outputs: 2) }, outputs: ["HEADLESS-2", "HEADLESS-1"],
                        perOutputWindows: false, setModeSays: Stack.current.cageSetsModes ? Self.switched : Self.notOffered))
    }

    func test_labwc() throws {
        guard Stack.current == .debian13 else { throw XCTSkip("labwc is in the matrix on Debian 13 (GLOUT_STACK=debian-13)") }
        try check(Entry(name: "labwc", start: { try .labwc(outputs: 2) }, outputs: ["HEADLESS-2", "HEADLESS-1"],
                        setModeSays: Self.switched))
    }

    func test_westonDesktop() throws {
        try check(Entry(name: "weston", start: { try .weston(size: "1024x768") }, outputs: ["headless"],
                        setModeSays: Self.notOffered))
    }

    /// weston 10 runs nested in a headless sway: its kiosk-shell shows windows only where a
    /// seat exists, and headless weston has none (see scripts/compositor). weston 14 runs
    /// headless itself.
    func test_westonKiosk() throws {
        try check(Entry(name: "weston kiosk-shell", start: { try .weston(size: "1024x768", kiosk: true) },
                        outputs: [Stack.current.kioskWestonOutput], setModeSays: Self.notOffered))
    }

    func test_mutter() throws {
        try check(Entry(name: "mutter", start: { try .mutter(["1280x720@60", "800x600@30"]) }, outputs: ["Meta-0", "Meta-1"],
                        setModeSays: Self.notOffered))
    }

    func test_kwin() throws {
        try check(Entry(name: "kwin", start: { try .kwin(outputs: 2) }, outputs: ["Virtual-0", "Virtual-1"],
                        setModeSays: Self.notOffered))
    }

    // MARK: - The checks

    func check(_ entry: Entry) throws {
        let compositor = try entry.start()
        // Only where outputs can be added while the compositor runs (entry.addOutput: sway)
        // does checkRun add one; HotplugTests covers coming and going elsewhere.
        if !entry.perOutputWindows {
            print("\(entry.name): windows span the whole layout and no wl_surface.enter comes; placement is checked as such")
        }
        XCTAssertEqual(try outputNames(entry, compositor), entry.outputs, entry.name)
        try checkProtocols(entry, compositor)
        try checkRun(entry, compositor, layout: "independent")
        try checkRun(entry, compositor, layout: "mirror")
        try checkSetMode(entry, compositor)
    }

    /// `glout outputs --json` names every output, with a mode and a logical size.
    func outputNames(_ entry: Entry, _ compositor: Compositor) throws -> [String] {
        let finished = try compositor.glout(["outputs", "--json"]).wait()
        XCTAssertEqual(finished.status, 0, "\(entry.name): \(finished.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(finished.stdout.utf8)) as? [String: Any]
        let outputs = report?["outputs"] as? [[String: Any]] ?? []
        for output in outputs {
            let logical = output["logical"] as? [String: Int] ?? [:]
            XCTAssertGreaterThan(logical["width"] ?? 0, 0, "\(entry.name): \(output)")
            let modes = output["modes"] as? [[String: Any]] ?? []
            XCTAssertTrue(modes.contains { $0["current"] as? Bool == true }, "\(entry.name): no current mode in \(output)")
        }
        return outputs.compactMap { $0["name"] as? String }
    }

    /// `glout protocols --json` lists what glout needs, bound, and wl_compositor at 6 where
    /// both the compositor and glout's libwayland have it.
    func checkProtocols(_ entry: Entry, _ compositor: Compositor) throws {
        let finished = try compositor.glout(["protocols", "--json"]).wait()
        XCTAssertEqual(finished.status, 0, "\(entry.name): \(finished.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(finished.stdout.utf8)) as? [String: Any]
        var globals: [String: [String: Any]] = [:]
        for global in report?["globals"] as? [[String: Any]] ?? [] { globals[global["interface"] as? String ?? ""] = global }
        for required in ["wl_compositor", "xdg_wm_base", "wl_output", "wl_shm"] {
            XCTAssertEqual(globals[required]?["used_by"] as? String, "glout", "\(entry.name): \(required)")
        }
        let compositorGlobal = globals["wl_compositor"] ?? [:]
        let offered = compositorGlobal["version"] as? Int ?? 0, bound = compositorGlobal["bound_version"] as? Int ?? 0
        // Built against libwayland 1.22 or later (Debian 13), glout takes wl_compositor 6.
        XCTAssertEqual(bound, Stack.current == .debian13 && !Stack.hostBuilt ? min(offered, 6) : 4, "\(entry.name): \(compositorGlobal)")
    }

    /// `glout run`: a window per output that draws, on its own output and covering it (or,
    /// where the compositor spans windows over the layout, sized to the layout); an output
    /// added meanwhile gets one too; SIGTERM ends it with status 0.
    func checkRun(_ entry: Entry, _ compositor: Compositor, layout: String) throws {
        let folder = Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stats = folder.appendingPathComponent("stats.json").path
        var expected = try outputNames(entry, compositor)
        let glout = try compositor.glout(["run", "--layout", layout, "--stats-json", stats], extra: ["GLOUT_DEBUG": "1"])
        try waitUntil("\(entry.name), \(layout): glout draws on \(expected)") {
            expected.allSatisfy { glout.stderr.contains("output \($0): first frame") }
        }
        if layout == "independent", let addOutput = entry.addOutput {
            let added = try addOutput(compositor)
            expected.append(added)
            try waitUntil("\(entry.name): glout draws on \(added)") { glout.stderr.contains("output \(added): first frame") }
        }
        // A few frames more on every output: glout says (GLOUT_DEBUG) when a window has
        // committed its third, and --stats-json must then count three or more. Where each
        // window is on its own output, also wait until the compositor says so (wl_surface.enter):
        // a loaded sway 1.7 enters a new output's window after its first frames.
        try waitUntil("\(entry.name), \(layout): three frames on \(expected):\n\(glout.stderr)") {
            expected.allSatisfy {
                glout.stderr.contains("output \($0): 3 frames committed")
                    && (!entry.perOutputWindows || glout.stderr.contains("output \($0): the window entered its output"))
            }
        }
        glout.signal(SIGTERM)
        let finished = glout.wait()
        XCTAssertEqual(finished.status, 0, "\(entry.name), \(layout): \(finished.stderr)")
        let report = outputsByName(try readJSON(stats))
        XCTAssertEqual(Set(report.keys), Set(expected), "\(entry.name), \(layout)")
        let layoutWidth = report.values.compactMap { ($0["placement"] as? [String: Any])?["logical_width"] as? Int }.reduce(0, +)
        for name in expected {
            let output = report[name] ?? [:]
            let placement = output["placement"] as? [String: Any] ?? [:]
            XCTAssertGreaterThan(output["frames"] as? Int ?? 0, 2, "\(entry.name), \(layout): \(name) drew \(output)")
            if entry.perOutputWindows {
                XCTAssertEqual(placement["fullscreen_on_own_output"] as? Bool, true,
                               "\(entry.name), \(layout): \(name) is not fullscreen on its own output: \(placement)")
            } else {
                XCTAssertEqual(placement["configured_width"] as? Int, layoutWidth,
                               "\(entry.name), \(layout): \(name) is not sized to the layout: \(placement)")
            }
        }
    }

    /// --set-mode where the compositor cannot switch modes for glout says why, draws at
    /// the size asked for instead, and ends cleanly.
    func checkSetMode(_ entry: Entry, _ compositor: Compositor) throws {
        let name = entry.outputs.first { $0 == "HEADLESS-1" } ?? entry.outputs[0]
        let glout = try compositor.glout(["run", "--set-mode", "\(name)=640x480@60"])
        try waitUntil("\(entry.name): glout draws on \(name) after --set-mode") {
            glout.stderr.contains("output \(name): first frame")
        }
        glout.signal(SIGTERM)
        let finished = glout.wait()
        XCTAssertEqual(finished.status, 0, "\(entry.name): \(finished.stderr)")
        XCTAssertTrue(finished.stderr.contains(entry.setModeSays), "\(entry.name): \(finished.stderr)")
    }
}
