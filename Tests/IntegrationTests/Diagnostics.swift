import Foundation
import XCTest

/// What a person needs when an integration test fails: the last lines of the log of every
/// compositor the test started and of every glout's standard error, those still running
/// and those already gone (their text is kept when they go). On a sway IPC reply that
/// does not come, also where each of those processes is (gdb backtraces of every thread).
final class Diagnostics: @unchecked Sendable {
    static let shared = Diagnostics()
    /// Lines of each log or stderr a report shows.
    static let lines = 40

    private struct Source {
        var label: String
        var pid: pid_t?
        var text: () -> String
    }

    private let lock = NSLock()
    private var live: [ObjectIdentifier: Source] = [:]
    private var gone: [String] = []

    /// Follows a process's log while `owner` lives.
    func track(_ owner: AnyObject, label: String, pid: pid_t?, text: @escaping () -> String) {
        lock.withLock { live[ObjectIdentifier(owner)] = Source(label: label, pid: pid, text: text) }
    }

    /// `owner` is going: keeps the end of its log for a report.
    func retire(_ owner: AnyObject) {
        guard let source = lock.withLock({ live.removeValue(forKey: ObjectIdentifier(owner)) }) else { return }
        let section = Diagnostics.section(source.label, source.text())
        lock.withLock { gone.append(section) }
    }

    /// A new test starts: what earlier tests left is dropped.
    func beginTest() {
        lock.withLock { gone.removeAll() }
    }

    /// The end of every log, gone and live.
    func report() -> String {
        let (gone, live) = lock.withLock { (self.gone, Array(self.live.values)) }
        let sections = gone + live.map { Diagnostics.section($0.label, $0.text()) }
        return sections.isEmpty ? "(no compositor or glout was running)" : sections.joined(separator: "\n")
    }

    /// gdb backtraces of every thread of every live process.
    func backtraces() -> String {
        let live = lock.withLock { Array(self.live.values) }
        var text = ""
        for source in live {
            guard let pid = source.pid, kill(pid, 0) == 0 else { continue }
            text += "=== \(source.label): gdb backtraces (pid \(pid)) ===\n"
            text += Diagnostics.backtraces(of: pid) + "\n"
        }
        return text
    }

    private static func section(_ label: String, _ text: String) -> String {
        let all = text.split(separator: "\n", omittingEmptySubsequences: false)
        // A crash report is shown whole, however long.
        if let crash = all.firstIndex(where: { $0.contains("Fatal error") || $0.contains("Crash at") || $0.contains("crashed:") }),
           crash < all.count - lines {
            let start = all[..<crash].suffix(lines).startIndex
            return "=== \(label), from \(crash - start) lines before its crash ===\n" + all[start...].joined(separator: "\n")
        }
        return "=== \(label), last \(lines) lines ===\n" + all.suffix(lines).joined(separator: "\n")
    }

    /// `gdb -batch -p PID -ex "thread apply all bt"`, at most 30 s.
    static func backtraces(of pid: pid_t) -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("glout-gdb-\(pid)-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let command = "timeout 30 gdb -batch -nx -p \(pid) -ex 'thread apply all bt' >'\(output.path)' 2>&1"
        let status = system(command)
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        // Keep the stacks, not gdb's chatter about symbols.
        let stacks = text.split(separator: "\n").filter { $0.hasPrefix("#") || $0.hasPrefix("Thread ") }
        return stacks.isEmpty ? "gdb status \(status): \(text.suffix(2000))" : stacks.joined(separator: "\n")
    }
}

/// Integration tests: on the first failure of a test, print the end of the compositors'
/// logs and of glout's standard error.
class IntegrationTestCase: XCTestCase {
    private var reported = false

    override func setUp() {
        super.setUp()
        reported = false
        Diagnostics.shared.beginTest()
    }

    /// Every integration test runs the binaries users run, built from the code as it is.
    override func setUpWithError() throws {
        try super.setUpWithError()
        if let problem = Paths.binaryProblem { throw HarnessError(problem) }
    }

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
                                expected: Bool) {
        if !reported {
            reported = true
            print("--- diagnostics for \(name) ---\n\(Diagnostics.shared.report())\n--- end of diagnostics ---")
        }
        super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
    }
}
