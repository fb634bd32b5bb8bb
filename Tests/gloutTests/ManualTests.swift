import Foundation
import XCTest
@testable import glout

/// glout(1) and the shell completions come from the option table, as --help does.
final class ManualTests: XCTestCase {
    func test_theManualDocumentsEveryCommandAndOptionWithDashesAsMinusSigns() {
        let page = Manual.page
        XCTAssertTrue(page.hasPrefix(".TH GLOUT 1 "))
        for command in CommandName.allCases {
            XCTAssertTrue(page.contains("\n.SS \(command.rawValue)\n"), "\(command)")
            for option in OptionTable.options(of: command) {
                XCTAssertTrue(page.contains(".TP\n\\fB" + option.name.replacingOccurrences(of: "-", with: "\\-") + "\\fR"),
                              "\(command) \(option.name)")
            }
        }
        for name in ["NOTIFY_SOCKET", "WATCHDOG_USEC", "JOURNAL_STREAM", "WAYLAND_DISPLAY"] {
            XCTAssertTrue(page.contains(".B \(name)\n"), name)
        }
        // No text line that roff would read as a request.
        for line in page.split(separator: "\n") where line.first == "." || line.first == "'" {
            XCTAssertTrue(line.range(of: #"^\.(TH|SH|SS|TP|PP|B|I|BR|br|nf|fi)( |$)"#, options: .regularExpression) != nil,
                          "'\(line)' is read as a roff request")
        }
    }

    func test_roffEscapes() {
        XCTAssertEqual(Manual.escape("a --stats-json, -h and well-known \\n"), "a \\-\\-stats\\-json, \\-h and well-known \\en")
        XCTAssertEqual(Manual.escape("x\n.starts\n'quote"), "x\n\\&.starts\n\\&'quote")
        XCTAssertEqual(Manual.escape("[--bezel B]"), "[\\-\\-bezel B]")
    }

    func test_optionValuesCompleteAsFilesFoldersOrWords() throws {
        func value(_ name: String) throws -> Completions.Value? {
            try Completions.value(of: XCTUnwrap(OptionTable.all.first { $0.name == name }))
        }
        XCTAssertEqual(try value("--show"), .file)
        XCTAssertEqual(try value("--content"), .file)
        XCTAssertEqual(try value("--shaders"), .folder)
        XCTAssertEqual(try value("--layout"), .words(["independent", "mirror", "span"]))
        XCTAssertEqual(try value("--duration"), .anything)
        XCTAssertNil(try value("--no-live"))
    }

    func test_completionTextIsSafeInsideZshSpecs() {
        XCTAssertEqual(Completions.zshText("output's [IPv6] a\\b"), #"output'\''s (IPv6) a\\b"#)
        XCTAssertEqual(Completions.zshLabel("[HOST:]PORT"), "(HOST-)PORT")
        XCTAssertEqual(Completions.summary("short; and more"), "short; and more")
        XCTAssertEqual(Completions.summary("a long enough clause; the rest"), "a long enough clause")
        let long = Completions.summary(String(repeating: "word ", count: 40))
        XCTAssertLessThanOrEqual(long.count, 70)
        XCTAssertTrue(long.hasSuffix("..."))
        for shell in Completions.Shell.allCases {
            let script = Completions.script(for: shell)
            for option in OptionTable.all { XCTAssertTrue(script.contains(option.name), "\(shell) \(option.name)") }
        }
    }

    func test_helpTakesManAndCompletion() throws {
        XCTAssertEqual(try Arguments.parse(["help", "--man"]), .manual)
        XCTAssertEqual(try Arguments.parse(["help", "--completion", "zsh"]), .completion(.zsh))
        XCTAssertThrowsError(try Arguments.parse(["help", "--completion", "fish"]))
        XCTAssertThrowsError(try Arguments.parse(["help", "--completion"]))
        XCTAssertThrowsError(try Arguments.parse(["help", "--man", "x"]))
    }
}
