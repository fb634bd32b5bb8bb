import CPNG
import XCTest
@testable import glout

/// glout's fast reader of common PNGs, against libpng: the same pixels for every row
/// filter, both colour types and any split of the image data; nil (libpng then reads) for
/// what it leaves to libpng; and for a damaged file, never a picture libpng would not give.
/// The PNGs are made here, by a writer that filters each row as the test says.
final class PNGFastReaderTests: XCTestCase {
    /// A PNG's parts before they are written.
    private struct Made {
        var width: Int
        var height: Int
        var channels = 4
        /// The filter of each row.
        var filter: (Int) -> UInt8 = { _ in 4 }
        /// Chunks between IHDR and IDAT: type and body.
        var before: [(String, [UInt8])] = []
        /// How many IDAT chunks the data is split into.
        var pieces = 1
        var header: (depth: UInt8, colour: UInt8, interlace: UInt8)?
        /// A change to the filtered rows before they are deflated.
        var damage: (inout [UInt8]) -> Void = { _ in }

        func pixels(seed: UInt64) -> [UInt8] {
            var random = SeededGenerator(seed: seed)
            // Noise, flat runs and a gradient, row by row.
            return (0..<width * height * channels).map { i in
                switch (i / (width * channels)) % 3 {
                case 0: UInt8(truncatingIfNeeded: random.next())
                case 1: 200
                default: UInt8(truncatingIfNeeded: i / channels % width * 7)
                }
            }
        }

        func png(of pixels: [UInt8]) -> [UInt8] {
            let rowBytes = width * channels
            var filtered: [UInt8] = []
            for y in 0..<height {
                let kind = filter(y)
                filtered.append(kind)
                for i in 0..<rowBytes {
                    let at = y * rowBytes + i
                    let a = i >= channels ? Int(pixels[at - channels]) : 0
                    let b = y > 0 ? Int(pixels[at - rowBytes]) : 0
                    let c = i >= channels && y > 0 ? Int(pixels[at - rowBytes - channels]) : 0
                    let predicted: Int
                    switch kind {
                    case 1: predicted = a
                    case 2: predicted = b
                    case 3: predicted = (a + b) / 2
                    case 4:
                        let p = a + b - c
                        let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
                        predicted = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
                    default: predicted = 0
                    }
                    filtered.append(UInt8(truncatingIfNeeded: Int(pixels[at]) - predicted))
                }
            }
            damage(&filtered)
            let data = PNGFastReaderTests.deflated(filtered)
            let (depth, colour, interlace) = header ?? (8, channels == 4 ? 6 : 2, 0)
            var file: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
            let size = PNGFastReaderTests.word(width) + PNGFastReaderTests.word(height)
            file += PNGFastReaderTests.chunk("IHDR", size + [depth, colour, 0, 0, interlace])
            for (type, body) in before { file += PNGFastReaderTests.chunk(type, body) }
            let piece = (data.count + pieces - 1) / pieces
            for start in stride(from: 0, to: data.count, by: max(1, piece)) {
                file += PNGFastReaderTests.chunk("IDAT", Array(data[start..<min(data.count, start + piece)]))
            }
            return file + PNGFastReaderTests.chunk("IEND", [])
        }
    }

