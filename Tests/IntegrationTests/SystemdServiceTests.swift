import Foundation
import XCTest

/// glout as a systemd `Type=notify` service with a watchdog, driven as systemd drives it:
/// the test binds the notification socket itself ($NOTIFY_SOCKET, $WATCHDOG_USEC) and
/// reads what glout sends, and hands glout a standard error that $JOURNAL_STREAM names.
final class SystemdServiceTests: IntegrationTestCase {
    /// The datagram socket systemd would listen on, bound by path.
    final class NotifySocket {
        let path: String
        private let descriptor: Int32

        init(in folder: URL) throws {
            path = folder.appendingPathComponent("notify").path
            descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard descriptor >= 0 else { throw HarnessError("socket: \(String(cString: strerror(errno)))") }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw HarnessError("\(path) is too long") }
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
            let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + 1)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
            }
            guard bound == 0 else { throw HarnessError("bind \(path): \(String(cString: strerror(errno)))") }
        }

        deinit { close(descriptor) }

        /// The next datagram, waiting at most `timeout` seconds; nil when none came.
        func receive(within timeout: Double) -> String? {
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let deadline = Date().addingTimeInterval(timeout)
            while true {
                let left = deadline.timeIntervalSinceNow
                guard left > 0 else { return nil }
                let ready = poll(&entry, 1, Int32(max(1, left * 1000)))
                if ready < 0 && errno == EINTR { continue }
                guard ready > 0 else { return nil }
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                if count >= 0 { return String(decoding: buffer.prefix(count), as: UTF8.self) }
            }
        }

        /// Waits for a datagram with the line `line`, returning the datagrams up to it.
        func waitFor(_ line: String, within timeout: Double, glout: Child) throws -> [String] {
            let deadline = Date().addingTimeInterval(timeout)
            var seen: [String] = []
            while let message = receive(within: deadline.timeIntervalSinceNow) {
                seen.append(message)
                if message.split(separator: "\n").contains(Substring(line)) { return seen }
            }
            throw HarnessError("no \(line) within \(timeout) s; datagrams: \(seen)\nglout's stderr:\n\(glout.stderr)")
        }

        /// Every datagram waiting now.
        func drain() -> [String] {
            var all: [String] = []
            while let message = receive(within: 0.001) { all.append(message) }
            return all
        }
    }

    /// Whether the process is stopped (state T in /proc/PID/stat).
    private func isStopped(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return stat[close...].dropFirst(2).first == "T"
    }

    /// glout run with `arguments` on a two-output sway under a two-second watchdog
    /// (keep-alives every half second at most), its notification socket the test's.
    private func watchedGlout(_ arguments: [String] = []) throws -> (sway: Compositor, notify: NotifySocket, glout: Child) {
        let sway = try Compositor.sway(["1280x720@60", "800x600@30"])
        let folder = Paths.temporaryFolder()
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let notify = try NotifySocket(in: folder)
        var environment = sway.environment
        environment["NOTIFY_SOCKET"] = notify.path
        environment["WATCHDOG_USEC"] = "2000000"
        let glout = try Child(Paths.glout, ["run"] + arguments + ["--duration", "300"], environment: environment)
        return (sway, notify, glout)
    }

    func test_readyAfterTheFirstFramesThenKeepAlivesThatStopWhileGloutIsStoppedAndStoppingAtTheEnd() throws {
        let (sway, notify, glout) = try watchedGlout()

        let untilReady = try notify.waitFor("READY=1", within: Timing.patience, glout: glout)
        let ready = try XCTUnwrap(untilReady.last)
        XCTAssertTrue(ready.contains("STATUS=drawing on 2 outputs"), ready)
        XCTAssertFalse(untilReady.dropLast().contains { $0.contains("WATCHDOG=1") }, "keep-alives before READY=1: \(untilReady)")
        // READY=1 comes after both outputs have shown a frame: sway shows both windows.
        let shown = try sway.views().filter { $0.appID == "glout" }
        XCTAssertEqual(Set(shown.map(\.output)), ["HEADLESS-1", "HEADLESS-2"], "\(shown)")

        // Keep-alives: three within a bound that only catches a hang.
        for n in 1...3 { _ = try notify.waitFor("WATCHDOG=1", within: Timing.patience, glout: glout); _ = n }

        // A glout that is stopped sends nothing for longer than the watchdog's timeout.
        glout.signal(SIGSTOP)
        try waitUntil("glout is stopped") { isStopped(glout.pid) }
        _ = notify.drain()
        let during = notify.receive(within: 2.5)
        XCTAssertNil(during, "a stopped glout sent \(during ?? "")")
        glout.signal(SIGCONT)
        _ = try notify.waitFor("WATCHDOG=1", within: Timing.patience, glout: glout)

        glout.signal(SIGTERM)
        _ = try notify.waitFor("STOPPING=1", within: Timing.patience, glout: glout)
        let finished = glout.wait()
        XCTAssertEqual(finished.status, 0, finished.stderr)
        XCTAssertFalse(finished.stderr.contains("systemd: could not notify"), finished.stderr)
    }

    /// A frame that takes half the watchdog's timeout stops the keep-alives while it lasts:
    /// --stall makes each of HEADLESS-2's frames take 4 s, against a 2 s watchdog.
    func test_aFrameThatTakesHalfTheWatchdogsTimeoutStopsTheKeepAlives() throws {
        // The rig holds sway for the test's length.
        let rig = try watchedGlout(["--stall", "HEADLESS-2=4000"])
        let (notify, glout) = (rig.notify, rig.glout)
        _ = try notify.waitFor("READY=1", within: Timing.patience, glout: glout)
        // Keep-alives come between HEADLESS-2's frames and in the first second of each; in
        // the last three seconds of each frame none. Over 12 s of them, a gap of at least
        // the watchdog's timeout, as systemd would see.
        var last = Date()
        var longest = 0.0
        var count = 0
        let until = Date().addingTimeInterval(12)
        while Date() < until, let message = notify.receive(within: until.timeIntervalSinceNow) {
            guard message.split(separator: "\n").contains("WATCHDOG=1") else { continue }
            if count > 0 { longest = max(longest, Date().timeIntervalSince(last)) }
            count += 1
            last = Date()
        }
        XCTAssertGreaterThanOrEqual(count, 3, "keep-alives stopped altogether; stderr:\n\(glout.stderr)")
        XCTAssertGreaterThanOrEqual(longest, 2, "keep-alives went on while HEADLESS-2 was in one frame for 4 s")
        try waitUntil("glout says which output hangs") {
            glout.stderr.contains("output HEADLESS-2: one frame has taken")
        }
        XCTAssertFalse(glout.stderr.contains("output HEADLESS-1: one frame has taken"), glout.stderr)
        glout.signal(SIGTERM)
        let finished = glout.wait()
        XCTAssertEqual(finished.status, 0, finished.stderr)
    }

    /// A NOTIFY_SOCKET glout cannot use (a variable left in a shell) is said, and glout runs.
    func test_aNotifySocketGloutCannotUseIsAWarningAndGloutRuns() throws {
        let sway = try Compositor.sway(["800x600@60"])
        var environment = sway.environment
        environment["NOTIFY_SOCKET"] = "relative/notify"
        environment["WATCHDOG_PID"] = "not-a-pid"
        let glout = try Child(Paths.glout, ["run", "--duration", "1"], environment: environment)
        let finished = glout.wait()
        XCTAssertEqual(finished.status, 0, finished.stderr)
        XCTAssertTrue(finished.stderr.contains("warning: systemd: NOTIFY_SOCKET"), finished.stderr)
    }

    /// Standard error that $JOURNAL_STREAM names gets each line's priority; another file
    /// gets the lines as they are.
    func test_linesToTheJournalStreamCarryTheirPriority() throws {
        let sway = try Compositor.sway(["800x600@60"])
        // The shell sets JOURNAL_STREAM to the device and inode of the file its standard
        // error is (as systemd does for the stream it connects), then becomes glout.
        func run(_ arguments: String, matched: Bool) throws -> Finished {
            var environment = sway.environment
            environment["GLOUT"] = Paths.glout
            let stream = matched ? "$(stat -L -c %d:%i /proc/self/fd/2)" : "1:1"
            let child = try Child("/bin/sh", ["-c", "JOURNAL_STREAM=\(stream) exec \"$GLOUT\" \(arguments)"],
                                  environment: environment)
            return child.wait()
        }
        let good = try run("run --duration 1", matched: true)
        XCTAssertEqual(good.status, 0, good.stderr)
        // Every line with a priority (a warning a loaded machine may bring is <4>), most of
        // them information.
        let lines = good.stderr.split(separator: "\n")
        for line in lines {
            XCTAssertTrue(["<3>", "<4>", "<6>", "<7>"].contains { line.hasPrefix($0 + "glout: ") }, String(line))
        }
        XCTAssertTrue(lines.contains { $0.hasPrefix("<6>glout: output ") }, good.stderr)

        let bad = try run("run --no-such-option", matched: true)
        XCTAssertNotEqual(bad.status, 0, bad.stderr)
        for line in bad.stderr.split(separator: "\n") { XCTAssertTrue(line.hasPrefix("<3>"), String(line)) }
        XCTAssertTrue(bad.stderr.hasPrefix("<3>glout: "), bad.stderr)

        let elsewhere = try run("run --duration 1", matched: false)
        XCTAssertEqual(elsewhere.status, 0, elsewhere.stderr)
        XCTAssertFalse(elsewhere.stderr.contains("<6>"), elsewhere.stderr)
        XCTAssertTrue(elsewhere.stderr.hasPrefix("glout: "), elsewhere.stderr)
    }
}
