import Foundation
import XCTest

/// glout where there is no compositor, and on weston.
final class CompositorLessTests: IntegrationTestCase {
    func test_noCompositorGivesAOneLineErrorAndStatus3WithinASecond() throws {
        let folder = Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for command in [["run"], ["outputs"], ["--duration", "3"]] {
            let child = try Child(Paths.glout, command,
                                  environment: ["XDG_RUNTIME_DIR": folder.path, "WAYLAND_DISPLAY": "wayland-none"])
            let finished = child.wait()
            XCTAssertEqual(finished.status, 3, finished.stderr)
            XCTAssertLessThan(finished.seconds, 1.0)
            let lines = finished.stderr.split(separator: "\n")
            XCTAssertEqual(lines.count, 1, finished.stderr)
            XCTAssertTrue(finished.stderr.contains("no Wayland compositor at \(folder.path)/wayland-none"), finished.stderr)
            XCTAssertTrue(finished.stderr.contains("scripts/compositor"), "no hint how to start one")
        }
    }

    func test_filesThatCannotBeWrittenAreStatus1NamingThePathAndTheReason() throws {
        let cases: [(arguments: [String], path: String, reason: String)] = [
            (["snapshot", "--out", "/proc/nope"], "/proc/nope", "No such file or directory"),
            (["snapshot", "--out", "/etc/hostname/x"], "/etc/hostname/x", "Not a directory"),
            (["run", "--stats-json", "/proc/nope/s.json"], "/proc/nope/s.json", "No such file or directory"),
            (["bench", "--json", "/proc/nope/b.json"], "/proc/nope/b.json", "No such file or directory"),
            (["bench", "--plot", "/proc/nope/b.png"], "/proc/nope/b.png", "No such file or directory"),
            (["run", "--shaders", "/proc/nope"], "/proc/nope", "No such file or directory"),
            (["run", "--wall", "/proc/nope"], "/proc/nope", "No such file or directory"),
            (["run", "--wall", "/dev/zero"], "/dev/zero", "more than 16 MiB"),
            (["snapshot", "--canvas", "--out", "/proc/nope/c.png"], "/proc/nope/c.png", "No such file or directory"),
        ]
        for (arguments, path, reason) in cases {
            // Files are checked before glout looks for a compositor.
            let finished = try Child(Paths.glout, arguments, environment: ["WAYLAND_DISPLAY": "wayland-none"]).wait()
            XCTAssertEqual(finished.status, 1, "\(arguments): \(finished.stderr)")
            XCTAssertTrue(finished.stderr.contains(path) && finished.stderr.contains(reason), "\(arguments): \(finished.stderr)")
        }
    }

    func test_badUsageIsStatus2AndVersionAndHelpWork() throws {
        let bad = try Child(Paths.glout, ["run", "--layout", "sideways"]).wait()
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("--layout must be independent, mirror or span"))
        // A wall file that is not one: status 2, saying where, before any compositor.
        let folder = Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let wall = folder.appendingPathComponent("wall.json")
        try Data(#"{"outputs": [{"machine": "a", "name": "B", "x": 0, "y": 0, "width": -5}]}"#.utf8).write(to: wall)
        let badWall = try Child(Paths.glout, ["run", "--layout", "span", "--wall", wall.path],
                                environment: ["WAYLAND_DISPLAY": "wayland-none"]).wait()
        XCTAssertEqual(badWall.status, 2, badWall.stderr)
        XCTAssertTrue(badWall.stderr.contains("--wall \(wall.path): outputs[0].width must be a whole number from 1 to 1000000"),
                      badWall.stderr)
        let version = try Child(Paths.glout, ["--version"]).wait()
        XCTAssertEqual(version.status, 0)
        XCTAssertTrue(version.stdout.hasPrefix("glout "))
        for topic in [["--help"], ["run", "--help"], ["outputs", "--help"]] {
            let help = try Child(Paths.glout, topic).wait()
            XCTAssertEqual(help.status, 0)
            XCTAssertTrue(help.stdout.contains("Usage: glout"), help.stdout)
        }
    }

    func test_westonHeadlessShowsThePictureAndEndsCleanly() throws {
        let weston = try Compositor.weston(size: "1024x768")
        let folder = Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stats = folder.appendingPathComponent("stats.json").path
        let glout = try weston.glout(["run", "--duration", "120", "--frozen", "1", "--stats-json", stats])
        try waitUntil("glout draws on weston") { glout.stderr.contains("first frame") }
        /// weston --debug offers its screenshooter; the client writes a PNG into its cwd. It
        /// comes from weston's own distribution: weston 14 dropped the interface weston 10's uses.
        func screenshot() throws -> Image {
            let (shots, there) = weston.sharedFolder()
            defer { try? FileManager.default.removeItem(at: shots) }
            let shooter = try weston.ownTool("weston-screenshooter", in: there)
            guard shooter.status == 0 else { throw HarnessError("weston-screenshooter: \(shooter.stderr)") }
            let png = try FileManager.default.contentsOfDirectory(atPath: shots.path).first { $0.hasSuffix(".png") }
            let shot = try XCTUnwrap(png, "weston-screenshooter wrote nothing")
            let ppm = shots.appendingPathComponent("shot.ppm").path
            let convert = try Child("/usr/bin/convert", [shots.appendingPathComponent(shot).path, ppm]).wait()
            guard convert.status == 0 else { throw HarnessError("convert: \(convert.stderr)") }
            return try Image(ppm: Data(contentsOf: URL(fileURLWithPath: ppm)))
        }
        // weston fades a new window in: wait until two captures in a row are equal.
        var picture = try screenshot()
        try waitUntil("the picture on weston settles") {
            let previous = picture
            picture = try screenshot()
            return picture == previous
        }
        glout.signal(SIGTERM)
        let finished = glout.wait()
        XCTAssertEqual(finished.status, 0, finished.stderr)
        let report = outputsByName(try readJSON(stats))
        XCTAssertGreaterThan(report["headless"]?["frames"] as? Int ?? 0, 1, "\(report)")
        XCTAssertEqual([picture.width, picture.height], [1024, 768])
        // The control view: accent band on top, dark panel at the bottom.
        let band = picture.pixel(512, 10), panel = picture.pixel(512, 760)
        XCTAssertTrue(band.r > band.g && band.g > band.b && band.r > 90, "\(band)")
        XCTAssertTrue(panel.b > panel.r && panel.b < 80, "\(panel)")
    }
}
