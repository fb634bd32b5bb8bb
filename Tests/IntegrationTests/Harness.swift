import Foundation
import XCTest

/// Paths of the package and of the glout binary the integration tests run.
enum Paths {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The binaries the tests run: the release build, the one README builds and users run
    /// (an optimized build frees memory after its last use, where a debug build keeps it
    /// to the end of the scope, so only it shows a pointer that outlives its buffer), in
    /// the same build folder as the tests (`swift build -c release` first). With
    /// GLOUT_TEST_BUILD=debug (scripts/sanitize), the debug build beside the tests, which
    /// carries the sanitizer.
    static let binaries: URL = {
        let tests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        if ProcessInfo.processInfo.environment["GLOUT_TEST_BUILD"] == "debug" { return tests }
        return tests.deletingLastPathComponent().appendingPathComponent("release")
    }()

    static var glout: String {
        if let path = ProcessInfo.processInfo.environment["GLOUT_BINARY"] { return path }
        return binaries.appendingPathComponent("glout").path
    }

    /// Why the binaries cannot be the code under test, or nil: glout missing, or older
    /// than a source or shader file (a release build not made again after a change).
    static let binaryProblem: String? = {
        guard ProcessInfo.processInfo.environment["GLOUT_BINARY"] == nil else { return nil }
        let manager = FileManager.default
        guard let built = (try? manager.attributesOfItem(atPath: glout))?[.modificationDate] as? Date else {
            return "no glout at \(glout): build it first (`swift build -c release`; scripts/test does)"
        }
        for folder in ["Sources", "shaders", "Examples", "Tests/TestCompositor"] {
            let root = packageRoot.appendingPathComponent(folder)
            for case let file as URL in manager.enumerator(at: root, includingPropertiesForKeys: [.contentModificationDateKey]) ?? .init()
            where ((try? file.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? .distantPast) > built {
                return "\(glout) is older than \(file.path): build it again (`swift build -c release`; scripts/test does)"
            }
        }
        return nil
    }()

    static var compositorScript: String { packageRoot.appendingPathComponent("scripts/compositor").path }

    /// An example program (Examples/NAME), built beside glout.
    static func example(_ name: String) -> String {
        URL(fileURLWithPath: glout).deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// A fresh temporary folder, removed by the test case's teardown.
    static func temporaryFolder() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("glout-test-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// How long the tests wait. A wait ends as soon as its condition holds, so its bound only
/// has to catch a hang: generous enough for a loaded two-core machine and for a
/// sanitized build. What glout promises ("a window within a second") is checked
/// separately, on the measured time, scaled for sanitized builds only.
enum Timing {
    /// How many times slower a sanitized build (scripts/sanitize) runs.
    static let slowdown: Double = switch ProcessInfo.processInfo.environment["GLOUT_SANITIZER"] {
    case "thread": 10
    case "address": 3
    default: 1
    }
    /// The bound of a wait for something that normally takes a second or less.
    static let patience = 30 * slowdown
    /// A time glout promises, on this build.
    static func promise(_ seconds: Double) -> Double { seconds * slowdown }
    /// Whether this is a sanitized build.
    static var sanitized: Bool { slowdown > 1 }
}

/// Waits until `condition` holds, checking every 50 ms; throws after `timeout` seconds,
/// saying `what` (made then, so it can report the last state the condition saw).
func waitUntil(_ what: @autoclosure () -> String, within timeout: Double = Timing.patience,
               _ condition: () throws -> Bool) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        if try condition() { return }
        guard Date() < deadline else { throw HarnessError("not within \(timeout) s: \(what())") }
        usleep(50_000)
    }
}

/// glibc's posix_spawn_file_actions_addchdir_np (2.29), which the Glibc module does not import.
@_silgen_name("posix_spawn_file_actions_addchdir_np")
private func spawnChangeDirectory(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>,
                                  _ path: UnsafePointer<CChar>) -> Int32

/// What a finished process left behind.
struct Finished {
    var status: Int32
    var stdout: String
    var stderr: String
    var seconds: Double
    var signaled: Bool
}

/// A child process whose output goes to files (no pipe can fill up and block it),
/// spawned and reaped by pid. Foundation's Process is not used: it waits for every
/// holder of an inherited descriptor, so a compositor daemonized by a script would
/// keep the script "running".
final class Child {
    let pid: pid_t
    private let folder = Paths.temporaryFolder()
    private let started = Date()
    private var status: Int32?

    convenience init(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                     directory: String? = nil) throws {
        try self.init(executable, bytes: arguments.map { Array($0.utf8) }, environment: environment, directory: directory)
    }

    /// Arguments as raw bytes (they need not be UTF-8); `directory` is the working directory.
    init(_ executable: String, bytes arguments: [[UInt8]], environment: [String: String] = [:],
         directory: String? = nil) throws {
        var env = ProcessInfo.processInfo.environment
        for key in ["WAYLAND_DISPLAY", "WAYLAND_SOCKET", "SWAYSOCK"] { env[key] = nil }
        env.merge(environment) { _, new in new }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let directory { _ = spawnChangeDirectory(&actions, directory) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, folder.appendingPathComponent("out").path,
                                         O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, folder.appendingPathComponent("err").path,
                                         O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), defaults = sigset_t()
        sigemptyset(&none)
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        env["GLOUT_BINARY"] = nil
        // A crash prints every thread's whole stack (the default shows the top frame only).
        env["SWIFT_BACKTRACE"] = env["SWIFT_BACKTRACE"] ?? "threads=all,limit=48,registers=none,images=none"
        let argv = ([Array(executable.utf8)] + arguments).map { bytes in
            bytes.withUnsafeBufferPointer { buffer -> UnsafeMutablePointer<CChar>? in
                let copy = UnsafeMutablePointer<CChar>.allocate(capacity: buffer.count + 1)
                for (i, byte) in buffer.enumerated() { copy[i] = CChar(bitPattern: byte) }
                copy[buffer.count] = 0
                return copy
            }
        } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { p?.deallocate() }
            for p in envp { free(p) }
        }
        var pid = pid_t()
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else { throw HarnessError("cannot start \(executable): \(String(cString: strerror(result)))") }
        self.pid = pid
        if executable == Paths.glout {
            let errors = folder.appendingPathComponent("err")
            let shown = arguments.map { String(decoding: $0.prefix(60), as: UTF8.self) }.joined(separator: " ")
            Diagnostics.shared.track(self, label: "glout \(shown) (pid \(pid)), stderr",
                                     pid: pid) { (try? String(contentsOf: errors, encoding: .utf8)) ?? "" }
        }
    }

    deinit {
        if isRunning {
            kill(pid, SIGKILL)
            _ = reap(block: true)
        }
        Diagnostics.shared.retire(self)
        try? FileManager.default.removeItem(at: folder)
    }

    var stderr: String { (try? String(contentsOf: folder.appendingPathComponent("err"), encoding: .utf8)) ?? "" }
    var stdout: String { (try? String(contentsOf: folder.appendingPathComponent("out"), encoding: .utf8)) ?? "" }

    var isRunning: Bool { reap(block: false) == nil }

    func signal(_ number: Int32) { kill(pid, number) }

    /// The wait status once the child has ended (waitpid).
    private func reap(block: Bool) -> Int32? {
        if let status { return status }
        var raw: Int32 = 0
        if waitpid(pid, &raw, block ? 0 : WNOHANG) == pid { status = raw }
        return status
    }

    /// Waits for the exit; kills the process and fails the test after `timeout` seconds.
    func wait(timeout: Double = Timing.patience, file: StaticString = #filePath, line: UInt = #line) -> Finished {
        let deadline = Date().addingTimeInterval(timeout)
        while isRunning && Date() < deadline { usleep(10_000) }
        if isRunning {
            // Where it is stuck, before it goes.
            let stacks = Diagnostics.backtraces(of: pid)
            XCTFail("still running after \(timeout) s; killed. stderr:\n\(stderr)\ngdb backtraces:\n\(stacks)", file: file, line: line)
            kill(pid, SIGKILL)
        }
        let raw = reap(block: true) ?? 0
        let signaled = raw & 0x7f != 0
        return Finished(status: signaled ? 128 + (raw & 0x7f) : (raw >> 8) & 0xff, stdout: stdout, stderr: stderr,
                        seconds: Date().timeIntervalSince(started), signaled: signaled)
    }
}

/// One compositor from scripts/compositor, stopped when the object goes.
final class Compositor {
    let environment: [String: String]
    let folder: String
    /// The Debian 13 root the compositor runs in (nil: this machine's own).
    let root: String?

