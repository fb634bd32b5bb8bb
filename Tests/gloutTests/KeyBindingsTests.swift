import XCTest
@testable import WaylandOutputs
@testable import glout

final class KeyBindingsTests: XCTestCase {
    func test_theKeysymsBound() throws {
        // The keysyms of m, space, Tab, f, i, q, Escape, M (Shift+m), and one glout ignores (a);
        // the library's KeyboardStateTests turn key codes into these through a real keymap.
        let expected: [(UInt32, KeyAction?)] = [(0x6d, .toggleLayout), (0x20, .newAccent), (0xff09, .nextPrimary),
                                                (0x66, .toggleFreeze), (0x69, .identify), (0x71, .quit), (0xff1b, .quit),
                                                (0x4d, .toggleLayout), (0x61, nil)]
        for (keysym, action) in expected {
            XCTAssertEqual(KeyBindings.action(for: keysym), action, "keysym 0x\(String(keysym, radix: 16))")
        }
    }

    func test_readmesKeyTableListsExactlyTheBindings() throws {
        // --help and the dashboard print KeyAction.help; README's table is written by hand.
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let table = text.components(separatedBy: "| key | does |").dropFirst().first ?? ""
        let keys = table.split(separator: "\n").dropFirst()  // the | --- | row
            .prefix { $0.hasPrefix("| `") }
            .map { $0.split(separator: "|")[0].trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "`", with: "") }
        XCTAssertEqual(keys, KeyAction.allCases.map(\.help.key))
    }
}

final class NumberTextTests: XCTestCase {
    func test_numbersFormatWithoutStrings() {
        var number = NumberText()
        for (value, decimals, expected) in [(61.904, 1, "61.9"), (0.04, 1, "0.0"), (5, 0, "5"), (16.666, 2, "16.67"),
                                            (-3.25, 1, "-3.3"), (1000, 1, "1000.0"), (0.5, 0, "1"), (9.96, 1, "10.0")] {
            number.set(value, decimals: decimals)
            XCTAssertEqual(String(decoding: number.text, as: UTF8.self), expected, "\(value)")
        }
        number.set(62.5, decimals: 1, suffix: " fps")
        XCTAssertEqual(String(decoding: number.text, as: UTF8.self), "62.5 fps")
        number.set(.nan, decimals: 1, suffix: " fps")
        XCTAssertEqual(String(decoding: number.text, as: UTF8.self), "- fps")
    }
}
