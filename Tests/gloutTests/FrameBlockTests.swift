import XCTest
@testable import glout

/// The named fields of the `Frame` block land where std140 puts frame.glsl's uniforms.
final class FrameBlockTests: XCTestCase {
    /// frame.glsl's uniforms in order: name, float offset under std140 (a vec4 and each
    /// element of a vec4 array take 16 bytes, aligned to 16), vec4 count.
    func std140Layout() throws -> [(name: String, offset: Int, vectors: Int)] {
        let text = try XCTUnwrap(EmbeddedShaders.files.first { $0.name == "frame.glsl" }).source
        let block = try XCTUnwrap(text.range(of: "uniform Frame {")).upperBound
        var layout: [(name: String, offset: Int, vectors: Int)] = []
        var offset = 0
        for line in text[block...].split(separator: "\n") {
            let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false)[0]
                .trimmingCharacters(in: .whitespaces)
            if code.hasPrefix("}") { break }
            guard !code.isEmpty else { continue }
            XCTAssertTrue(code.hasPrefix("vec4 ") && code.hasSuffix(";"), "not a vec4 member: \(code)")
            let declared = code.dropFirst(5).dropLast()
            var name = String(declared), vectors = 1
            if let open = declared.firstIndex(of: "[") {
                name = String(declared[..<open])
                vectors = try XCTUnwrap(Int(declared[declared.index(after: open)...].dropLast()))
            }
            layout.append((name, offset, vectors))
            offset += 4 * vectors
        }
        return layout
    }

    func test_everyUniformOfFrameGLSLHasANamedFieldAtItsStd140Offset() throws {
        let layout = try std140Layout()
        XCTAssertEqual(layout.count, FrameUniforms.Field.allCases.count)
        XCTAssertEqual(layout.map(\.name), FrameUniforms.Field.allCases.map(\.glslName))
        for (field, declared) in zip(FrameUniforms.Field.allCases, layout) {
            XCTAssertEqual(field.rawValue, declared.offset, declared.name)
            XCTAssertEqual(field.vectors, declared.vectors, declared.name)
        }
        XCTAssertEqual(layout.last.map { $0.offset + 4 * $0.vectors }, FrameUniforms.floatCount)
        XCTAssertEqual(FrameUniforms.floatCount, 31 * 4)
    }

    func test_namedSettersWriteTheirUniformsFloats() throws {
        var uniforms = FrameUniforms()
        for (n, field) in FrameUniforms.Field.allCases.enumerated() {
            let base = Double(n * 10)
            uniforms.set(field, base + 1, base + 2, base + 3, base + 4)
        }
        for marker in 0..<FrameUniforms.maxMarkers {
            uniforms.setMarker(marker, Double(1000 + marker), 0, 0, 1)
        }
        for (n, declared) in try std140Layout().enumerated() where declared.name != "u_markers" {
            let base = Float(n * 10)
            XCTAssertEqual(Array(uniforms.floats[declared.offset..<declared.offset + 4]),
                           [base + 1, base + 2, base + 3, base + 4], declared.name)
        }
        let markers = try XCTUnwrap(try std140Layout().first { $0.name == "u_markers" })
        for marker in 0..<markers.vectors {
            XCTAssertEqual(uniforms.floats[markers.offset + 4 * marker], Float(1000 + marker))
            XCTAssertEqual(uniforms.floats[markers.offset + 4 * marker + 3], 1)
        }
    }

    func test_componentFieldsAreTheComponentsFrameGLSLNames() {
        var uniforms = FrameUniforms()
        uniforms.sceneTime = 12.5
        uniforms.markerCount = 3
        uniforms.ringsLeftOut = true
        XCTAssertEqual(uniforms[.timing].x, 12.5)  // u_timing.x: scene time
        XCTAssertEqual(uniforms[.motion].z, 3)  // u_motion.z: marker count
        XCTAssertEqual(uniforms[.rings].w, 1)  // u_rings.w: 1 leaves the rings out
        uniforms.ringsLeftOut = false
        XCTAssertEqual(uniforms[.rings].w, 0)
        XCTAssertEqual(uniforms.markerCount, 3)
    }
}
