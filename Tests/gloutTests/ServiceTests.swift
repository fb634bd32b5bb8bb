import Glibc
import WaylandOutputs
import XCTest
@testable import glout

/// systemd's side: when glout says it is ready and alive, its notification datagrams, and
/// its log lines' priorities for the journal.
final class ServiceTests: XCTestCase {
    private func window(_ name: String, shown: Bool = true, suspended: Bool = false, inFrame: Double? = nil) -> ServiceHealth.Window {
        ServiceHealth.Window(name: name, shown: shown, suspended: suspended, inFrame: inFrame)
    }

    func test_readyOnceEveryOutputShowsAFrameOrIsNotShownThenAliveEachTick() {
        var health = ServiceHealth(watchdogTimeout: 10)
        XCTAssertEqual(health.judge([window("A"), window("B", shown: false)], elapsed: 0.5), .starting)
        XCTAssertEqual(health.judge([window("A"), window("B", shown: false, suspended: true)], elapsed: 0.6),
                       .ready(waiting: []), "an output the compositor does not show holds nothing up")
        XCTAssertEqual(health.judge([window("A"), window("B")], elapsed: 0.7), .alive)
        XCTAssertEqual(health.judge([], elapsed: 99), .alive, "no output left: the main loop still answers")
    }

    func test_noOutputAtTheStartIsReadyAtOnceAndAnOutputThatShowsNothingByTheDeadline() {
        var empty = ServiceHealth(watchdogTimeout: nil)
        XCTAssertEqual(empty.judge([], elapsed: 0.1), .ready(waiting: []))
        var late = ServiceHealth(watchdogTimeout: nil)
        XCTAssertEqual(late.judge([window("A"), window("B", shown: false)], elapsed: 9.9), .starting)
        XCTAssertEqual(late.judge([window("A"), window("B", shown: false)], elapsed: ServiceHealth.readyDeadline),
                       .ready(waiting: ["B"]))
    }

    func test_aFrameHungForHalfTheWatchdogStopsTheKeepAlivesUntilItEnds() {
        var health = ServiceHealth(watchdogTimeout: 4)
        _ = health.judge([window("A")], elapsed: 1)
        XCTAssertEqual(health.judge([window("A", inFrame: 1.9)], elapsed: 2), .alive, "a slow frame is no hang")
        XCTAssertEqual(health.judge([window("A", inFrame: 2)], elapsed: 3), .stuck(name: "A", seconds: 2))
        XCTAssertEqual(health.judge([window("A")], elapsed: 4), .alive)
        var unwatched = ServiceHealth(watchdogTimeout: nil)
        XCTAssertEqual(unwatched.judge([window("A", inFrame: 60)], elapsed: 1), .ready(waiting: []),
                       "without a watchdog no frame is judged")
        var starting = ServiceHealth(watchdogTimeout: 4)
        XCTAssertEqual(starting.judge([window("A", shown: false, inFrame: 3)], elapsed: 3), .starting,
                       "a first frame that hangs holds READY=1 back")
        XCTAssertEqual(starting.judge([window("A", shown: false, inFrame: 10)], elapsed: 10), .ready(waiting: ["A"]))
        XCTAssertEqual(starting.judge([window("A", shown: false, inFrame: 11)], elapsed: 11), .stuck(name: "A", seconds: 11),
                       "and after the deadline no keep-alive comes")
        var slow = ServiceHealth(watchdogTimeout: 4)
        XCTAssertEqual(slow.judge([window("A", inFrame: 3)], elapsed: 3), .ready(waiting: []),
                       "a frame under way does not hold READY=1 back once the first reached the screen")
        XCTAssertEqual(slow.judge([window("A", suspended: true, inFrame: 30)], elapsed: 40), .alive,
                       "a window waiting for the compositor is no hang")
    }

    func test_journalLinesCarryTheirPriorityEachLineOfAMessage() {
        XCTAssertEqual(Journal.lines("glout: error: a\nb\n", level: .error, journal: true), "<3>glout: error: a\n<3>b\n")
        XCTAssertEqual(Journal.lines("glout: warning: w\n", level: .warning, journal: true), "<4>glout: warning: w\n")
        XCTAssertEqual(Journal.lines("glout: i\n", level: .info, journal: true), "<6>glout: i\n")
        XCTAssertEqual(Journal.lines("glout: d\n", level: .debug, journal: true), "<7>glout: d\n")
        XCTAssertEqual(Journal.lines("glout: i\n", level: .info, journal: false), "glout: i\n")
    }

    /// A real datagram socket, bound as systemd binds its own, by path and by abstract name.
    func test_theNotifierSendsDatagramsToAPathOrAnAbstractSocket() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glout-notify-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in [folder.appendingPathComponent("notify").path, "@glout-test-notify-\(getpid())"] {
            let receiver = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            XCTAssertGreaterThanOrEqual(receiver, 0)
            defer { close(receiver) }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            var bytes = Array(name.utf8)
            if bytes[0] == UInt8(ascii: "@") { bytes[0] = 0 }
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
            let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (bytes[0] == 0 ? 0 : 1))
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(receiver, $0, length) }
            }
            XCTAssertEqual(bound, 0, "bind \(name): \(String(cString: strerror(errno)))")
            let notifier = try ServiceNotifier(socket: name, watchdogTimeout: .seconds(4))
            XCTAssertNil(notifier.send("READY=1", "STATUS=drawing on 2 outputs"))
            var buffer = [UInt8](repeating: 0, count: 256)
            let received = recv(receiver, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            XCTAssertGreaterThan(received, 0)
            XCTAssertEqual(String(decoding: buffer.prefix(max(received, 0)), as: UTF8.self), "READY=1\nSTATUS=drawing on 2 outputs",
                           name)
        }
        XCTAssertThrowsError(try ServiceNotifier(socket: "relative/path", watchdogTimeout: nil))
        XCTAssertThrowsError(try ServiceNotifier(socket: "/" + String(repeating: "x", count: 200), watchdogTimeout: nil))
        let gone = try ServiceNotifier(socket: folder.appendingPathComponent("nobody").path, watchdogTimeout: nil)
        XCTAssertNotNil(gone.send("WATCHDOG=1"), "a socket nobody listens on is an error said, not a crash")
    }
}