    private init(_ arguments: [String]) throws {
        let child = try Child("/bin/bash", [Paths.compositorScript] + arguments)
        let finished = child.wait(timeout: Timing.patience)
        guard finished.status == 0 else {
            throw HarnessError("scripts/compositor \(arguments.joined(separator: " ")) failed: \(finished.stderr)")
        }
        var values: [String: String] = [:]
        for line in finished.stdout.split(separator: "\n") where line.hasPrefix("export ") {
            let pair = line.dropFirst(7).split(separator: "=", maxSplits: 1).map(String.init)
            if pair.count == 2 { values[pair[0]] = pair[1] }
        }
        folder = values["GLOUT_COMPOSITOR_DIR"] ?? ""
        values["GLOUT_COMPOSITOR_DIR"] = nil
        root = values.removeValue(forKey: "GLOUT_COMPOSITOR_ROOT")
        environment = values
        let log = URL(fileURLWithPath: folder).appendingPathComponent("log")
        let label = "\(arguments.first ?? "compositor") (pid \(values["COMPOSITOR_PID"] ?? "?")) log, \(log.path)"
        Diagnostics.shared.track(self, label: label, pid: values["COMPOSITOR_PID"].flatMap(Int32.init)) {
            (try? String(contentsOf: log, encoding: .utf8)) ?? "(no log)"
        }
    }

