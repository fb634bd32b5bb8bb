import Foundation
import XCTest

/// The project's own test compositor (Tests/TestCompositor), built beside glout: it
/// serves what glout needs and sends what its arguments say, however wrong, so the tests
/// can see glout meet what no real compositor sends. Stopped (SIGTERM) when the object
/// goes; its log and standard error are in every failure's diagnostics.
final class FaultyCompositor {
    let folder: URL
    let socket = "tc"
    private let child: Child
    private var control: URL { folder.appendingPathComponent("control") }
    var logFile: URL { folder.appendingPathComponent("log") }

    /// Starts it with `arguments` (its options, see its README) and waits until it is
    /// ready (its `ready SOCKET` line).
    init(_ arguments: [String]) throws {
        folder = Paths.temporaryFolder()
        chmod(folder.path, 0o700)
        child = try Child(Paths.example("TestCompositor"),
                          ["--socket", socket, "--control", folder.appendingPathComponent("control").path,
                           "--log", folder.appendingPathComponent("log").path] + arguments,
                          environment: ["XDG_RUNTIME_DIR": folder.path])
        let log = logFile, child = child
        Diagnostics.shared.track(self, label: "TestCompositor \(arguments.joined(separator: " ").prefix(120)) (pid \(child.pid)), log",
                                 pid: child.pid) {
            ((try? String(contentsOf: log, encoding: .utf8)) ?? "") + "\n--- its stderr ---\n" + child.stderr
        }
        try waitUntil("the test compositor is ready: \(child.stderr)") {
            guard child.isRunning else { throw HarnessError("the test compositor exited: \(child.stderr)") }
            return child.stdout.contains("ready \(socket)")
        }
    }

    deinit {
        Diagnostics.shared.retire(self)
        child.signal(SIGTERM)
        _ = child.wait(timeout: 10)
        try? FileManager.default.removeItem(at: folder)
    }

    /// What a client needs to connect to it.
    var environment: [String: String] { ["XDG_RUNTIME_DIR": folder.path, "WAYLAND_DISPLAY": socket] }

    /// The path of its socket, for a client of the test process's own.
    var socketPath: String { folder.appendingPathComponent(socket).path }

    /// Whether it still runs (it must never crash, whatever glout does).
    var isRunning: Bool { child.isRunning }

    /// Its standard output: `ready`, `pong SERIAL LATENCY_US` and `screenshot` lines.
    var stdout: String { child.stdout }

    /// Its event log.
    var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    /// Starts glout against it.
    func glout(_ arguments: [String]) throws -> Child {
        try Child(Paths.glout, arguments, environment: environment)
    }

    /// Sends one control command (a line to its FIFO).
    func send(_ command: String) throws {
        let fd = open(control.path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw HarnessError("cannot open the test compositor's control FIFO: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var line = command + "\n"
        let written = line.withUTF8 { write(fd, $0.baseAddress, $0.count) }
        guard written == line.utf8.count else { throw HarnessError("cannot write '\(command)' to the control FIFO") }
    }

    /// The last buffer glout committed on `output`, as the compositor got it (raw: no
    /// viewport or scale applied); nil while there is none.
    func screenshot(_ output: String) throws -> Image? {
        let file = folder.appendingPathComponent("shot-\(UUID().uuidString).ppm")
        defer { try? FileManager.default.removeItem(at: file) }
        let before = stdout.components(separatedBy: "screenshot \(output) ").count
        try send("screenshot \(output) \(file.path)")
        var answer = ""
        try waitUntil("the test compositor's screenshot of \(output)") {
            let parts = stdout.components(separatedBy: "screenshot \(output) ")
            guard parts.count > before, let line = parts.last?.split(separator: "\n").first else { return false }
            answer = String(line)
            return true
        }
        if answer.hasPrefix("none") { return nil }
        return try Image(ppm: Data(contentsOf: file))
    }

    /// The pong latencies it measured, in microseconds (with --ping-every-ms).
    var pongLatencies: [Int] {
        stdout.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            return words.count == 3 && words[0] == "pong" ? Int(words[2]) : nil
        }
    }
}
