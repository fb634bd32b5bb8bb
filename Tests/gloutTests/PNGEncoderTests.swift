import XCTest
@testable import glout

/// glout's own PNG writer (screenshots), read back by libpng: every pixel as written, in
/// either row order, at sizes that end a zlib block mid-row.
final class PNGEncoderTests: XCTestCase {
    private func decode(_ png: [UInt8]) throws -> ContentImage {
        let held = HeldBytes(capacity: png.count)
        png.withUnsafeBytes { held.start.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        held.filled(png.count)
        return try ContentImage(png: held, path: "screenshot.png")
    }

    func test_libpngReadsBackEveryPixelWrittenInEitherRowOrder() throws {
        var random = SystemRandomNumberGenerator()
        for (width, height) in [(1, 1), (3, 2), (333, 111), (1280, 720)] {
            // Noise, flat runs and a gradient: what a frame holds.
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            for i in pixels.indices {
                switch (i / 4 / width) % 3 {
                case 0: pixels[i] = UInt8.random(in: 0...255, using: &random)
                case 1: pixels[i] = 200
                default: pixels[i] = UInt8(truncatingIfNeeded: i / 4 % width)
                }
            }
            let rowBytes = width * 4
            var upsideDown: [UInt8] = []
            for row in (0..<height).reversed() { upsideDown += pixels[row * rowBytes ..< (row + 1) * rowBytes] }
            for (given, bottomUp) in [(pixels, false), (upsideDown, true)] {
                let png = try PNGEncoder.encode(given, width: width, height: height, bottomUp: bottomUp)
                XCTAssertEqual(Array(png.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
                let image = try decode(png)
                XCTAssertEqual(image.width, width)
                XCTAssertEqual(image.height, height)
                XCTAssertTrue(image.pixels == pixels, "\(width)x\(height), bottom up: \(bottomUp)")
            }
        }
    }

    func test_anEmptyPictureIsAnErrorNotACrash() {
        XCTAssertThrowsError(try PNGEncoder.encode([], width: 0, height: 0, bottomUp: false))
    }

    func test_aFlatFrameCompressesToUnderOnePercent() throws {
        let png = try PNGEncoder.encode([UInt8](repeating: 90, count: 1920 * 1080 * 4), width: 1920, height: 1080, bottomUp: true)
        XCTAssertLessThan(png.count, 1920 * 1080 * 4 / 100)
    }
}
