import XCTest
import WaylandOutputs
@testable import glout

/// --content's pure parts: the option, where an image goes, how the label describes an
/// output.
final class ContentPictureTests: XCTestCase {
    func options(_ line: String) throws -> RunOptions {
        guard case .run(let options) = try Arguments.parse(line.split(separator: " ").map(String.init)) else {
            throw GloutError("not a run")
        }
        return options
    }

    func test_contentTakesAnOptionalOutputNameButAPathWithAnEqualsSignStaysAPath() throws {
        XCTAssertEqual(try options("run --content a.png").contents, ["": "a.png"])
        XCTAssertEqual(try options("run --content HDMI-A-1=poster.png --content clock.frag").contents,
                       ["HDMI-A-1": "poster.png", "": "clock.frag"])
        XCTAssertEqual(try options("run --content ./x=y.png").contents, ["": "./x=y.png"])
        XCTAssertThrowsError(try options("run --content DP-1=")) { error in
            XCTAssertTrue("\(error)".contains("--content needs [NAME=]FILE"), "\(error)")
        }
    }

    func test_theIdentificationAndPacingOptions() throws {
        let options = try options("run --identify --no-label --scene pacing --flash-every 0")
        XCTAssertTrue(options.identify)
        XCTAssertFalse(options.label)
        XCTAssertEqual(options.scene, .pacing)
        XCTAssertEqual(options.flashEvery, 0)
        XCTAssertEqual(RunOptions().flashEvery, 60)
        for bad in ["-1", "100001", "2.5", "x"] {
            XCTAssertThrowsError(try self.options("run --flash-every \(bad)")) { error in
                XCTAssertTrue("\(error)".contains("--flash-every needs a number of refreshes from 0"), "\(error)")
            }
        }
    }

    func test_fitKeepsTheWholeImageFillCoversAndStretchDistorts() {
        let size = Size(width: 800, height: 600)
        let fit = ContentImage.placement(width: 160, height: 90, in: size, mode: .fit)
        XCTAssertEqual(fit.x, 0); XCTAssertEqual(fit.y, 75); XCTAssertEqual(fit.width, 800); XCTAssertEqual(fit.height, 450)
        let fill = ContentImage.placement(width: 160, height: 90, in: size, mode: .fill)
        XCTAssertEqual(fill.height, 600)
        XCTAssertEqual(fill.width, 1066.67, accuracy: 0.01)
        XCTAssertEqual(fill.x, -133.33, accuracy: 0.01)
        XCTAssertEqual(fill.y, 0)
        let stretch = ContentImage.placement(width: 160, height: 90, in: size, mode: .stretch)
        XCTAssertTrue(stretch == (0, 0, 800, 600))
        // A tall image fits between bars at the sides.
        let tall = ContentImage.placement(width: 100, height: 400, in: size, mode: .fit)
        XCTAssertTrue(tall == (325, 0, 150, 600))
    }

    func test_aPNGIsDecodedToRGBAAndABrokenOneIsRefusedWithLibpngsReason() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("content-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Canvas(width: 2, height: 1, pixels: [10, 20, 30, 255, 40, 50, 60, 128]).writePNG(to: path)
        guard case .image(let image) = try ContentPicture.load(path, log: Log { _, _ in }) else { return XCTFail("not read as an image") }
        XCTAssertEqual(image.width, 2)
        XCTAssertEqual(image.height, 1)
        XCTAssertEqual(image.pixels, [10, 20, 30, 255, 40, 50, 60, 128])
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0]).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try ContentPicture.load(path, log: Log { _, _ in })) { error in
            XCTAssertTrue("\(error)".contains("not a PNG glout can read (libpng: "), "\(error)")
        }
    }

    /// What a --content file is comes from its first bytes, not its name.
    func test_aFileIsAPictureAShaderOrAVideoByItsContents() {
        XCTAssertEqual(ContentPicture.kind(of: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0], cut: false), .png)
        XCTAssertEqual(ContentPicture.kind(of: Array("#version 300 es\nvoid main() {}\n".utf8), cut: false), .text)
        XCTAssertEqual(ContentPicture.kind(of: [], cut: false), .text)
        // An MP4's first box, with NUL bytes in its size.
        XCTAssertEqual(ContentPicture.kind(of: [0, 0, 0, 0x20] + Array("ftypisom".utf8), cut: true), .other)
        // Bytes that are not UTF-8, and a character cut at the end of what was read.
        XCTAssertEqual(ContentPicture.kind(of: [0x47, 0xFF, 0x10, 0x47], cut: true), .other)
        let cut = Array("// é".utf8).dropLast()
        XCTAssertEqual(ContentPicture.kind(of: Array(cut), cut: true), .text)
        XCTAssertEqual(ContentPicture.kind(of: Array(cut), cut: false), .other)
    }

    func test_theLabelDescribesModesAndScales() {
        XCTAssertEqual(Identification.describe(OutputMode(size: Size(width: 1920, height: 1080), refreshMilliHertz: 60000)), "1920x1080 @ 60 Hz")
        XCTAssertEqual(Identification.describe(OutputMode(size: Size(width: 800, height: 600), refreshMilliHertz: 59940)), "800x600 @ 59.94 Hz")
        XCTAssertEqual(Identification.describe(nil), "no mode")
        XCTAssertEqual(Identification.describe(scale: 1), "×1")
        XCTAssertEqual(Identification.describe(scale: 1.5), "×1.5")
        XCTAssertEqual(Identification.describe(scale: 1.25), "×1.25")
    }
}

/// Text cut to fit: what keeps the dashboard's and the label's lines inside their boxes.
final class TextFittingTests: XCTestCase {
    func test_textThatFitsIsKeptAndLongerTextIsCutWithAnEllipsisWithinTheWidth() throws {
        let font = try GlyphAtlas(pixelSizes: [13]).fonts[0]
        let text = "1920x1080 @ 60 Hz  ×2  normal"
        let whole = TextBatch.width(of: text.utf8, font: font)
        XCTAssertGreaterThan(whole, 100)
        XCTAssertEqual(TextBatch.fitting(text, width: whole, font: font), text)
        for width in [whole - 1, whole / 2, 20] {
            let cut = TextBatch.fitting(text, width: width, font: font)
            XCTAssertTrue(cut.hasSuffix("…"), cut)
            XCTAssertTrue(text.hasPrefix(String(cut.dropLast())), cut)
            XCTAssertLessThanOrEqual(TextBatch.width(of: cut.utf8, font: font), width, cut)
        }
        XCTAssertEqual(TextBatch.fitting(text, width: 1, font: font), "…")
    }
}