    /// Headless sway with one output per mode ("1280x720@60"). It composites every frame
    /// (--no-scanout): while sway 1.7 scans a fullscreen client's buffer out, its
    /// screencopy captures a stale frame, and glout's still pictures commit nothing new.
    static func sway(_ modes: [String], scale: Int? = nil) throws -> Compositor {
        try sway(modes, scale: scale.map { "\($0)" })
    }

    /// A fractional `scale` ("1.5"): sway 1.10 offers wp_fractional_scale_v1.
    static func sway(_ modes: [String], scale: String?) throws -> Compositor {
        try Compositor(["sway", "--no-scanout", "--outputs", modes.joined(separator: ",")]
                       + (scale.map { ["--scale", "\($0)"] } ?? []))
    }

    /// A sway with the Wayland backend inside `parent` (a headless sway), with `outputs`
    /// outputs WL-1... that are windows titled "wlroots - WL-N" in the parent: closing
    /// one there unplugs that output.
    static func nested(inside parent: Compositor, outputs: Int = 2) throws -> Compositor {
        let child = try Compositor(["nested", "--parent", parent.folder, "--outputs", "\(outputs)"])
        child.parent = parent
        return child
    }

    /// Sends a nested sway an event from its parent: focus to the parent container and
    /// back. Errors are ignored (there may be nothing to focus).
    func nudge() {
        guard let socket = environment["SWAYSOCK"] else { return }
        for command in ["focus parent", "focus child"] {
            _ = try? SwayIPC(socketPath: socket, timeout: 5).send(.runCommand, command)
        }
    }

    /// Headless weston with one output, with the desktop shell or kiosk-shell.
    static func weston(size: String = "1024x768", kiosk: Bool = false) throws -> Compositor {
        try Compositor(["weston", "--size", size] + (kiosk ? ["--kiosk"] : []))
    }

    /// Headless cage with `outputs` outputs of 1280x720@60.
    static func cage(outputs: Int = 2) throws -> Compositor {
        try Compositor(["cage", "--outputs", "\(outputs)"])
    }

