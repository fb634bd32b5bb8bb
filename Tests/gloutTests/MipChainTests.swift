import XCTest
@testable import glout

/// The mip levels of a still: sized as GL sizes them, each pixel the alpha-weighted mean of
/// the area it covers in the level before, against a model that measures each old pixel's
/// overlap with the new one in doubles.
final class MipChainTests: XCTestCase {
    func test_levelsAreHalvedAsGLSizesThemDownToOnePixel() {
        let sizes = MipChain.levels(width: 13, height: 4, pixels: [UInt8](repeating: 9, count: 13 * 4 * 4))
            .map { [$0.width, $0.height] }
        XCTAssertEqual(sizes, [[6, 2], [3, 1], [1, 1]])
        XCTAssertEqual(MipChain.count(width: 13, height: 4), 4)
        XCTAssertEqual(MipChain.count(width: 4032, height: 3024), 12)
        XCTAssertEqual(MipChain.count(width: 1, height: 1), 1)
        XCTAssertEqual(MipChain.count(width: 1, height: 16384), 15)
        XCTAssertTrue(MipChain.levels(width: 1, height: 1, pixels: [1, 2, 3, 4]).isEmpty)
    }

    func test_anOpaquePicturesEvenSidesGiveTheRoundedMeanOfEachBlock() {
        let (width, height) = (6, 4)
        let pixels = picture(width: width, height: height, seed: 1, opaque: true)
        let level = MipChain.halved(width: width, height: height, pixels: pixels)
        XCTAssertEqual(level.width, 3)
        XCTAssertEqual(level.height, 2)
        for y in 0..<2 {
            for x in 0..<3 {
                for c in 0..<3 {
                    let sum = [(0, 0), (1, 0), (0, 1), (1, 1)].reduce(0) { sum, d in
                        sum + Int(pixels[((2 * y + d.1) * width + 2 * x + d.0) * 4 + c])
                    }
                    XCTAssertEqual(Int(level.pixels[(y * 3 + x) * 4 + c]), (sum + 2) / 4, "pixel \(x),\(y) channel \(c)")
                }
                XCTAssertEqual(level.pixels[(y * 3 + x) * 4 + 3], 255)
            }
        }
    }

    func test_theColourOfTransparentPixelsDoesNotBleedIntoVisibleOnes() {
        // One opaque red pixel and three transparent green ones.
        let pixels: [UInt8] = [255, 0, 0, 255, 0, 255, 0, 0,
                               0, 255, 0, 0, 0, 255, 0, 0]
        XCTAssertEqual(MipChain.halved(width: 2, height: 2, pixels: pixels).pixels, [255, 0, 0, 64])
        // Half-transparent blue beside opaque white: blue weighs a third.
        let mixed: [UInt8] = [0, 0, 255, 128, 255, 255, 255, 255]
        XCTAssertEqual(MipChain.halved(width: 2, height: 1, pixels: mixed).pixels, [170, 170, 255, 192])
        // Nothing visible: the plain mean, transparent (a 2x2 block, and two pixels of an odd side).
        let none: [UInt8] = [10, 20, 30, 0, 20, 40, 60, 0, 11, 21, 31, 0, 21, 41, 61, 0]
        XCTAssertEqual(MipChain.halved(width: 2, height: 2, pixels: none).pixels, [16, 31, 46, 0])
        XCTAssertEqual(MipChain.halved(width: 2, height: 1, pixels: Array(none[..<8])).pixels, [15, 30, 45, 0])
    }

    func test_anOddSideWeighsEachPixelByHowMuchOfTheNewOneItCovers() {
        XCTAssertEqual(MipChain.taps(from: 5, to: 2).map { $0.map(\.index) }, [[0, 1, 2], [2, 3, 4]])
        XCTAssertEqual(MipChain.taps(from: 5, to: 2)[0].map(\.weight), [0.4, 0.4, 0.2])
        XCTAssertEqual(MipChain.taps(from: 3, to: 1)[0].map(\.index), [0, 1, 2])
        XCTAssertEqual(MipChain.taps(from: 1, to: 1), [[MipChain.Tap(index: 0, weight: 1)]])
        for (from, to) in [(5, 2), (7, 3), (189, 94), (3, 1), (1, 1), (8, 4)] {
            for (i, taps) in MipChain.taps(from: from, to: to).enumerated() {
                XCTAssertEqual(taps.reduce(0) { $0 + $1.weight }, 1, accuracy: 1e-6, "\(from) to \(to), pixel \(i)")
            }
        }
        // Three pixels into one: their mean.
        let three: [UInt8] = [0, 30, 90, 255, 30, 60, 90, 255, 60, 90, 91, 255]
        XCTAssertEqual(MipChain.halved(width: 3, height: 1, pixels: three).pixels, [30, 60, 90, 255])
    }

    func test_everyLevelMatchesTheAreaMeanModelAtAnySize() {
        for (width, height, seed) in [(6, 4, 2), (7, 5, 3), (5, 8, 4), (33, 17, 5), (1, 9, 6), (10, 1, 7)] {
            for opaque in [true, false] {
                var (w, h, pixels) = (width, height, picture(width: width, height: height, seed: UInt64(seed), opaque: opaque))
                for level in MipChain.levels(width: width, height: height, pixels: pixels) {
                    let expected = model(width: w, height: h, pixels: pixels)
                    XCTAssertEqual([level.width, level.height], [max(1, w / 2), max(1, h / 2)])
                    let off = zip(level.pixels, expected).map { abs(Double($0) - $1) }.max() ?? 0
                    // Rounding to nearest: within half a level, and a hair for float sums.
                    XCTAssertLessThanOrEqual(off, 0.5 + 1e-3, "\(width)x\(height) (\(opaque ? "opaque" : "alpha")) at \(w)x\(h)")
                    (w, h, pixels) = (level.width, level.height, level.pixels)
                }
            }
        }
    }

