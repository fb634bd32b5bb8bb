import Foundation
import XCTest

/// The shape the package's code keeps (issue 39): no Swift file in Sources over 500 lines,
/// no function over 80. Read from the sources themselves, so that a change that grows one
/// past either is told here rather than found by a reader.
final class CodeShapeTests: XCTestCase {
    static let fileLimit = 500
    static let functionLimit = 80

    /// Sources/, found from this file's place in the package.
    private var sources: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
    }

    private func swiftFiles() throws -> [(path: String, lines: [Substring])] {
        let root = sources
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        var files: [(String, [Substring])] = []
        for case let url as URL in walker where url.pathExtension == "swift" {
            let text = try String(contentsOf: url, encoding: .utf8)
            files.append((String(url.path.dropFirst(root.path.count + 1)), text.split(separator: "\n", omittingEmptySubsequences: false)))
        }
        return files.sorted { $0.0 < $1.0 }
    }

    func test_noSourceFileIsOver500Lines() throws {
        let files = try swiftFiles()
        XCTAssertGreaterThan(files.count, 100, "Sources not found at \(sources.path)")
        // A file ends with a line break: the empty piece after it is no line.
        let long = files.map { ($0.path, $0.lines.count - ($0.lines.last?.isEmpty == true ? 1 : 0)) }
            .filter { $0.1 > CodeShapeTests.fileLimit }
        XCTAssertEqual(long.map { "\($0.0): \($0.1) lines" }, [])
    }

    func test_noFunctionIsOver80Lines() throws {
        let long = try swiftFiles().flatMap { file in
            CodeShapeTests.functions(in: file.lines).filter { $0.lines > CodeShapeTests.functionLimit }
                .map { "\(file.path):\($0.start): \($0.lines) lines" }
        }
        XCTAssertEqual(long, [])
    }

    func test_functionsAreMeasuredFromDeclarationToClosingBrace() {
        let code = """
            protocol P {
                func zero()
            }
            struct A {
                func one() { 1 }
                /// Two.
                private static func two(
                    x: Int
                ) -> Int {
                    let y = x
                    return y
                }
                init() {}
            }
            """.split(separator: "\n", omittingEmptySubsequences: false)
        let found = CodeShapeTests.functions(in: code)
        XCTAssertEqual(found.map(\.start), [5, 7, 13])
        XCTAssertEqual(found.map(\.lines), [1, 6, 1])
    }

    /// Each func, init or deinit with a body in `lines`: the line it starts on (from 1) and
    /// how many lines it spans, to the brace that closes it at its own indentation (one
    /// line where the body closes on the line it opens).
    static func functions(in lines: [Substring]) -> [(start: Int, lines: Int)] {
        let modifiers: Set<Substring> = ["public", "package", "private", "fileprivate", "internal", "static", "final", "override",
                                         "mutating", "nonisolated", "convenience", "required", "class", "@discardableResult",
                                         "@inline(__always)", "@MainActor", "@objc"]
        var found: [(start: Int, lines: Int)] = []
        for (index, line) in lines.enumerated() {
            let words = line.split(separator: " ")
            guard let keyword = words.first(where: { !modifiers.contains($0) && !$0.hasPrefix("private(") }),
                  keyword == "func" || keyword == "deinit" || keyword == "init"
                    || ["init(", "init?(", "init<"].contains(where: { keyword.hasPrefix($0) }) else { continue }
            let indent = line.prefix { $0 == " " }.count
            let closing = String(repeating: " ", count: indent) + "}"
            if line.hasSuffix("}") && line.contains("{") {
                found.append((index + 1, 1))
                continue
            }
            // The body's lines are indented further; another line that is not (a protocol's
            // next requirement, the type's end) says this one has no body.
            for end in (index + 1)..<lines.count {
                let next = lines[end]
                if next.hasPrefix(closing) {
                    found.append((index + 1, end - index + 1))
                    break
                }
                let text = next.drop { $0 == " " }
                // The end of a signature written over several lines stands at its indentation.
                if text.hasPrefix(")") || text.hasPrefix("->") || text.hasPrefix("where ") { continue }
                if !text.isEmpty, next.count - text.count <= indent { break }
            }
        }
        return found
    }
}