    /// Headless mutter with one output per mode ("1280x720@60").
    static func mutter(_ modes: [String]) throws -> Compositor {
        try Compositor(["mutter", "--outputs", modes.joined(separator: ",")])
    }

    /// Virtual kwin with `outputs` outputs of `size` at `scale` (fractional scales are
    /// offered to clients through wp_fractional_scale_v1).
    static func kwin(outputs: Int = 2, size: String = "1280x720", scale: String = "1") throws -> Compositor {
        try Compositor(["kwin", "--outputs", "\(outputs)", "--size", size, "--scale", scale])
    }

    /// Headless labwc (Debian 13's) with `outputs` outputs of 1280x720.
    static func labwc(outputs: Int = 2) throws -> Compositor {
        try Compositor(["labwc", "--outputs", "\(outputs)"])
    }

    /// Headless phoc with `outputs` outputs of 1280x720@60, which a client can switch to
    /// another mode, or off and on, through wlr-output-management (sway 1.7 cannot do
    /// that for headless outputs).
    static func phoc(outputs: Int = 1) throws -> Compositor {
        try Compositor(["phoc", "--outputs", "\(outputs)"])
    }

    deinit { stop() }

    func stop() {
        Diagnostics.shared.retire(self)
        _ = try? Child("/bin/bash", [Paths.compositorScript, "stop", folder]).wait(timeout: 30)
    }

    var pid: Int32? { environment["COMPOSITOR_PID"].flatMap(Int32.init) }

    var isRunning: Bool {
        guard let pid = environment["COMPOSITOR_PID"].flatMap(Int32.init) else { return false }
        return kill(pid, 0) == 0
    }

    /// Runs a tool (swaymsg, grim, ...) against this compositor.
    func tool(_ name: String, _ arguments: [String], timeout: Double = Timing.patience) throws -> Finished {
        let finished = try Child("/usr/bin/\(name)", arguments, environment: environment).wait(timeout: timeout)
        guard finished.status == 0 else {
            throw HarnessError("\(name) \(arguments.joined(separator: " ")) failed (\(finished.status)): \(finished.stderr)")
        }
        return finished
    }

    /// A fresh folder that the compositor's own tools (``ownTool(_:in:)``) can write to: in
    /// its root's /tmp for Debian 13's. Returns its path here and there.
    func sharedFolder() -> (here: URL, there: String) {
        guard let root else {
            let folder = Paths.temporaryFolder()
            return (folder, folder.path)
        }
        let there = "/tmp/glout-test-\(UUID().uuidString)"
        let here = URL(fileURLWithPath: root + there)
        try? FileManager.default.createDirectory(at: here, withIntermediateDirectories: true)
        return (here, there)
    }

    /// Runs `command` (sh -c) with the compositor's own distribution's tools, connected to
    /// it, in `directory` (a path there: see ``sharedFolder()``). For a tool that must match
    /// its compositor: weston 14 answers only weston 14's screenshooter.
    func ownTool(_ command: String, in directory: String) throws -> Finished {
        let script = "cd '\(directory)' && exec \(command)"
        guard let root else { return try Child("/bin/sh", ["-c", script], environment: environment).wait() }
        let runtime = String(environment["XDG_RUNTIME_DIR", default: ""].dropFirst(root.count))
        return try Child("/usr/sbin/chroot", [root, "/usr/bin/env", "-i", "PATH=/usr/bin:/bin", "XDG_RUNTIME_DIR=\(runtime)",
                                              "WAYLAND_DISPLAY=\(environment["WAYLAND_DISPLAY"] ?? "")", "/bin/sh", "-c", script]).wait()
    }

    /// The headless sway a nested one runs in.
    private(set) weak var parent: Compositor?

