import Foundation
import XCTest

/// Display links aimed at the refresh a frame will be presented at, learnt from the
/// compositor's presentation times, on Debian 13's compositors, which all send them:
/// kwin 6.3, whose frame callbacks come about 3 ms after a refresh (the estimate, callback
/// plus a period, put every frame 2.5 to 3.2 ms late), and mutter 48, which offers fifo-v1
/// and commit-timing-v1. What is checked is what the compositor said: its presented times
/// against glout's targets, and the requests on the wire (WAYLAND_DEBUG).
final class PresentationTargetTests: IntegrationTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        guard Stack.current == .debian13 else {
            throw XCTSkip("Debian 12's compositors send no presentation times glout can lock to (GLOUT_STACK=debian-13)")
        }
    }

    /// Runs bench on `compositor` and returns its JSON report and glout's stderr.
    func bench(_ arguments: [String], on compositor: Compositor, extra: [String: String] = [:]) throws
        -> (report: [String: Any], stderr: String) {
        let folder = Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = folder.appendingPathComponent("bench.json").path
        let finished = try compositor.glout(["bench", "--json", json] + arguments, extra: extra)
            .wait(timeout: 30 + Timing.patience)
        XCTAssertEqual(finished.status, 0, String(finished.stderr.suffix(4000)))
        return (try readJSON(json), finished.stderr)
    }

    func number(_ dictionary: [String: Any]?, _ path: String...) -> Double {
        var value: Any? = dictionary
        for key in path { value = (value as? [String: Any])?[key] }
        return (value as? NSNumber)?.doubleValue ?? .nan
    }

    /// Each output's frames land at their target: the steady-state landing p50 within an
    /// eighth of a period (2.1 ms at 60 Hz; the estimate missed by 2.5 to 3.2 ms on kwin),
    /// with targets from presentation times.
    func checkLanding(_ report: [String: Any], _ name: String) {
        let outputs = outputsByName(report)
        XCTAssertFalse(outputs.isEmpty, "\(name): no outputs in \(report)")
        for (output, entry) in outputs {
            let compositor = entry["compositor"] as? [String: Any]
            let landing = compositor?["landing"] as? [String: Any]
            let period = number(entry, "period_ms")
            XCTAssertNotEqual(landing?["target"] as? String, "estimate", "\(name) \(output): no presentation targets: \(entry)")
            let p50 = number(landing, "p50_ms")
            XCTAssertLessThan(p50.magnitude, period / 8, "\(name) \(output): landing p50 \(p50) ms: \(entry)")
            XCTAssertGreaterThan(number(compositor, "next_refresh_pct"), 50, "\(name) \(output): \(entry)")
        }
    }

    func test_onKwinFramesAreTargetedAtTheRefreshTheyArePresentedAt() throws {
        let kwin = try Compositor.kwin(outputs: 2)
        let (report, _) = try bench(["--duration", "4"], on: kwin)
        checkLanding(report, "kwin")
    }

    func test_onMutterCommitsCarryFifoBarriersAndFramesLandAtTheirTargets() throws {
        let mutter = try Compositor.mutter(["1280x720@60"])
        let (report, stderr) = try bench(["--duration", "3"], on: mutter, extra: ["WAYLAND_DEBUG": "client"])
        checkLanding(report, "mutter")
        for output in outputsByName(report).values {
            XCTAssertEqual(output["fifo"] as? Bool, true, "\(output)")
            XCTAssertEqual(output["commit_timing"] as? Bool, false, "timestamps are asked for with --commit-timing")
        }
        for request in [".get_fifo(", ".wait_barrier()", ".set_barrier()"] {
            XCTAssertTrue(stderr.contains(request), "no wp_fifo_v1 \(request) on the wire: \(stderr.suffix(3000))")
        }
        XCTAssertFalse(stderr.contains(".set_timestamp("), "a timestamp without --commit-timing")
    }

    /// With --commit-timing, commits also carry wp_commit_timer_v1.set_timestamp for their
    /// target, and frames land at their targets. mutter 48.7 holds a commit timestamped
    /// ahead of the moment it was sent for good (headless here, in most runs): glout then
    /// says so, makes the surface again and sends no timestamp ahead on that window, and
    /// the frames go on.
    func test_withCommitTimingMutterCommitsCarryTheirTargetAsATimestampAndFramesLandAtTheirTargets() throws {
        let mutter = try Compositor.mutter(["1280x720@60"])
        let (report, stderr) = try bench(["--duration", "4", "--commit-timing"], on: mutter, extra: ["WAYLAND_DEBUG": "client"])
        XCTAssertTrue(stderr.contains(".get_timer("), "no wp_commit_timer_v1: \(stderr.suffix(3000))")
        XCTAssertTrue(stderr.contains(".set_timestamp("), "no set_timestamp on the wire: \(stderr.suffix(3000))")
        XCTAssertTrue(stderr.contains(".wait_barrier()"), "no fifo barrier: \(stderr.suffix(3000))")
        checkLanding(report, "mutter with commit timing")
        for output in outputsByName(report).values {
            XCTAssertEqual(output["commit_timing"] as? Bool, true, "\(output)")
            // Four seconds at 60 Hz, the warm-up second apart: frames went on after any hold.
            XCTAssertGreaterThan(number(output, "frames"), 60, "\(output)")
            let held = number(output, "timestamps_held")
            XCTAssertLessThanOrEqual(held, 1, "at most one hold: timestamps are no longer ahead after it: \(output)")
            if held > 0 {
                XCTAssertTrue(stderr.contains("which the compositor seems to hold"), "a hold not said: \(stderr.suffix(3000))")
            }
        }
    }

    /// --stats-json reports the steady state apart from start-up, as bench does: the
    /// frames committed in each output's first second in `startup_landing`, the rest in
    /// `landing`, together every presented frame --landings-json holds.
    func test_statsJSONReportsTheSteadyStateApartFromStartUp() throws {
        let kwin = try Compositor.kwin(outputs: 2)
        let folder = Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stats = folder.appendingPathComponent("stats.json").path, log = folder.appendingPathComponent("landings.json").path
        let finished = try kwin.glout(["run", "--duration", "3", "--stats-json", stats, "--landings-json", log])
            .wait(timeout: 10 + Timing.patience)
        XCTAssertEqual(finished.status, 0, finished.stderr)
        let landed = Dictionary(uniqueKeysWithValues: (try readJSON(log)["outputs"] as? [[String: Any]] ?? []).map {
            ($0["name"] as? String ?? "", ($0["frames"] as? [[String: Any]] ?? []).count)
        })
        let outputs = outputsByName(try readJSON(stats))
        XCTAssertEqual(outputs.count, 2)
        for (name, output) in outputs {
            let steady = output["landing"] as? [String: Any] ?? [:], startup = output["startup_landing"] as? [String: Any] ?? [:]
            XCTAssertEqual(steady["source"] as? String, "presentation", "\(name): \(output)")
            XCTAssertGreaterThan(number(startup, "frames"), 10, "\(name): the first second's frames: \(output)")
            XCTAssertGreaterThan(number(steady, "frames"), 60, "\(name): two seconds' frames: \(output)")
            XCTAssertEqual(Int(number(steady, "frames") + number(startup, "frames")), landed[name], "\(name): \(output)")
            XCTAssertGreaterThanOrEqual(number(steady, "p99_abs_ms"), number(steady, "p99_ms"), "\(name)")
        }
    }

    /// --landings-json holds each frame's target and landing, on CLOCK_MONOTONIC with the
    /// offset to CLOCK_REALTIME, for setting two glouts' frames side by side.
    func test_landingsJSONHoldsEveryFramesTargetAndWhenItLanded() throws {
        let sway = try Compositor.sway(["800x600@60"])
        let folder = Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("landings.json").path
        let finished = try sway.glout(["run", "--duration", "2", "--landings-json", path]).wait(timeout: 10 + Timing.patience)
        XCTAssertEqual(finished.status, 0, finished.stderr)
        let log = try readJSON(path)
        XCTAssertEqual(log["clock"] as? String, "monotonic")
        XCTAssertGreaterThan(number(log, "realtime_minus_monotonic_ns"), 1e18, "CLOCK_REALTIME after 2001")
        let output = (log["outputs"] as? [[String: Any]])?.first ?? [:]
        XCTAssertEqual(output["name"] as? String, "HEADLESS-1")
        let frames = output["frames"] as? [[String: Any]] ?? []
        XCTAssertGreaterThan(frames.count, 30, "\(output)")
        let steady = frames.filter { $0["target"] as? String == "presentation" && $0["source"] as? String == "presentation" }
        XCTAssertGreaterThan(steady.count, frames.count / 2, "frames targeted from presentation times")
        let errors = steady.map { number($0, "landed_ns") - number($0, "target_ns") }.sorted()
        let median = errors.isEmpty ? .nan : errors[errors.count / 2]
        XCTAssertLessThan(median.magnitude, 16_666_667 / 8, "landing p50 \(median) ns")
    }
}
