import Foundation
import XCTest
@testable import glout

/// The glout binary, on a real compositor, given every option of every command with
/// values that break careless arithmetic and text handling: it must end with status 0,
/// 1 or 2, never by a signal, and a refusal must name the option.
final class OptionAbuseTests: SharedSwayTestCase {
    /// 0, negative, 1e300, inf, nan, empty, 10,000 characters, bytes that are not UTF-8,
    /// an output that does not exist; for per-output options also NAME=1e300 and NAME=.
    static let values: [[UInt8]] = [
        "0", "-1", "1e300", "inf", "nan", "", String(repeating: "7", count: 10_000), "NO-SUCH-OUTPUT",
        "HEADLESS-1=1e300", "HEADLESS-1=",
    ].map { Array($0.utf8) } + [[0xFF, 0xFE, 0x2D, 0xC3]]

    /// What each command needs besides the option under test; runs end on their own.
    func base(_ command: String, option: String) -> [String] {
        switch command {
        case "outputs":
            switch option {
            case "--duration", "--watch": ["outputs", "--watch", "--duration", "0.3"]
            case "--machine", "--bezel": ["outputs", "--wall-json"]
            default: ["outputs"]
            }
        case "protocols": ["protocols"]
        case "snapshot":
            switch option {
            case "--out": ["snapshot"]
            case "--canvas-scale": ["snapshot", "--canvas", "--out", "canvas.png"]
            default: ["snapshot", "--out", "snapshots"]
            }
        default: [command, "--duration", "0.3"]
        }
    }

    func test_noValueOfAnyOptionEndsGloutBySignal() throws {
        var runs = 0
        var accepted = 0
        for command in Arguments.commands {
            for (option, takesValue) in Help.options(of: command) {
                let tails: [[[UInt8]]] = takesValue
                    ? OptionAbuseTests.values.map { [Array(option.utf8), $0] }
                    : [[Array(option.utf8)], [Array("\(option)=1e300".utf8)]]
                for tail in tails {
                    let arguments = base(command, option: option).map { Array($0.utf8) } + tail
                    let shown = arguments.map { String(decoding: $0.prefix(30), as: UTF8.self) }.joined(separator: " ")
                    let glout = try Child(Paths.glout, bytes: arguments, environment: sway.environment,
                                          directory: folder.path)
                    let finished = glout.wait()
                    runs += 1
                    XCTAssertFalse(finished.signaled, "glout \(shown): killed by signal \(finished.status - 128): "
                                   + finished.stderr.suffix(800))
                    XCTAssertTrue([0, 1, 2].contains(finished.status), "glout \(shown): status \(finished.status): "
                                  + finished.stderr.suffix(800))
                    XCTAssertFalse(finished.stderr.contains("Fatal error"), "glout \(shown): \(finished.stderr.suffix(800))")
                    if finished.status == 2 {
                        let first = finished.stderr.split(separator: "\n").first ?? ""
                        XCTAssertTrue(first.contains(option) || first.contains("unexpected value"),
                                      "glout \(shown): the refusal does not name \(option): \(first.prefix(300))")
                    } else {
                        accepted += 1
                    }
                }
            }
        }
        print("option abuse: \(runs) runs of glout, \(accepted) accepted")
        XCTAssertGreaterThan(runs, 500)
    }
}
