import XCTest
import WaylandOutputs
@testable import glout

/// `glout protocols`: what it says of each global, and compositor text on a terminal.
final class ProtocolsReportTests: XCTestCase {
    func test_eachGlobalSaysWhoUsesItAndAtWhichVersion() {
        let report = ProtocolsCommand.report([
            CompositorGlobal(interface: "wl_compositor", version: 6, boundVersion: 6),
            CompositorGlobal(interface: "wl_shm", version: 2, boundVersion: nil),
            CompositorGlobal(interface: "wp_fifo_manager_v1", version: 1, boundVersion: nil),
        ])
        XCTAssertEqual(report.globals.map(\.used_by), ["glout", "mesa", nil])
        XCTAssertEqual(report.globals.map(\.bound_version), [6, nil, nil])
        XCTAssertNil(report.globals[2].use)
        let table = ProtocolsCommand.table(report).split(separator: "\n").map(String.init)
        XCTAssertEqual(table.count, 4)
        XCTAssertTrue(table[1].hasPrefix("wl_compositor       v6       v6     surfaces"), table[1])
        XCTAssertTrue(table[2].contains("v2       Mesa"), table[2])
        XCTAssertTrue(table[3].hasSuffix("-      "), table[3])
    }

    func test_aForgedInterfaceNameCannotReachTheTerminalRaw() {
        let report = ProtocolsCommand.report([CompositorGlobal(interface: "evil\n\u{1b}[2Jx", version: 1, boundVersion: nil)])
        let table = ProtocolsCommand.table(report)
        XCTAssertEqual(table.split(separator: "\n").count, 2, table)
        XCTAssertFalse(table.unicodeScalars.contains("\u{1b}"))
        XCTAssertTrue(table.contains(#"evil\n\x1b[2Jx"#), table)
    }

    func test_controlCharactersAreWrittenOutAndOtherTextIsLeftAlone() {
        XCTAssertEqual("HDMI-A-1".escapedForTerminal, "HDMI-A-1")
        XCTAssertEqual("Écran 27\" – ☀".escapedForTerminal, "Écran 27\" – ☀")
        XCTAssertEqual("a\tb\rc\nd".escapedForTerminal, #"a\tb\rc\nd"#)
        XCTAssertEqual("\u{7}\u{1b}]0;x\u{7f}".escapedForTerminal, #"\x07\x1b]0;x\x7f"#)
        XCTAssertEqual("\u{85}next".escapedForTerminal, #"\u{85}next"#)
        // A right-to-left override would show the rest of the line reversed.
        XCTAssertEqual("DP-1\u{202E}gpj.exe".escapedForTerminal, #"DP-1\u{202e}gpj.exe"#)
        XCTAssertEqual("\u{FFFD}".escapedForTerminal, "\u{FFFD}")
    }
}
