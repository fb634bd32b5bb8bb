/// The smaller copies of a still that GL samples where the still is drawn smaller than it
/// is (GL_LINEAR_MIPMAP_LINEAR). Without them a photo shown at a third of its size samples
/// a few of every nine pixels, and its fine detail turns into moiré. Made on the CPU when
/// the still is decoded (once for every output, off every frame path), then uploaded in
/// bands like level 0 (``SharedTexture``).
///
/// Each level is the one before halved, as GL sizes levels (the floor, at least 1), down to
/// 1x1. A pixel of the new level is the mean of the area it covers in the old one, a 2x2
/// block where the old side is even and two or three pixels weighted by how much of each it
/// covers where it is odd. The mean is weighted by alpha, so that the colour of transparent
/// pixels does not bleed into the visible ones; the pixels stay not premultiplied.
enum MipChain {
    /// Levels 1, 2, … of a picture of `width` x `height` (RGBA `pixels`, not premultiplied,
    /// rows top first), each in the same form: none for 1x1.
    static func levels(width: Int, height: Int, pixels: [UInt8]) -> [Bitmap] {
        var levels: [Bitmap] = []
        var (w, h, current) = (width, height, pixels)
        while w > 1 || h > 1 {
            let next = halved(width: w, height: h, pixels: current)
            levels.append(next)
            (w, h, current) = (next.width, next.height, next.pixels)
        }
        return levels
    }

    /// How many levels GL holds for a picture of `width` x `height`: 1 + levels(…).count.
    static func count(width: Int, height: Int) -> Int {
        var (w, h, count) = (width, height, 1)
        while w > 1 || h > 1 { (w, h, count) = (max(1, w / 2), max(1, h / 2), count + 1) }
        return count
    }

    /// The next level of a picture of `width` x `height`.
    static func halved(width: Int, height: Int, pixels: [UInt8]) -> Bitmap {
        precondition(pixels.count == width * height * 4, "MipChain: \(pixels.count) bytes for \(width)x\(height)")
        let (nw, nh) = (max(1, width / 2), max(1, height / 2))
        if width == 2 * nw && height == 2 * nh { return quartered(width: width, height: height, pixels: pixels) }
        let columns = taps(from: width, to: nw)
        let rows = taps(from: height, to: nh)
        let out = [UInt8](unsafeUninitializedCapacity: nw * nh * 4) { out, filled in
            pixels.withUnsafeBufferPointer { source in
                for y in 0..<nh {
                    for x in 0..<nw {
                        // Premultiplied colour and alpha, and the plain colour for where alpha is 0.
                        var weighted = SIMD4<Float>(repeating: 0)
                        var plain = SIMD4<Float>(repeating: 0)
                        for row in rows[y] {
                            for column in columns[x] {
                                let i = (row.index * width + column.index) * 4
                                let pixel = SIMD4<Float>(Float(source[i]), Float(source[i + 1]), Float(source[i + 2]),
                                                         Float(source[i + 3]))
                                let weight = row.weight * column.weight
                                let alpha = pixel.w * weight
                                weighted += SIMD4(pixel.x * alpha, pixel.y * alpha, pixel.z * alpha, alpha)
                                plain += pixel * weight
                            }
                        }
                        var result = plain
                        if weighted.w > 0 {
                            result = SIMD4(weighted.x / weighted.w, weighted.y / weighted.w, weighted.z / weighted.w, weighted.w)
                        }
                        // Means of bytes, 0 to 255 give or take float's error: rounded, they fit a byte.
                        let rounded = result + 0.5
                        let o = (y * nw + x) * 4
                        out[o] = UInt8(rounded.x)
                        out[o + 1] = UInt8(rounded.y)
                        out[o + 2] = UInt8(rounded.z)
                        out[o + 3] = UInt8(rounded.w)
                    }
                }
            }
            filled = nw * nh * 4
        }
        return Bitmap(width: nw, height: nh, pixels: out)
    }

    /// The next level where both sides are even (nearly every level of a photo): each new
    /// pixel the mean of a 2x2 block, in integers, rounded to nearest as ``halved`` rounds.
    private static func quartered(width: Int, height: Int, pixels: [UInt8]) -> Bitmap {
        let (nw, nh) = (width / 2, height / 2)
        let out = [UInt8](unsafeUninitializedCapacity: nw * nh * 4) { out, filled in
            pixels.withUnsafeBytes { bytes in
                let source = bytes.baseAddress!
                let target = UnsafeMutableRawPointer(out.baseAddress!)
                for y in 0..<nh {
                    let top = source + 2 * y * width * 4
                    let bottom = top + width * 4
                    for x in 0..<nw {
                        let upper = top.loadUnaligned(fromByteOffset: 8 * x, as: SIMD8<UInt8>.self)
                        let lower = bottom.loadUnaligned(fromByteOffset: 8 * x, as: SIMD8<UInt8>.self)
                        let columns = SIMD8<UInt16>(truncatingIfNeeded: upper) &+ SIMD8<UInt16>(truncatingIfNeeded: lower)
                        let sum = columns.lowHalf &+ columns.highHalf
                        let block: SIMD4<UInt8>
                        if sum.w == 4 * 255 || sum.w == 0 {
                            // Every pixel alike in weight: the plain mean (alpha 0: the colour of nothing, kept as it was).
                            block = SIMD4<UInt8>(truncatingIfNeeded: (sum &+ 2) &>> 2)
                        } else {
                            block = weightedMean(upper.lowHalf, upper.highHalf, lower.lowHalf, lower.highHalf)
                        }
                        target.storeBytes(of: block, toByteOffset: (y * nw + x) * 4, as: SIMD4<UInt8>.self)
                    }
                }
            }
            filled = nw * nh * 4
        }
        return Bitmap(width: nw, height: nh, pixels: out)
    }

    /// The alpha-weighted mean of four pixels whose alphas differ, rounded to nearest.
    private static func weightedMean(_ p0: SIMD4<UInt8>, _ p1: SIMD4<UInt8>, _ p2: SIMD4<UInt8>, _ p3: SIMD4<UInt8>)
        -> SIMD4<UInt8> {
        let (a, b, c, d) = (SIMD4<UInt32>(truncatingIfNeeded: p0), SIMD4<UInt32>(truncatingIfNeeded: p1),
                            SIMD4<UInt32>(truncatingIfNeeded: p2), SIMD4<UInt32>(truncatingIfNeeded: p3))
        let alpha = a.w + b.w + c.w + d.w
        let weighted = a &* a.w &+ b &* b.w &+ c &* c.w &+ d &* d.w
        var result = (2 &* weighted &+ alpha) / (2 &* alpha)
        result.w = (alpha + 2) / 4
        return SIMD4<UInt8>(truncatingIfNeeded: result)
    }

    /// A source pixel along one side, and the share of a new pixel it makes.
    struct Tap: Equatable {
        let index: Int
        let weight: Float
    }

    /// For each of `to` new pixels along a side of `from`, the old pixels under it and how
    /// much of it each covers: new pixel i covers [i·from/to, (i+1)·from/to).
    static func taps(from: Int, to: Int) -> [[Tap]] {
        let ratio = Double(from) / Double(to)
        return (0..<to).map { i in
            let (start, end) = (Double(i) * ratio, Double(i + 1) * ratio)
            return (Int(start.rounded(.down))..<min(from, Int(end.rounded(.up)))).compactMap { j in
                let covered = min(end, Double(j + 1)) - max(start, Double(j))
                return covered > 0 ? Tap(index: j, weight: Float(covered / ratio)) : nil
            }
        }
    }
}
