import Foundation
import XCTest

/// The release binary's manual page read by man(1) and groff, and its completion scripts
/// loaded by real bash and zsh.
final class ManualAndCompletionTests: IntegrationTestCase {
    private func shell(_ script: String, environment: [String: String] = [:]) throws -> Finished {
        var environment = environment
        environment["GLOUT"] = Paths.glout
        return try Child("/bin/bash", ["-c", script], environment: environment).wait()
    }

    func test_manAndGroffReadTheManualWithoutAWarning() throws {
        for tool in ["man", "groff"] where access("/usr/bin/" + tool, X_OK) != 0 {
            throw XCTSkip("\(tool) is not installed (scripts/install-deps --tests installs it)")
        }
        let folder = Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("glout.1").path
        let made = try shell(#""$GLOUT" help --man > "$PAGE""#, environment: ["PAGE": page])
        XCTAssertEqual(made.status, 0, made.stderr)
        // man --warnings as lintian runs it, and groff's own checks.
        let man = try shell(#"LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$PAGE" 2>&1 >/dev/null"#, environment: ["PAGE": page])
        XCTAssertEqual(man.status, 0, man.stdout)
        XCTAssertEqual(man.stdout, "", "man's warnings")
        let groff = try shell(#"groff -man -ww -z -Tutf8 "$PAGE" 2>&1"#, environment: ["PAGE": page])
        XCTAssertEqual(groff.stdout, "", "groff's warnings")
        let text = try shell(#"LC_ALL=C.UTF-8 MANWIDTH=80 man -E UTF-8 -l "$PAGE" | col -b"#, environment: ["PAGE": page])
        let shown = text.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for words in ["glout - drives every output", "--stats-json FILE", "--layout independent|mirror|span", "NOTIFY_SOCKET",
                      "EXIT STATUS"] {
            XCTAssertTrue(shown.contains(words), "the page as man shows it lacks '\(words)':\n\(text.stdout)")
        }
    }

    func test_bashCompletesCommandsOptionsChoicesAndFiles() throws {
        let folder = Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("{}".utf8).write(to: folder.appendingPathComponent("lobby.json"))
        try Data("{}".utf8).write(to: folder.appendingPathComponent("two words *.json"))
        let run = try shell(#"""
            source <("$GLOUT" help --completion bash) || exit 1
            complete -p glout || exit 1
            t() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _glout; echo "${COMPREPLY[*]}"; }
            t glout ""
            t glout run --dur
            t glout bench --layout m
            t glout run --show "$FOLDER/lob"
            t glout outputs --wa
            t glout --stats-json "$FOLDER/lo"
            t glout run --show "$FOLDER/two"
            t glout help --completion ""
            """#, environment: ["FOLDER": folder.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertTrue(lines.count >= 9, run.stdout + run.stderr)
        guard lines.count >= 9 else { return }
        XCTAssertEqual(lines[1], "run outputs protocols bench snapshot help --help --version")
        XCTAssertEqual(lines[2], "--duration")
        XCTAssertEqual(lines[3], "mirror")
        XCTAssertEqual(lines[4], folder.path + "/lobby.json")
        XCTAssertEqual(lines[5], "--watch --wall-json")
        XCTAssertEqual(lines[6], folder.path + "/lobby.json")
        XCTAssertEqual(lines[7], folder.path + "/two words *.json", "a name with a space and a star is one, as it is")
        XCTAssertEqual(lines[8], "bash zsh")
    }

    func test_zshLoadsTheCompletionFunction() throws {
        guard access("/usr/bin/zsh", X_OK) == 0 || access("/bin/zsh", X_OK) == 0 else {
            throw XCTSkip("zsh is not installed (scripts/install-deps --tests installs it)")
        }
        let folder = Paths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let made = try shell(#""$GLOUT" help --completion zsh > "$FOLDER/_glout" && zsh -n "$FOLDER/_glout""#,
                             environment: ["FOLDER": folder.path])
        XCTAssertEqual(made.status, 0, made.stderr)
        // compinit finds it by its #compdef line and binds it to glout.
        let bound = try shell(#"""
            zsh -f -c 'fpath=("$FOLDER" $fpath); autoload -Uz compinit; compinit -u -d "$FOLDER/dump"; print -r -- ${_comps[glout]}'
            """#, environment: ["FOLDER": folder.path])
        XCTAssertEqual(bound.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "_glout", bound.stderr)
    }
}
