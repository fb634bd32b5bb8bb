import XCTest
import WaylandOutputs
@testable import glout

/// --content's pure parts: the option, where an image goes, how the label describes an
/// output.
final class ContentFileTests: XCTestCase {
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
        try Bitmap(width: 2, height: 1, pixels: [10, 20, 30, 255, 40, 50, 60, 128]).writePNG(to: path)
        var loaded: [String: ContentFile] = [:]
        guard case .image(let image) = try ContentFile.load(path, log: Log { _, _ in }, loaded: &loaded) else { return XCTFail("not read as an image") }
        XCTAssertEqual(image.width, 2)
        XCTAssertEqual(image.height, 1)
        XCTAssertEqual(image.pixels, [10, 20, 30, 255, 40, 50, 60, 128])
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0]).write(to: URL(fileURLWithPath: path))
        loaded = [:]
        XCTAssertThrowsError(try ContentFile.load(path, log: Log { _, _ in }, loaded: &loaded)) { error in
            XCTAssertTrue("\(error)".contains("not a PNG glout can read (libpng: "), "\(error)")
        }
    }

    /// A text file is a shader when it starts with #version (after comments), else a list.
    func test_aTextFileIsAShaderWhenItStartsWithVersionElseAPlaylist() {
        XCTAssertTrue(Playlist.isShader("#version 300 es\nvoid main() {}"))
        XCTAssertTrue(Playlist.isShader("  // a comment\r\n/* and\n another */\r\n\t#version 300 es\n"))
        XCTAssertFalse(Playlist.isShader("intro.mp4\nlogo.png 10\n"))
        XCTAssertFalse(Playlist.isShader("/* never closed #version"))
        XCTAssertFalse(Playlist.isShader(""))
    }

    func test_aPlaylistsLinesAreFilesWithTheirSecondsAndBadOnesNameTheirLine() throws {
        let lines = try Playlist.parse("# signage\n\nintro.mp4\nlogo.png 10\n  my clip.mkv 2.5 \r\n/srv/a.png 1e1\n", folder: "lists")
        XCTAssertEqual(lines, [Playlist.Line(path: "lists/intro.mp4", seconds: nil, number: 3),
                               Playlist.Line(path: "lists/logo.png", seconds: 10, number: 4),
                               Playlist.Line(path: "lists/my clip.mkv", seconds: 2.5, number: 5),
                               Playlist.Line(path: "/srv/a.png", seconds: 10, number: 6)])
        XCTAssertEqual(try Playlist.parse("a.png 3", folder: "").first?.path, "a.png")
        XCTAssertEqual(try Playlist.parse("a.png 0.001", folder: "").first?.seconds, 0.001)
        for (text, line, message) in [("a.png 0", 1, "0 is not a duration"), ("x\nb.png -2", 2, "-2 is not a duration"),
                                      ("a.png inf", 1, "inf is not a duration"), ("a.png nan", 1, "nan is not a duration"),
                                      ("a.png 100000", 1, "100000 is not a duration"),
                                      ("a.png 1e-300", 1, "1e-300 is not a duration"), ("a.png 0.0009", 1, "0.0009 is not")] {
            XCTAssertThrowsError(try Playlist.parse(text, folder: "")) { error in
                XCTAssertEqual((error as? PlaylistError)?.line, line, text)
                XCTAssertTrue((error as? PlaylistError)?.message.hasPrefix(message) == true, "\(text): \(error)")
            }
        }
        XCTAssertThrowsError(try Playlist.parse("# nothing\n\n", folder: "")) { error in
            XCTAssertNil((error as? PlaylistError)?.line)
        }
    }

    /// Items follow each other on the content clock, and the list loops.
    func test_aPlaylistsItemIsTheOneItsTimeFallsInAndTheListLoops() {
        let list = Playlist(durations: [3, 10, 2.5])
        XCTAssertEqual(list.length, 15.5)
        XCTAssertEqual(list.position(at: 0), Playlist.Position(item: 0, pass: 0, local: 0))
        XCTAssertEqual(list.position(at: 2.999), Playlist.Position(item: 0, pass: 0, local: 2.999))
        XCTAssertEqual(list.position(at: 3), Playlist.Position(item: 1, pass: 0, local: 0))
        XCTAssertEqual(list.position(at: 14), Playlist.Position(item: 2, pass: 0, local: 1))
        XCTAssertEqual(list.position(at: 15.5), Playlist.Position(item: 0, pass: 1, local: 0))
        XCTAssertEqual(list.position(at: 15.5 * 1000 + 4).item, 1)
        XCTAssertEqual(list.position(at: 15.5 * 1000 + 4).pass, 1000)
        XCTAssertEqual(list.position(at: -5), Playlist.Position(item: 0, pass: 0, local: 0))
        XCTAssertEqual(list.position(at: .nan), Playlist.Position(item: 0, pass: 0, local: 0))
        // On the realtime clock: seconds since 1970, the same item on every machine.
        let now = 1_796_000_000.25
        let position = list.position(at: now)
        XCTAssertEqual(Double(position.pass) * 15.5 + [0, 3, 13][position.item] + position.local, now, accuracy: 1e-5)
        XCTAssertEqual(list.nextStart(of: 1, after: 0), 3)
        XCTAssertEqual(list.nextStart(of: 1, after: 3), 3)
        XCTAssertEqual(list.nextStart(of: 1, after: 4), 18.5)
        XCTAssertEqual(list.nextStart(of: 0, after: 14), 15.5)
    }

    /// A list of an image and a shader loads both, each for its seconds; an item without
    /// seconds that has no length of its own, a missing file and a list in a list are
    /// refused naming the list's line.
    func test_aPlaylistLoadsItsItemsAndRefusesBadOnesNamingTheLine() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("list-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Bitmap(width: 2, height: 1, pixels: [10, 20, 30, 255, 40, 50, 60, 128]).writePNG(to: folder.appendingPathComponent("a.png").path)
        try "#version 300 es\nvoid main() {}\n".write(to: folder.appendingPathComponent("s.frag"), atomically: true, encoding: .utf8)
        func load(_ text: String) throws -> ContentFile {
            let list = folder.appendingPathComponent("list-\(UUID().uuidString).txt")
            try text.write(to: list, atomically: true, encoding: .utf8)
            var loaded: [String: ContentFile] = [:]
            return try ContentFile.load(list.path, log: Log { _, _ in }, loaded: &loaded)
        }
        guard case .playlist(let list) = try load("a.png 2\ns.frag 3\na.png 1\n") else { return XCTFail("not a playlist") }
        XCTAssertEqual(list.playlist.durations, [2, 3, 1])
        XCTAssertEqual(list.items.count, 3)
        for (text, message) in [("a.png 2\ns.frag\n", ":2: "), ("missing.png 2\n", ":1: \(folder.path)/missing.png: "),
                                ("a.png 1\n\(folder.path)/inner.txt 2\n", ":2: ")] {
            if text.contains("inner") { try "a.png 1\n".write(to: folder.appendingPathComponent("inner.txt"), atomically: true, encoding: .utf8) }
            XCTAssertThrowsError(try load(text)) { error in
                XCTAssertTrue("\(error)".contains(message), "\(text): \(error)")
            }
        }
        XCTAssertThrowsError(try load("a.png 2\ns.frag\n")) { XCTAssertTrue("\($0)".contains("needs SECONDS"), "\($0)") }
        XCTAssertThrowsError(try load("a.png 1\n\(folder.path)/inner.txt 2\n")) {
            XCTAssertTrue("\($0)".contains("a list cannot be an item of a list"), "\($0)")
        }
    }

    /// What a --content file is comes from its first bytes, not its name.
    func test_aFileIsAPictureAShaderOrAVideoByItsContents() {
        XCTAssertEqual(ContentFile.kind(of: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0], cut: false), .png)
        XCTAssertEqual(ContentFile.kind(of: Array("#version 300 es\nvoid main() {}\n".utf8), cut: false), .text)
        XCTAssertEqual(ContentFile.kind(of: [], cut: false), .text)
        // An MP4's first box, with NUL bytes in its size.
        XCTAssertEqual(ContentFile.kind(of: [0, 0, 0, 0x20] + Array("ftypisom".utf8), cut: true), .other)
        // Bytes that are not UTF-8, and a character cut at the end of what was read.
        XCTAssertEqual(ContentFile.kind(of: [0x47, 0xFF, 0x10, 0x47], cut: true), .other)
        let cut = Array("// é".utf8).dropLast()
        XCTAssertEqual(ContentFile.kind(of: Array(cut), cut: true), .text)
        XCTAssertEqual(ContentFile.kind(of: Array(cut), cut: false), .other)
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
