import Foundation
import XCTest
@testable import glout

/// The option table is the one place an option is declared: the parser, each command's
/// --help and docs/usage.md follow it.
final class OptionTableTests: XCTestCase {
    /// Words that look like options in usage.md but are not glout's: the help flags every
    /// command takes, help's --man and --completion, and an option of a benchmark script
    /// (bench/targets.sh --stacks).
    static let notOptions: Set<String> = ["--help", "--version", "--stacks", "--man", "--completion"]

    func test_usageDocumentsEveryOptionAndNoOther() throws {
        let usage = try String(contentsOfFile: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/usage.md").path, encoding: .utf8)
        let declared = Set(OptionTable.all.map(\.name))
        let mentioned = Set(usage.matches(of: /--[a-z][a-z0-9-]*/).map { String($0.output) })
        XCTAssertEqual(declared.subtracting(mentioned).sorted(), [], "options docs/usage.md does not document")
        XCTAssertEqual(mentioned.subtracting(declared).subtracting(OptionTableTests.notOptions).sorted(), [],
                       "options docs/usage.md documents that glout does not have")
    }

    func test_anOptionIsDeclaredOnceForEachCommandAndHelpListsItThere() {
        for command in CommandName.allCases {
            let names = OptionTable.options(of: command).map(\.name)
            XCTAssertEqual(names.count, Set(names).count, "\(command): an option declared twice")
            let help = Help.text(for: command.rawValue)
            for declaration in OptionTable.options(of: command) {
                let head = "  " + declaration.name + (declaration.value.map { " " + $0 } ?? "")
                XCTAssertTrue(help.contains("\n" + head), "\(command) --help lacks \(head)")
            }
            // No line of text starts with an option name unless it declares that option.
            for line in help.split(separator: "\n") where line.hasPrefix(String(repeating: " ", count: Help.column)) {
                XCTAssertFalse(line.dropFirst(Help.column).hasPrefix("--"), "\(command): '\(line)' reads as an option")
            }
            for declaration in OptionTable.options(of: command) {
                if let needed = declaration.requires {
                    XCTAssertNotNil(OptionTable.declaration(needed, for: command), "\(declaration.name) needs \(needed)")
                }
            }
        }
    }

    func test_helpTextWrapsBetweenWordsWithinTheWidth() {
        let lines = Help.wrap("one two three --four five six", width: 13)
        XCTAssertEqual(lines, ["one two", "three --four", "five six"])
        XCTAssertEqual(Help.wrap("", width: 10), [""])
    }
}
