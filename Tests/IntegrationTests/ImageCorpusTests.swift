import Foundation
import XCTest

/// Images as users bring them, made by other tools (Tests/ImageCorpus/make-corpus:
/// ImageMagick, Pillow, ffmpeg): every PNG colour type and depth, interlaced and not,
/// sizes from 1x1 to 8K, JPEGs with each EXIF orientation, CMYK and progressive, WebP
/// stills and animations, GIF, BMP and TIFF stills, and a truncated and a bit-flipped copy
/// of each. Run on the release binary, each file on its own glout: what is valid is shown
/// upright on both outputs, within a few levels of the file's own decode (the reference
/// sampled as GL samples it, through mip levels for a still drawn smaller than it is,
/// drawn over black); what is broken ends it with status 1 and a
/// message naming the file; nothing crashes or hangs.
final class ImageCorpusTests: SharedSwayTestCase {
    nonisolated(unsafe) private static var corpus: URL?

    /// The corpus, made once for the class (about 30 s with the 8K files).
    private func corpusFolder() throws -> URL {
        if let corpus = ImageCorpusTests.corpus { return corpus }
        let folder = Paths.temporaryFolder()
        let maker = Paths.packageRoot.appendingPathComponent("Tests/ImageCorpus/make-corpus").path
        let made = try Child("/usr/bin/python3", [maker, folder.path]).wait(timeout: 300)
        guard made.status == 0 else { throw HarnessError("make-corpus failed (status \(made.status)): \(made.stderr)") }
        ImageCorpusTests.corpus = folder
        return folder
    }

    override class func tearDown() {
        if let corpus { try? FileManager.default.removeItem(at: corpus) }
        corpus = nil
        super.tearDown()
    }

    private struct Entry: Decodable {
        var file: String
        var made_by: String
        var expect: String
        var frames: [Frame]
        struct Frame: Decodable {
            var time: Double?
            var reference: String
            var width: Int
            var height: Int
        }
    }

    private func manifest(_ folder: URL) throws -> [Entry] {
        try JSONDecoder().decode([Entry].self, from: Data(contentsOf: folder.appendingPathComponent("manifest.json")))
    }

    func test_everyValidImageIsShownUprightInItsOwnColoursOnEveryOutput() throws {
        let folder = try corpusFolder()
        let outputs = [("HEADLESS-1", 1280, 720), ("HEADLESS-2", 800, 600)]
        var failures: [String] = []
        var shown = 0
        for entry in try manifest(folder) where entry.expect == "shown" {
            // A fault every file shows would cost a wait each: five are enough to see it.
            guard failures.count < 5 else { break }
            let path = folder.appendingPathComponent(entry.file).path
            for frame in entry.frames {
                // A still is sampled through its mip levels; an animation's frames, as a video's, are not.
                let reference = try ReferencePicture(folder.appendingPathComponent(frame.reference), width: frame.width,
                                                     height: frame.height,
                                                     mipmappedFor: frame.time == nil ? outputs.map { ($0.1, $0.2) } : [])
                let frozen = frame.time.map { ["--frozen", String($0)] } ?? []
                let glout = try sway.glout(["run", "--control", "none", "--content", path, "--duration", "120"] + frozen)
                var last: [String: ReferencePicture.Match] = [:]
                do {
                    // Polled: the first frames may be the draft, or the picture not yet settled.
                    try waitUntil("\(entry.file)\(frame.time.map { " at \($0) s" } ?? "") on both outputs: \(last)",
                                  within: Timing.patience / 2) {
                        guard glout.isRunning else { return true }
                        for (name, width, height) in outputs {
                            let screen = try sway.screenshot(name)
                            guard screen.width == width, screen.height == height else { return false }
                            last[name] = reference.match(screen)
                        }
                        return last.values.allSatisfy(\.isClose)
                    }
                } catch {
                    failures.append("\(entry.file) (\(entry.made_by)): \(error)")
                }
                glout.signal(SIGTERM)
                let finished = glout.wait()
                if finished.signaled || finished.status != 0 {
                    failures.append("\(entry.file): ended with \(finished.signaled ? "signal" : "status") \(finished.status): "
                                    + String(finished.stderr.suffix(3000)))
                }
                shown += 1
            }
        }
        XCTAssertGreaterThan(shown, 60, "the corpus has its valid files")
        XCTAssertTrue(failures.isEmpty, "\(failures.count) failures:\n" + failures.joined(separator: "\n"))
    }

    func test_everyBrokenImageEndsItWithStatus1NamingTheFileAndNoneCrashesOrHangs() throws {
        let folder = try corpusFolder()
        var failures: [String] = []
        var refused = 0
        for entry in try manifest(folder) where entry.expect != "shown" {
            let path = folder.appendingPathComponent(entry.file).path
            // A flipped copy glout may show runs its second; one it refuses ends at once.
            let finished = try sway.glout(["run", "--control", "none", "--content", path, "--duration", "1"]).wait()
            let named = finished.stderr.contains("glout: --content \(path): ")
            let describe = "\(entry.file) (\(entry.made_by)): \(finished.signaled ? "signal" : "status") \(finished.status), "
                + String(finished.stderr.suffix(2000))
            if finished.signaled {
                failures.append(describe)
            } else if entry.expect == "refused" {
                if finished.status == 1 && named { refused += 1 } else { failures.append(describe) }
            } else if !(finished.status == 0 || (finished.status == 1 && named)) {
                failures.append(describe)
            }
        }
        XCTAssertGreaterThan(refused, 150, "the corpus has its broken files")
        XCTAssertTrue(failures.isEmpty, "\(failures.count) failures:\n" + failures.joined(separator: "\n"))
    }
}