    func test_onePixelStripesBecomeEvenGreyAndAFlatPictureStaysFlat() {
        let (width, height) = (64, 48)
        let stripes = (0..<width * height * 4).map { i in i % 4 == 3 ? UInt8(255) : (i / 4 % width).isMultiple(of: 2) ? 0 : 255 }
        let levels = MipChain.levels(width: width, height: height, pixels: stripes)
        for level in levels {
            XCTAssertEqual(Set(level.pixels.enumerated().filter { $0.offset % 4 != 3 }.map(\.element)), [128],
                           "\(level.width)x\(level.height)")
        }
        let flat = [UInt8]([12, 200, 99, 180].repeated(27 * 11))
        for level in MipChain.levels(width: 27, height: 11, pixels: flat) {
            XCTAssertEqual(level.pixels, [UInt8]([12, 200, 99, 180].repeated(level.width * level.height)))
        }
    }

    /// Noise, in every channel; alpha random too unless `opaque`, with some pixels fully
    /// transparent.
    private func picture(width: Int, height: Int, seed: UInt64, opaque: Bool) -> [UInt8] {
        var random = SeededGenerator(seed: seed)
        return (0..<width * height * 4).map { i in
            let value = UInt8(truncatingIfNeeded: random.next())
            guard i % 4 == 3 else { return value }
            return opaque ? 255 : value < 40 ? 0 : value
        }
    }

    /// The next level by definition: each new pixel covers a rectangle of the old picture;
    /// each old pixel counts by the area of it inside that rectangle, times its alpha.
    private func model(width: Int, height: Int, pixels: [UInt8]) -> [Double] {
        let (nw, nh) = (max(1, width / 2), max(1, height / 2))
        let (rx, ry) = (Double(width) / Double(nw), Double(height) / Double(nh))
        func overlap(_ j: Int, _ start: Double, _ end: Double) -> Double {
            max(0, min(end, Double(j + 1)) - max(start, Double(j)))
        }
        var out: [Double] = []
        for y in 0..<nh {
            for x in 0..<nw {
                var weighted = [0.0, 0.0, 0.0], plain = [0.0, 0.0, 0.0], alpha = 0.0, area = 0.0
                for sy in 0..<height {
                    for sx in 0..<width {
                        let a = overlap(sx, Double(x) * rx, Double(x + 1) * rx) * overlap(sy, Double(y) * ry, Double(y + 1) * ry)
                        guard a > 0 else { continue }
                        let p = (sy * width + sx) * 4
                        let opacity = Double(pixels[p + 3])
                        for c in 0..<3 {
                            weighted[c] += a * opacity * Double(pixels[p + c])
                            plain[c] += a * Double(pixels[p + c])
                        }
                        alpha += a * opacity
                        area += a
                    }
                }
                for c in 0..<3 { out.append(alpha > 0 ? weighted[c] / alpha : plain[c] / area) }
                out.append(alpha / area)
            }
        }
        return out
    }
}

private extension Array {
    func repeated(_ times: Int) -> [Element] { (0..<times).flatMap { _ in self } }
}

/// A still's levels uploaded to the shared texture in turns of about a megabyte: every row
/// of every level once, in order; a large level in bands, the small ones together.
final class SharedTextureBandsTests: XCTestCase {
    func test_everyRowOfEveryLevelIsWrittenOnceInTurnsOfAboutAMegabyte() {
        for (width, height) in [(4032, 3024), (1920, 1080), (1, 1), (16384, 1), (1, 16384), (333, 17)] {
            var sizes = [(width: width, height: height)]
            while sizes.last!.width > 1 || sizes.last!.height > 1 {
                sizes.append((max(1, sizes.last!.width / 2), max(1, sizes.last!.height / 2)))
            }
            let turns = SharedTexture.bands(of: sizes)
            let bands = turns.flatMap { $0 }
            var next = [Int](repeating: 0, count: sizes.count)
            var lastLevel = 0
            for band in bands {
                XCTAssertGreaterThanOrEqual(band.level, lastLevel, "\(width)x\(height): levels in order")
                XCTAssertEqual(band.rows.lowerBound, next[band.level], "\(width)x\(height): level \(band.level) rows in order")
                XCTAssertFalse(band.rows.isEmpty)
                next[band.level] = band.rows.upperBound
                lastLevel = band.level
            }
            XCTAssertEqual(next, sizes.map(\.height), "\(width)x\(height): every row of every level")
            for turn in turns {
                let bytes = turn.reduce(0) { $0 + $1.rows.count * sizes[$1.level].width * 4 }
                XCTAssertTrue(turn.count == 1 || bytes <= SharedTexture.bandBytes, "\(width)x\(height): a turn of \(bytes) bytes")
            }
            // A turn ends only where the next band would take it past a megabyte: small levels share one.
            func bytes(_ band: (level: Int, rows: Range<Int>)) -> Int { band.rows.count * sizes[band.level].width * 4 }
            for (turn, next) in zip(turns, turns.dropFirst()) {
                XCTAssertGreaterThan(turn.reduce(0) { $0 + bytes($1) } + bytes(next[0]), SharedTexture.bandBytes,
                                     "\(width)x\(height): a turn ended early")
            }
        }
    }
}
