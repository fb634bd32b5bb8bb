import Foundation
import XCTest
@testable import glout

/// schemathesis, a property-based fuzzer driven by docs/openapi.json, against the release
/// binary's control API: every operation with generated paths, bodies and headers, and
/// every answer checked against the document. It finds no server error, no crash and no
/// hang, and glout draws on and answers after it. Bounded: a fixed seed and example count
/// (about 800 requests, 15 s).
final class ControlFuzzTests: SharedSwayTestCase {
    /// Where scripts/install-deps --tests puts it.
    static let fuzzer = "/var/cache/glout/schemathesis/bin/schemathesis"

    func test_schemathesisFindsNoServerErrorCrashOrHang() throws {
        guard FileManager.default.isExecutableFile(atPath: ControlFuzzTests.fuzzer) else {
            throw HarnessError("no schemathesis at \(ControlFuzzTests.fuzzer): run scripts/install-deps --tests")
        }
        // Files for generated names to find under the root: an image and a shader.
        let root = folder.appendingPathComponent("root")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try Bitmap(width: 8, height: 8, pixels: [UInt8](repeating: 120, count: 256)).writePNG(to: root.appendingPathComponent("a").path)
        try "#version 300 es\nprecision mediump float;\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n"
            .write(to: root.appendingPathComponent("b"), atomically: true, encoding: .utf8)
        let glout = try sway.glout(["run", "--http", "0", "--layout", "independent", "--content-root", root.path])
        var base = ""
        try waitUntil("glout says where the control API is; stderr:\n\(glout.stderr)") {
            guard glout.isRunning else { throw HarnessError("glout ended: \(glout.stderr)") }
            guard let line = glout.stderr.split(separator: "\n").first(where: { $0.contains("control API on http://") }),
                  let start = line.range(of: "http://"), let end = line.range(of: "/api/v1/") else { return false }
            base = String(line[start.lowerBound..<end.lowerBound])
            return true
        }
        try sway.waitForGlout(on: ["HEADLESS-1", "HEADLESS-2"], frozen: false)
        let reports = folder.appendingPathComponent("reports")
        let fuzz = try Child(ControlFuzzTests.fuzzer, [
            "run", Paths.packageRoot.appendingPathComponent("docs/openapi.json").path, "--url", base,
            "--checks", "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance",
            "--max-examples", "40", "--seed", "20261206", "--request-timeout", "20", "--max-response-time", "15",
            // The coverage phase of schemathesis 4.32.5 stops with an error of its own
            // (hypothesis' lambda introspection: "AST constructor recursion depth mismatch").
            "--phases", "examples,fuzzing,stateful", "--workers", "2",
            // A stream of events never ends, so each of its requests would time out;
            // ControlTests and test_theEventStreamTellsWhatHappens check its query.
            "--exclude-path", "/api/v1/events", "--report", "junit", "--report-dir", reports.path, "--no-color",
        ], environment: ["SCHEMATHESIS_HOOKS": "", "HOME": folder.path], directory: folder.path).wait(timeout: 600)
        let summary = fuzz.stdout.split(separator: "\n").suffix(40).joined(separator: "\n")
        print("schemathesis:\n\(summary)")
        XCTAssertEqual(fuzz.status, 0, "schemathesis found failures:\n\(fuzz.stdout)\n\(fuzz.stderr)\nglout:\n\(glout.stderr)")
        XCTAssertTrue(glout.isRunning, "glout ended under the fuzzer:\n\(glout.stderr)")
        // glout answers and draws on after it.
        let after = try Child("/usr/bin/curl", ["-sS", "--max-time", "30", "-o", "/dev/null", "-w", "%{http_code}",
                                                base + "/api/v1/status"]).wait(timeout: 40)
        XCTAssertEqual(after.stdout, "200", after.stderr)
        var seen = try sway.screenshot("HEADLESS-1")
        try waitUntil("HEADLESS-1 still draws") {
            let next = try sway.screenshot("HEADLESS-1")
            defer { seen = next }
            return next != seen
        }
        glout.signal(SIGTERM)
        let finished = glout.wait()
        XCTAssertEqual(finished.status, 0, finished.stderr)
    }
}