/// A picture to compare the screen with: 8-bit RGBA, not premultiplied, rows top first.
struct ReferencePicture {
    let width: Int
    let height: Int
    let pixels: [UInt8]
    /// Levels 0, 1, … of the picture, as far down as the screens it is matched with need
    /// (only level 0 when it is not mipmapped).
    private var levels: [Level]

    /// An RGBA picture, not premultiplied, rows top first.
    private struct Level {
        let width: Int
        let height: Int
        let pixels: [UInt8]
    }

    /// The reference in `file`; `mipmappedFor` the screens on which it is drawn through
    /// mip levels as glout draws a still (none: sampled from level 0 alone).
    init(_ file: URL, width: Int, height: Int, mipmappedFor screens: [(width: Int, height: Int)] = []) throws {
        pixels = [UInt8](try Data(contentsOf: file))
        guard pixels.count == width * height * 4 else { throw HarnessError("\(file.path): not \(width)x\(height) RGBA") }
        (self.width, self.height) = (width, height)
        levels = [Level(width: width, height: height, pixels: pixels)]
        let deepest = screens.map { ReferencePicture.lod(width: width, height: height, on: $0) }.max() ?? 0
        // Trilinear filtering reads the level below the LOD and the one under it.
        while deepest > 0, Double(levels.count - 2) < deepest.rounded(.down), levels.last!.width > 1 || levels.last!.height > 1 {
            levels.append(ReferencePicture.halved(levels.last!))
        }
    }

    /// GL's level of detail for the picture fitted into a screen: log2 of texels per pixel.
    private static func lod(width: Int, height: Int, on screen: (width: Int, height: Int)) -> Double {
        let scale = min(Double(screen.width) / Double(width), Double(screen.height) / Double(height))
        return log2(1 / scale)
    }

    /// The next mip level by its definition: sides halved as GL sizes levels (the floor,
    /// at least 1), each new pixel the mean of the area it covers in the old level,
    /// weighted by alpha (the plain mean where nothing is visible), rounded to nearest.
    private static func halved(_ level: Level) -> Level {
        let (w, nw, nh) = (level.width, max(1, level.width / 2), max(1, level.height / 2))
        var out = [UInt8](repeating: 0, count: nw * nh * 4)
        level.pixels.withUnsafeBufferPointer { p in
            out.withUnsafeMutableBufferPointer { o in
                if level.width == 2 * nw && level.height == 2 * nh {
                    // 2x2 blocks, in integers (a debug build halves an 8K picture in about a second).
                    for y in 0..<nh {
                        let (top, bottom) = (2 * y * w * 4, (2 * y + 1) * w * 4)
                        for x in 0..<nw {
                            let (i, j) = (top + 8 * x, bottom + 8 * x)
                            let (a0, a1, a2, a3) = (Int(p[i + 3]), Int(p[i + 7]), Int(p[j + 3]), Int(p[j + 7]))
                            let alpha = a0 + a1 + a2 + a3
                            for c in 0..<3 {
                                let (c0, c1, c2, c3) = (Int(p[i + c]), Int(p[i + 4 + c]), Int(p[j + c]), Int(p[j + 4 + c]))
                                let value = alpha == 0
                                    ? (c0 + c1 + c2 + c3 + 2) / 4
                                    : (2 * (c0 * a0 + c1 * a1 + c2 * a2 + c3 * a3) + alpha) / (2 * alpha)
                                o[(y * nw + x) * 4 + c] = UInt8(value)
                            }
                            o[(y * nw + x) * 4 + 3] = UInt8((alpha + 2) / 4)
                        }
                    }
                    return
                }
                func overlap(_ j: Int, _ i: Int, _ ratio: Double) -> Double {
                    max(0, min(Double(i + 1) * ratio, Double(j + 1)) - max(Double(i) * ratio, Double(j))) / ratio
                }
                let (rx, ry) = (Double(level.width) / Double(nw), Double(level.height) / Double(nh))
                for y in 0..<nh {
                    for x in 0..<nw {
                        var weighted = [0.0, 0.0, 0.0], plain = [0.0, 0.0, 0.0], alpha = 0.0
                        for sy in Int(Double(y) * ry)..<min(level.height, Int((Double(y + 1) * ry).rounded(.up))) {
                            for sx in Int(Double(x) * rx)..<min(w, Int((Double(x + 1) * rx).rounded(.up))) {
                                let share = overlap(sx, x, rx) * overlap(sy, y, ry)
                                let i = (sy * w + sx) * 4
                                for c in 0..<3 {
                                    weighted[c] += share * Double(p[i + 3]) * Double(p[i + c])
                                    plain[c] += share * Double(p[i + c])
                                }
                                alpha += share * Double(p[i + 3])
                            }
                        }
                        for c in 0..<3 { o[(y * nw + x) * 4 + c] = UInt8((alpha > 0 ? weighted[c] / alpha : plain[c]) + 0.5) }
                        o[(y * nw + x) * 4 + 3] = UInt8(alpha + 0.5)
                    }
                }
            }
        }
        return Level(width: nw, height: nh, pixels: out)
    }