    /// What `swaymsg ARGUMENTS` does, through `SwayIPC` (swaymsg gives up after 3 s):
    /// `-t get_outputs` and `-t get_tree` ask, anything else is a command.
    ///
    /// A nested sway 1.7 (wlroots 0.15.1's Wayland backend) can stop answering after
    /// `create_output`: the command runs, but the reply is only queued. Found with strace
    /// and gdb (closing note of issue 9): `create_output` makes a roundtrip with the parent
    /// that reads everything waiting on the parent's socket; when that socket had been
    /// reported readable in the same epoll batch, the backend's handler then runs
    /// wl_display_dispatch, which polls the now empty socket without a timeout (stack:
    /// poll, wl_display_dispatch_queue, libwlroots, wl_event_loop_dispatch,
    /// wl_display_run). Nothing comes if the parent has nothing to send, and sway never
    /// returns to its loop to write the reply. It happened in about one suite run in two
    /// on a loaded two-core machine, and every time when the nested sway was slowed down
    /// under strace. Any event from the parent frees it: so when a nested sway's reply is
    /// a second late, the parent moves keyboard focus up and back (xdg_toplevel.configure
    /// to the nested windows), which changes nothing else.
    func swaymsg(_ arguments: String...) throws -> String {
        try swaymsg(arguments)
    }

    func swaymsg(_ arguments: [String]) throws -> String {
        guard let socket = environment["SWAYSOCK"] else { throw HarnessError("this compositor has no sway IPC socket") }
        var ipc = SwayIPC(socketPath: socket)
        ipc.whenLate = { Diagnostics.shared.backtraces() }
        if let parent { ipc.whenSlow = { parent.nudge() } }
        switch arguments {
        case ["-t", "get_outputs"]: return try ipc.send(.getOutputs)
        case ["-t", "get_tree"]: return try ipc.send(.getTree)
        default: return try ipc.run(arguments.joined(separator: " "))
        }
    }

    /// What reaches the screen of one output: grim's capture through wlr-screencopy.
    func screenshot(_ output: String) throws -> Image {
        let file = Paths.temporaryFolder().appendingPathComponent("\(output).ppm")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        _ = try tool("grim", ["-t", "ppm", "-o", output, file.path])
        return try Image(ppm: Data(contentsOf: file))
    }

    /// Starts glout against this compositor, with `extra` in its environment.
    func glout(_ arguments: [String], extra: [String: String] = [:]) throws -> Child {
        try Child(Paths.glout, arguments, environment: environment.merging(extra) { _, new in new })
    }

    /// The views sway shows: (output, app_id, fullscreen, width, height).
    func views() throws -> [(output: String, appID: String, fullscreen: Bool, width: Int, height: Int)] {
        let tree = try JSONSerialization.jsonObject(with: Data(try swaymsg("-t", "get_tree").utf8))
        var found: [(String, String, Bool, Int, Int)] = []
        func walk(_ node: [String: Any], output: String?) {
            var output = output
            if node["type"] as? String == "output" { output = node["name"] as? String }
            if let app = node["app_id"] as? String ?? (node["type"] as? String == "con" ? node["name"] as? String : nil),
               let rect = node["rect"] as? [String: Any] {
                found.append((output ?? "?", app, (node["fullscreen_mode"] as? Int ?? 0) != 0,
                              rect["width"] as? Int ?? 0, rect["height"] as? Int ?? 0))
            }
            for key in ["nodes", "floating_nodes"] {
                for child in node[key] as? [[String: Any]] ?? [] { walk(child, output: output) }
            }
        }
        walk(tree as? [String: Any] ?? [:], output: nil)
        return found
    }