    static func word(_ value: Int) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8),
         UInt8(truncatingIfNeeded: value)]
    }

    static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + body
        let crc = typed.withUnsafeBufferPointer { crc32(0, $0.baseAddress, UInt32($0.count)) }
        return word(body.count) + typed + word(Int(crc))
    }

    static func deflated(_ bytes: [UInt8]) -> [UInt8] {
        var size = compressBound(UInt(bytes.count))
        var out = [UInt8](repeating: 0, count: Int(size))
        XCTAssertEqual(compress2(&out, &size, bytes, UInt(bytes.count), 6), Z_OK)
        return Array(out.prefix(Int(size)))
    }

    private func fast(_ png: [UInt8]) -> (width: Int, height: Int, pixels: [UInt8])? {
        png.withUnsafeBytes { PNGFastReader.pixels(of: $0) }
    }

    private func libpng(_ png: [UInt8]) -> ContentImage? {
        let held = HeldBytes(capacity: png.count)
        png.withUnsafeBytes { held.start.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        held.filled(png.count)
        return try? ContentImage(libpng: held, path: "made.png")
    }

    /// The RGBA libpng gives for `pixels` of `channels` channels (opaque where 3).
    private func rgba(_ pixels: [UInt8], channels: Int) -> [UInt8] {
        channels == 4 ? pixels : stride(from: 0, to: pixels.count, by: 3).flatMap { Array(pixels[$0..<$0 + 3]) + [255] }
    }

    func test_everyFilterBothColourTypesAndAnySplitGiveLibpngsPixels() throws {
        let filters: [(String, (Int) -> UInt8)] = [
            ("none", { _ in 0 }), ("sub", { _ in 1 }), ("up", { _ in 2 }), ("average", { _ in 3 }), ("paeth", { _ in 4 }),
            ("each in turn", { UInt8($0 % 5) }), ("reversed", { UInt8(4 - $0 % 5) }),
        ]
        for (width, height) in [(1, 1), (1, 6), (2, 3), (7, 5), (333, 17)] {
            for channels in [3, 4] {
                for (name, filter) in filters {
                    for pieces in [1, 3] {
                        let made = Made(width: width, height: height, channels: channels, filter: filter, pieces: pieces)
                        let pixels = made.pixels(seed: UInt64(width * 1000 + height * 10 + channels))
                        let png = made.png(of: pixels)
                        let label = "\(width)x\(height), \(channels) channels, \(name), \(pieces) IDAT"
                        let read = try XCTUnwrap(fast(png), label)
                        XCTAssertEqual(read.width, width, label)
                        XCTAssertEqual(read.height, height, label)
                        XCTAssertTrue(read.pixels == rgba(pixels, channels: channels), label)
                        XCTAssertTrue(read.pixels == libpng(png)?.pixels, label)
                    }
                }
            }
        }
    }

    func test_chunksThatChangeNothingAreReadAndGammaNearSRGBIsSRGBAsLibpngTakesIt() throws {
        let gamma = { (value: Int) in ("gAMA", PNGFastReaderTests.word(value)) }
        for before in [[("sRGB", [0])], [gamma(45455)], [gamma(43500)], [gamma(47500)], [("tEXt", Array("Title\0x".utf8))],
                       [("pHYs", [0, 0, 11, 19, 0, 0, 11, 19, 1])], [("PLTE", [1, 2, 3, 4, 5, 6])]] {
            let made = Made(width: 40, height: 9, channels: 3, before: before)
            let png = made.png(of: made.pixels(seed: 7))
            let read = try XCTUnwrap(fast(png), "\(before)")
            XCTAssertTrue(read.pixels == libpng(png)?.pixels, "\(before)")
        }
    }

    func test_whatLibpngConvertsOrRefusesIsLeftToIt() {
        let cases: [(String, Made)] = [
            ("a gamma far from sRGB's", Made(width: 8, height: 8, before: [("gAMA", PNGFastReaderTests.word(100_000))])),
            ("an ICC profile", Made(width: 8, height: 8, before: [("iCCP", Array("p\0\0".utf8) + PNGFastReaderTests.deflated([1, 2, 3]))])),
            ("a transparent colour", Made(width: 8, height: 8, channels: 3, before: [("tRNS", [0, 1, 0, 2, 0, 3])])),
            ("an unknown critical chunk", Made(width: 8, height: 8, before: [("ABCD", [1])])),
            ("16 bits", Made(width: 4, height: 8, header: (16, 6, 0))),
            ("grey", Made(width: 32, height: 8, header: (8, 4, 0))),
            ("interlaced", Made(width: 8, height: 8, header: (8, 6, 1))),
        ]
        for (name, made) in cases {
            XCTAssertNil(fast(made.png(of: made.pixels(seed: 3))), name)
        }
    }

    /// Bytes changed, chunks cut short, junk after them, changes inside a chunk with its
    /// CRC made right again (so that the header and the zlib stream are reached), and
    /// filtered rows changed before they are deflated (a filter's type, the data's
    /// length): whatever the fast reader takes, libpng reads to the same picture.
    func test_aDamagedFileIsNeverReadToAPictureLibpngWouldNotGive() {
        var random = SeededGenerator(seed: 20_261_207)
        var made = Made(width: 23, height: 11, channels: 4, filter: { UInt8($0 % 5) }, before: [("gAMA", PNGFastReaderTests.word(45455))],
                        pieces: 2)
        let pixels = made.pixels(seed: 11)
        let original = made.png(of: pixels)
        var (taken, refused) = (0, 0)
        for round in 0..<5000 {
            var png = original
            switch round % 5 {
            case 0:
                for _ in 0...random.below(3) { png[random.below(png.count)] = UInt8(truncatingIfNeeded: random.next()) }
            case 1:
                png = Array(png.prefix(random.below(png.count)))
            case 2:
                png += (0..<random.below(40)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                png[8 + random.below(25)] ^= UInt8(1 << random.below(8))
            case 3:
                let (at, value, cut) = (random.below(11 * 93), UInt8(truncatingIfNeeded: random.next() % 8), random.below(4) == 0)
                made.damage = { filtered in
                    if cut { filtered.removeLast(1 + at % 5) } else { filtered[at] = at % 93 == 0 ? value : value &+ filtered[at] }
                }
                png = made.png(of: pixels)
            default:
                // A byte inside one chunk's type or body, and the chunk's CRC made right.
                var offset = 8
                var chunks: [(start: Int, length: Int)] = []
                while offset + 12 <= png.count {
                    let length = Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8 | Int(png[offset + 3])
                    chunks.append((offset, length))
                    offset += 12 + length
                }
                let (start, length) = chunks[random.below(chunks.count)]
                let at = start + 4 + random.below(length + 4)
                png[at] = random.below(2) == 0 ? UInt8(truncatingIfNeeded: random.next()) : png[at] ^ UInt8(1 << random.below(8))
                let typed = Array(png[start + 4..<start + 8 + length])
                let crc = typed.withUnsafeBufferPointer { crc32(0, $0.baseAddress, UInt32($0.count)) }
                png.replaceSubrange(start + 8 + length..<start + 12 + length, with: PNGFastReaderTests.word(Int(crc)))
            }
            guard let read = fast(png) else { refused += 1; continue }
            taken += 1
            let reference = libpng(png)
            XCTAssertNotNil(reference, "round \(round): the fast reader took a file libpng refuses")
            XCTAssertTrue(read.pixels == reference?.pixels && read.width == reference?.width && read.height == reference?.height,
                          "round \(round): a picture libpng does not give")
        }
        // Both kinds happened: the test reached the reader's insides and its refusals.
        XCTAssertGreaterThan(taken, 500)
        XCTAssertGreaterThan(refused, 1000)
    }
}

private extension SeededGenerator {
    /// A number from 0 to `bound` - 1.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
