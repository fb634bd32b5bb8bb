import Foundation
import XCTest
@testable import glout
import WaylandOutputs

/// The pure parts of reading images: EXIF orientation, JPEG markers, CMYK and 16-bit
/// conversions, limits, signatures, and files read into memory C may keep.
final class ImageDecodingTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("image-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// A 3x2 picture stored as "a b c / d e f", each pixel one byte repeated four times.
    private let stored: [UInt8] = Array("abcdef".utf8).flatMap { [UInt8](repeating: $0, count: 4) }

    private func letters(_ pixels: [UInt8]) -> String {
        String(decoding: stride(from: 0, to: pixels.count, by: 4).map { pixels[$0] }, as: UTF8.self)
    }

    func test_eachEXIFOrientationTurnsTheStoredPixelsUpright() {
        // Rows of the upright picture, as Pillow's exif_transpose gives them.
        let expected: [ImageOrientation: (String, Int, Int)] = [
            .upright: ("abcdef", 3, 2), .mirrored: ("cbafed", 3, 2), .upsideDown: ("fedcba", 3, 2), .flipped: ("defabc", 3, 2),
            .transposed: ("adbecf", 2, 3), .turnedClockwise: ("daebfc", 2, 3), .transversed: ("fcebda", 2, 3),
            .turnedCounterClockwise: ("cfbead", 2, 3),
        ]
        for orientation in ImageOrientation.allCases {
            let turned = orientation.apply(to: stored, width: 3, height: 2)
            XCTAssertEqual(letters(turned.pixels), expected[orientation]?.0, "\(orientation)")
            XCTAssertEqual(turned.width, expected[orientation]?.1, "\(orientation)")
            XCTAssertEqual(turned.height, expected[orientation]?.2, "\(orientation)")
        }
    }

    /// The start of a JPEG: SOI, JFIF, an EXIF segment with IFD0's Orientation, maybe
    /// Adobe's APP14, then a scan.
    private func jpegStart(exif: [UInt8]?, adobe: Bool) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 16] + Array("JFIF\0".utf8) + [1, 1, 0, 0, 1, 0, 1, 0, 0]
        if let exif {
            let payload = Array("Exif\0\0".utf8) + exif
            bytes += [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        }
        if adobe { bytes += [0xFF, 0xEE, 0, 14] + Array("Adobe".utf8) + [0, 100, 0, 0, 0, 0, 0] }
        return bytes + [0xFF, 0xDA, 0, 2, 0x12, 0x34]
    }

    /// A TIFF header and IFD0 with one entry: tag 0x0112, type `type`, value `value`.
    private func tiff(littleEndian: Bool, value: UInt16, type: UInt16 = 3, ifd: UInt32 = 8, entries: UInt16 = 1) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] { littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)] }
        func u32(_ v: UInt32) -> [UInt8] {
            let bytes = [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
            return littleEndian ? bytes.reversed() : bytes
        }
        return (littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(42) + u32(ifd) + u16(entries)
            + u16(0x0112) + u16(type) + u32(1) + u16(value) + u16(0) + u32(0)
    }

    private func metadata(_ bytes: [UInt8]) -> JPEGMetadata { bytes.withUnsafeBytes { JPEGMetadata($0) } }

    func test_theJPEGsOrientationAndAdobeMarkerAreReadAndCraftedOffsetsGiveTheDefaults() {
        XCTAssertEqual(metadata(jpegStart(exif: tiff(littleEndian: true, value: 6), adobe: false)),
                       JPEGMetadata(orientation: .turnedClockwise, adobe: false))
        XCTAssertEqual(metadata(jpegStart(exif: tiff(littleEndian: false, value: 8), adobe: true)),
                       JPEGMetadata(orientation: .turnedCounterClockwise, adobe: true))
        XCTAssertEqual(metadata(jpegStart(exif: nil, adobe: true)), JPEGMetadata(orientation: .upright, adobe: true))
        // Out of 1...8, not a SHORT, an IFD past the end, a cut segment: upright, and no trap.
        for exif in [tiff(littleEndian: true, value: 9), tiff(littleEndian: true, value: 0), tiff(littleEndian: true, value: 6, type: 4),
                     tiff(littleEndian: true, value: 6, ifd: 0xFFFF_FFF0)] {
            XCTAssertEqual(metadata(jpegStart(exif: exif, adobe: false)).orientation, .upright, "\(exif)")
        }
        // More entries than bytes: those that are there are read.
        XCTAssertEqual(metadata(jpegStart(exif: tiff(littleEndian: false, value: 6, entries: 0xFFFF), adobe: false)).orientation,
                       .turnedClockwise)
        let whole = jpegStart(exif: tiff(littleEndian: true, value: 6), adobe: true)
        for cut in 0..<whole.count {
            _ = metadata(Array(whole.prefix(cut)))
        }
        XCTAssertTrue(JPEGMetadata.isJPEG(whole))
        XCTAssertFalse(JPEGMetadata.isJPEG([0xFF, 0xD8]))
    }

    func test_CMYKBecomesRGBAsEachInkTakesFromWhiteInvertedWhereAdobeSaysSo() {
        // Plain: no ink is white, full K is black, C alone takes red.
        var plain: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 255, 255, 0, 0, 0, 128, 0, 0, 128]
        ContentImage.convertCMYK(&plain, inverted: false)
        XCTAssertEqual(plain, [255, 255, 255, 255, 0, 0, 0, 255, 0, 255, 255, 255, 63, 127, 127, 255])
        // Adobe's: stored as 255 minus each.
        var adobe: [UInt8] = [255, 255, 255, 255, 255, 255, 255, 0]
        ContentImage.convertCMYK(&adobe, inverted: true)
        XCTAssertEqual(adobe, [255, 255, 255, 255, 0, 0, 0, 255])
    }

    func test_sixteenBitLinearLightIsEncodedAsLibpngEncodesEightBitsOfIt() {
        // Opaque: 8-bit value v, as libpng makes it linear (gamma 2.2), comes back as v.
        for v in [0, 17, 128, 200, 255] {
            let linear = UInt16((pow(Double(v) / 255, 2.2) * 65535).rounded())
            XCTAssertEqual(ContentImage.encoded([linear, linear, linear, 65535]), [UInt8(v), UInt8(v), UInt8(v), 255], "\(v)")
        }
        // Premultiplied by half an alpha: full red and blue stay full, alpha 128; nothing
        // where alpha is 0.
        XCTAssertEqual(ContentImage.encoded([32768, 0, 32768, 32768]), [255, 0, 255, 128])
        XCTAssertEqual(ContentImage.encoded([0, 0, 0, 0]), [0, 0, 0, 0])
    }

    func test_aJPEGLargerThanGloutHoldsIsDecodedAtTheLargestScaleWithinTheLimits() {
        XCTAssertTrue(ContentImage.jpegScale(width: 8192, height: 8192)! == (8192, 8192))
        XCTAssertTrue(ContentImage.jpegScale(width: 12000, height: 8000)! == (6000, 4000))
        XCTAssertTrue(ContentImage.jpegScale(width: 65535, height: 65535)! == (8192, 8192))
        XCTAssertTrue(ContentImage.jpegScale(width: 20000, height: 1)! == (10000, 1))
        XCTAssertTrue(ContentImage.jpegScale(width: 1, height: 1)! == (1, 1))
        XCTAssertNil(ContentImage.jpegScale(width: 0, height: 10))
    }

    func test_aFileIsAPNGAJPEGOrAWebPByItsSignature() {
        XCTAssertEqual(ContentFile.kind(of: [0xFF, 0xD8, 0xFF, 0xE0, 0, 16], cut: true), .jpeg)
        XCTAssertEqual(ContentFile.kind(of: Array("RIFF".utf8) + [1, 2, 3, 4] + Array("WEBPVP8 ".utf8), cut: true), .webp)
        XCTAssertEqual(ContentFile.kind(of: Array("RIFF".utf8) + [1, 0, 0, 0] + Array("AVI LIST".utf8), cut: true), .other)
        XCTAssertFalse(WebPFile.isWebP(Array("RIFF".utf8)))
    }

    /// A PNG's signature and IHDR for `width` x `height`, 8-bit RGB, with a right CRC,
    /// and no image data.
    private func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
        func u32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
        let chunk = Array("IHDR".utf8) + u32(width) + u32(height) + [8, 2, 0, 0, 0]
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in chunk {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + u32(13) + chunk + u32(~crc)
    }

    private func load(_ bytes: [UInt8], name: String) throws -> ContentFile {
        let path = folder.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        var loaded: [String: ContentFile] = [:]
        return try ContentFile.load(path, log: Log { _, _ in }, loaded: &loaded)
    }

    func test_aPictureLargerThanGloutHoldsIsRefusedBeforeItsPixelsAreMade() throws {
        for (width, height) in [(UInt32(16385), UInt32(1)), (9000, 9000), (1_000_000, 1_000_000)] {
            XCTAssertThrowsError(try load(pngHeader(width: width, height: height), name: "large.png")) { error in
                let message = "\(error)"
                XCTAssertTrue(message.contains("\(width)x\(height) pixels; glout shows images of 1 to 16384 pixels a side")
                              || message.contains("libpng: "), message)
            }
        }
        // Within the limits, a header alone is a PNG cut short.
        XCTAssertThrowsError(try load(pngHeader(width: 16384, height: 2), name: "cut.png")) { error in
            XCTAssertTrue("\(error)".contains("not a PNG glout can read (libpng: "), "\(error)")
        }
    }

    func test_aPNGAtTheSideLimitIsDecoded() throws {
        let path = folder.appendingPathComponent("wide.png").path
        var pixels = [UInt8](repeating: 0, count: 16384 * 4 * 2)
        for i in stride(from: 0, to: pixels.count, by: 4) { pixels[i] = UInt8(i / 4 % 251); pixels[i + 3] = 255 }
        try Bitmap(width: 16384, height: 2, pixels: pixels).writePNG(to: path)
        var loaded: [String: ContentFile] = [:]
        guard case .image(let image) = try ContentFile.load(path, log: Log { _, _ in }, loaded: &loaded) else {
            return XCTFail("not read as an image")
        }
        XCTAssertEqual(image.width, 16384)
        XCTAssertEqual(image.height, 2)
        XCTAssertEqual(image.pixels, pixels)
    }

    func test_aFileIsReadWholeIntoMemoryGloutHoldsAndOneOverTheLimitIsRefused() throws {
        let path = folder.appendingPathComponent("bytes").path
        let bytes = (0..<300_000).map { UInt8($0 % 253) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let held = try FileSystem.readHeld(path, for: "--content", limit: 1 << 20)
        XCTAssertEqual(held.array, bytes)
        XCTAssertEqual(try FileSystem.readStart(path, for: "--content", count: 10), Array(bytes.prefix(10)))
        XCTAssertThrowsError(try FileSystem.readHeld(path, for: "--content", limit: 100_000)) { error in
            XCTAssertTrue("\(error)".contains("not a file glout reads"), "\(error)")
        }
        // A device with no size and no end: refused at the limit, not read forever.
        XCTAssertThrowsError(try FileSystem.readHeld("/dev/zero", for: "--content", limit: 3 << 20))
    }
}
