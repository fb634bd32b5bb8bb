import XCTest
import WaylandOutputs
@testable import glout

/// `glout protocols`: what it says of each global, and compositor text on a terminal.
final class ProtocolsReportTests: XCTestCase {
    func test_eachGlobalSaysWhoUsesItAndAtWhichVersion() {
        let report = ProtocolsCommand.report([
            CompositorGlobal(interface: "wl_compositor", version: 6, boundVersion: 6),
            CompositorGlobal(interface: "zwp_linux_dmabuf_v1", version: 4, boundVersion: nil),
            CompositorGlobal(interface: "wp_fifo_manager_v1", version: 1, boundVersion: nil),
        ])
        XCTAssertEqual(report.globals.map(\.used_by), ["glout", "mesa", nil])
        XCTAssertEqual(report.globals.map(\.bound_version), [6, nil, nil])
        XCTAssertNil(report.globals[2].use)
        let table = ProtocolsCommand.table(report).split(separator: "\n").map(String.init)
        XCTAssertEqual(table.count, 4)
        XCTAssertTrue(table[1].hasPrefix("wl_compositor  "), table[1])
        XCTAssertTrue(table[1].contains("  v6       v6     surfaces"), table[1])
        XCTAssertTrue(table[2].contains("v4       Mesa"), table[2])
        XCTAssertTrue(table[3].hasSuffix("-      "), table[3])
    }

    func test_aForgedInterfaceNameCannotReachTheTerminalRaw() {
        let report = ProtocolsCommand.report([CompositorGlobal(interface: "evil\n\u{1b}[2Jx", version: 1, boundVersion: nil)])
        let table = ProtocolsCommand.table(report)
        XCTAssertEqual(table.split(separator: "\n").count, 2, table)
        XCTAssertFalse(table.unicodeScalars.contains("\u{1b}"))
        XCTAssertTrue(table.contains(#"evil\n\x1b[2Jx"#), table)
    }

    /// Log.printable is the library's; the cases here are what glout prints with it.
    func test_controlCharactersAreWrittenOutAndOtherTextIsLeftAlone() {
        XCTAssertEqual(Log.printable("HDMI-A-1"), "HDMI-A-1")
        XCTAssertEqual(Log.printable("Écran 27\" – ☀"), "Écran 27\" – ☀")
        XCTAssertEqual(Log.printable("a\tb\rc\nd"), #"a\tb\rc\nd"#)
        XCTAssertEqual(Log.printable("\u{7}\u{1b}]0;x\u{7f}"), #"\x07\x1b]0;x\x7f"#)
        XCTAssertEqual(Log.printable("\u{85}next"), #"\u{85}next"#)
        // A right-to-left override would show the rest of the line reversed.
        XCTAssertEqual(Log.printable("DP-1\u{202E}gpj.exe"), #"DP-1\u{202e}gpj.exe"#)
        XCTAssertEqual(Log.printable("\u{FFFD}"), "\u{FFFD}")
    }
}

/// File names made from output names (snapshots, GLOUT_DUMP_FRAMES).
final class OutputFileNameTests: XCTestCase {
    func test_plainNamesAreKeptAndOthersCannotLeaveTheFolder() {
        XCTAssertEqual(FileSystem.fileName(forOutput: "HDMI-A-1", id: 7), "HDMI-A-1")
        XCTAssertEqual(FileSystem.fileName(forOutput: "../../etc/passwd", id: 7), "_._.._etc_passwd-7")
        XCTAssertEqual(FileSystem.fileName(forOutput: "a/b", id: 3), "a_b-3")
        XCTAssertEqual(FileSystem.fileName(forOutput: ".hidden", id: 3), "_hidden-3")
        XCTAssertEqual(FileSystem.fileName(forOutput: "", id: 3), "-3")
        XCTAssertEqual(FileSystem.fileName(forOutput: "EVIL\u{1b}[2J\n", id: 12), "EVIL__2J_-12")
        XCTAssertEqual(FileSystem.fileName(forOutput: String(repeating: "x", count: 500), id: 1).count, 66)
        XCTAssertFalse(FileSystem.fileName(forOutput: "..", id: 1).contains("/"))
    }

    func test_glyphSizesStayWithinWhatAnAtlasHolds() {
        XCTAssertEqual(GlyphAtlas.pixelSizes(points: [12, 24], scale: 2), [24, 48])
        XCTAssertEqual(GlyphAtlas.pixelSizes(points: [12], scale: 2_147_483_647), [1024])
        XCTAssertEqual(GlyphAtlas.pixelSizes(points: [12], scale: .infinity), [6])
        XCTAssertEqual(GlyphAtlas.pixelSizes(points: [12], scale: .nan), [6])
        XCTAssertEqual(GlyphAtlas.pixelSizes(points: [12], scale: 0), [6])
    }
}