    /// How far a screen is from this picture as glout shows it: fitted into the screen
    /// (--scale-mode fit), centred, black around it; each screen pixel the colour GL's
    /// filter gives at its centre (clamped at the edges), times its alpha: bilinear, or
    /// trilinear between the two mip levels about the LOD where the picture is mipmapped
    /// and drawn smaller than it is.
    struct Match: CustomStringConvertible {
        var mean: Double
        var worst: Double
        var bars: Double
        /// Within a few levels: a mean under 2.5, no sample more than 8 off, bars black.
        var isClose: Bool { mean <= 2.5 && worst <= 8 && bars <= 3 }
        var description: String { String(format: "mean %.2f, worst %.1f, bars %.1f", mean, worst, bars) }
    }

    func match(_ screen: Image) -> Match {
        let (sw, sh) = (Double(screen.width), Double(screen.height))
        let scale = min(sw / Double(width), sh / Double(height))
        let (w, h) = (Double(width) * scale, Double(height) * scale)
        let (x0, y0) = ((sw - w) / 2, (sh - h) / 2)
        // GL_LINEAR_MIPMAP_LINEAR: levels floor(lod) and the next (the last past the end),
        // mixed by the fraction; at or under lod 0, level 0 alone.
        let lod = levels.count > 1 ? log2(1 / scale) : 0
        let first = min(levels.count - 1, Int(max(0, lod).rounded(.down)))
        let second = min(levels.count - 1, first + 1)
        let mix = lod > 0 && first < levels.count - 1 ? lod - lod.rounded(.down) : 0
        var total = 0.0, count = 0, worst = 0.0, bars = 0.0
        // Every 4th pixel, two pixels in from the picture's edges (where GL's coverage of a
        // partly covered pixel decides).
        for y in stride(from: Int(y0.rounded(.up)) + 2, to: Int((y0 + h).rounded(.down)) - 2, by: 4) {
            for x in stride(from: Int(x0.rounded(.up)) + 2, to: Int((x0 + w).rounded(.down)) - 2, by: 4) {
                let (u, v) = ((Double(x) + 0.5 - x0) / w, (Double(y) + 0.5 - y0) / h)
                var expected = ReferencePicture.sample(levels[first], u, v)
                if mix > 0 {
                    let next = ReferencePicture.sample(levels[second], u, v)
                    expected = (expected.0 + (next.0 - expected.0) * mix, expected.1 + (next.1 - expected.1) * mix,
                                expected.2 + (next.2 - expected.2) * mix)
                }
                let got = screen.pixel(x, y)
                let off = max(abs(Double(got.r) - expected.0), abs(Double(got.g) - expected.1), abs(Double(got.b) - expected.2))
                total += off
                count += 1
                worst = max(worst, off)
            }
        }
        // The bars, where there are any: black.
        var barPoints: [(Int, Int)] = []
        if x0 >= 4 { barPoints.append((Int(x0) / 2, screen.height / 2)) }
        if y0 >= 4 { barPoints.append((screen.width / 2, Int(y0) / 2)) }
        for (x, y) in barPoints {
            let p = screen.pixel(x, y)
            bars = max(bars, Double(max(p.r, p.g, p.b)))
        }
        return Match(mean: count == 0 ? 0 : total / Double(count), worst: worst, bars: bars)
    }

    /// The premultiplied colour GL_LINEAR gives in `level` at (u, v), from 0 to 1 across it.
    private static func sample(_ level: Level, _ u: Double, _ v: Double) -> (Double, Double, Double) {
        let (fx, fy) = (u * Double(level.width) - 0.5, v * Double(level.height) - 0.5)
        let (ix, iy) = (Int(fx.rounded(.down)), Int(fy.rounded(.down)))
        let (ax, ay) = (fx - Double(ix), fy - Double(iy))
        func texel(_ x: Int, _ y: Int, _ c: Int) -> Double {
            Double(level.pixels[(min(max(y, 0), level.height - 1) * level.width + min(max(x, 0), level.width - 1)) * 4 + c])
        }
        func filtered(_ c: Int) -> Double {
            (texel(ix, iy, c) * (1 - ax) + texel(ix + 1, iy, c) * ax) * (1 - ay)
                + (texel(ix, iy + 1, c) * (1 - ax) + texel(ix + 1, iy + 1, c) * ax) * ay
        }
        let alpha = filtered(3) / 255
        return (filtered(0) * alpha, filtered(1) * alpha, filtered(2) * alpha)
    }
}
