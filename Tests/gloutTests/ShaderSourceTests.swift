import XCTest
@testable import glout

final class ShaderLogTests: XCTestCase {
    func test_mesaLogLinesAreMappedToFilesAndLines() {
        let log = """
        0:12(5): error: syntax error, unexpected IDENTIFIER
        1:3(1): warning: something in the include
        plain line
        """
        let (text, first) = ShaderError.mapLog(log, files: ["control.frag", "frame.glsl"])
        XCTAssertEqual(first?.file, "control.frag")
        XCTAssertEqual(first?.line, 12)
        XCTAssertEqual(text, """
        control.frag:12:5: error: syntax error, unexpected IDENTIFIER
        frame.glsl:3:1: warning: something in the include
        plain line
        """)
    }

    func test_includesAreExpandedWithLineDirectives() throws {
        let library = ["a.frag": "#version 300 es\n#include \"b.glsl\"\nvoid main() {}", "b.glsl": "float x;\nfloat y;"]
        let source = try ShaderSource(name: "a.frag", library: library)
        XCTAssertEqual(source.files, ["a.frag", "b.glsl"])
        XCTAssertEqual(source.text, "#version 300 es\n#line 1 1\nfloat x;\nfloat y;\n#line 3 0\nvoid main() {}")
        XCTAssertThrowsError(try ShaderSource(name: "a.frag", library: ["a.frag": "#include \"missing.glsl\""]))
    }

    func test_builtInShadersAreAllEmbedded() {
        let names = Set(EmbeddedShaders.files.map(\.name))
        XCTAssertTrue(names.isSuperset(of: ["fullscreen.vert", "control.frag", "content.frag", "frame.glsl", "canvas.glsl", "triangle.vert", "triangle.frag", "text.vert", "text.frag", "marker.frag"]))
    }
}