    /// Waits until glout shows a fullscreen view on each of `outputs` and has drawn
    /// there; for a `frozen` run, until the pictures have settled (two captures in a row
    /// equal), so they can be compared.
    func waitForGlout(on outputs: [String], frozen: Bool = true, timeout: Double = Timing.patience) throws {
        let deadline = Date().addingTimeInterval(timeout)
        try waitUntil("glout fullscreen on \(outputs.joined(separator: ", "))", within: timeout) {
            Set(try views().filter { $0.appID == "glout" && $0.fullscreen }.map(\.output)).isSuperset(of: outputs)
        }
        for output in outputs {
            var previous = try screenshot(output)
            while true {
                guard Date() < deadline else { throw HarnessError("glout's picture on \(output) did not settle") }
                usleep(150_000)
                let next = try screenshot(output)
                if !next.isUniform && (next == previous || !frozen) { break }
                previous = next
            }
        }
    }
}

/// A sway whose outputs can be unplugged and plugged while glout runs. On Debian 12 it is a
/// nested sway inside a headless one (sway 1.7 cannot unplug a headless output): its
/// outputs WL-1, WL-2... are windows of the parent, and closing one there unplugs it. On
/// Debian 13 it is a headless sway 1.10, which unplugs HEADLESS-N itself.
final class HotplugRig {
    /// The compositor glout runs under.
    let compositor: Compositor
    private let parent: Compositor?

    init(outputs: Int = 2) throws {
        if Stack.current.swayUnplugs {
            parent = nil
            compositor = try Compositor.sway(Array(repeating: "800x600@60", count: outputs))
        } else {
            let parent = try Compositor.sway(["1600x600@60"])
            self.parent = parent
            compositor = try Compositor.nested(inside: parent, outputs: outputs)
        }
    }

    /// The name of the n-th output the compositor made (1-based): the first ones, then one
    /// more for each ``plug()``.
    func name(_ n: Int) -> String { parent == nil ? "HEADLESS-\(n)" : "WL-\(n)" }

    /// Removes an output: clients see wl_registry.global_remove.
    func unplug(_ name: String) throws {
        if let parent {
            try HotplugRig.closeWindow(of: name, in: parent)
        } else {
            _ = try compositor.swaymsg("output", name, "unplug")
        }
    }

    /// Adds an output (`swaymsg create_output`), named ``name(_:)`` of the next number.
    func plug() throws {
        _ = try compositor.swaymsg("create_output")
    }

    /// Closes the parent's window of a nested output: the child removes that wl_output.
    /// The parent matches the window only once it is mapped, a moment after the child
    /// made the output, so this retries until it does.
    private static func closeWindow(of name: String, in parent: Compositor) throws {
        let deadline = Date().addingTimeInterval(Timing.patience)
        while true {
            do {
                _ = try parent.swaymsg("[title=\"^wlroots - \(name)$\"] kill")
                return
            } catch where Date() < deadline {
                usleep(50_000)
            }
        }
    }
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Reads a JSON file into a dictionary.
func readJSON(_ path: String) throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
    guard let dictionary = object as? [String: Any] else { throw HarnessError("\(path) is not a JSON object") }
    return dictionary
}

/// The per-output entries of a glout JSON report, by name.
func outputsByName(_ report: [String: Any]) -> [String: [String: Any]] {
    var result: [String: [String: Any]] = [:]
    for entry in report["outputs"] as? [[String: Any]] ?? [] {
        if let name = entry["name"] as? String { result[name] = entry }
    }
    return result
}

/// Test cases that share one headless sway (1280x720@60 and 800x600@30) across their
/// tests, and give each test a temporary folder.
class SharedSwayTestCase: IntegrationTestCase {
    nonisolated(unsafe) private static var compositors: [ObjectIdentifier: Compositor] = [:]
    var sway: Compositor { SharedSwayTestCase.compositors[ObjectIdentifier(type(of: self))]! }
    var folder: URL!

    override class func setUp() {
        compositors[ObjectIdentifier(self)] = try? Compositor.sway(["1280x720@60", "800x600@30"])
    }

    override class func tearDown() {
        compositors[ObjectIdentifier(self)] = nil
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard let compositor = SharedSwayTestCase.compositors[ObjectIdentifier(type(of: self))], compositor.isRunning else {
            throw HarnessError("headless sway did not start (scripts/compositor sway)")
        }
        folder = Paths.temporaryFolder()
    }

    override func tearDown() {
        // Nil where set-up threw before it made the folder (glout not built, no sway).
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }
}
