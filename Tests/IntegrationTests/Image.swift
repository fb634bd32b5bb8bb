import Foundation

/// An 8-bit RGB picture, as grim writes it in PPM (P6) form.
struct Image: Equatable {
    var width: Int
    var height: Int
    var pixels: [UInt8]

    init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    init(ppm data: Data) throws {
        let bytes = [UInt8](data)
        var index = 0
        func token() -> String {
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "#") {
                    while index < bytes.count && bytes[index] != 0x0A { index += 1 }
                } else if bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
                    index += 1
                } else { break }
            }
            let start = index
            while index < bytes.count && !(bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09) {
                index += 1
            }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }
        guard token() == "P6", let w = Int(token()), let h = Int(token()), token() == "255" else {
            throw HarnessError("not an 8-bit binary PPM")
        }
        index += 1
        guard bytes.count - index >= w * h * 3 else { throw HarnessError("PPM is truncated") }
        self.init(width: w, height: h, pixels: Array(bytes[index..<(index + w * h * 3)]))
    }

    func pixel(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
        let i = (y * width + x) * 3
        return (Int(pixels[i]), Int(pixels[i + 1]), Int(pixels[i + 2]))
    }

    /// The part of the picture inside the rectangle, cut to the picture's own bounds: a
    /// rectangle partly or wholly outside a smaller picture than expected (a draft frame,
    /// a buffer of another size) gives a smaller or empty image, which compares unequal,
    /// never a trap that would end the whole test process.
    func cropped(x: Int, y: Int, width w: Int, height h: Int) -> Image {
        let left = min(max(x, 0), width), right = min(max(x + w, left), width)
        let top = min(max(y, 0), height), bottom = min(max(y + h, top), height)
        var out = [UInt8]()
        out.reserveCapacity((right - left) * (bottom - top) * 3)
        for row in top..<bottom {
            let start = (row * width + left) * 3
            out.append(contentsOf: pixels[start..<(start + (right - left) * 3)])
        }
        return Image(width: right - left, height: bottom - top, pixels: out)
    }

    /// Box-filtered down to `w` x `h` (each target pixel averages its source area).
    func scaled(width w: Int, height h: Int) -> Image {
        var out = [UInt8](repeating: 0, count: w * h * 3)
        for ty in 0..<h {
            let y0 = ty * height / h, y1 = max(y0 + 1, (ty + 1) * height / h)
            for tx in 0..<w {
                let x0 = tx * width / w, x1 = max(x0 + 1, (tx + 1) * width / w)
                var sum = (0, 0, 0)
                for y in y0..<y1 {
                    for x in x0..<x1 {
                        let p = pixel(x, y)
                        sum.0 += p.r; sum.1 += p.g; sum.2 += p.b
                    }
                }
                let n = (y1 - y0) * (x1 - x0)
                let i = (ty * w + tx) * 3
                out[i] = UInt8(sum.0 / n); out[i + 1] = UInt8(sum.1 / n); out[i + 2] = UInt8(sum.2 / n)
            }
        }
        return Image(width: w, height: h, pixels: out)
    }

    /// Mean absolute difference per channel (0-255) against a picture of the same size.
    func meanDifference(to other: Image) -> Double {
        precondition(width == other.width && height == other.height)
        var total = 0
        for i in 0..<pixels.count { total += abs(Int(pixels[i]) - Int(other.pixels[i])) }
        return Double(total) / Double(pixels.count)
    }

    /// Mean of all channels (0-255).
    var meanBrightness: Double {
        Double(pixels.reduce(0) { $0 + Int($1) }) / Double(max(1, pixels.count))
    }

    /// Whether every pixel has the same colour (nothing drawn yet, or a blank screen).
    var isUniform: Bool {
        guard pixels.count >= 3 else { return true }
        for i in stride(from: 3, to: pixels.count, by: 3)
        where pixels[i] != pixels[0] || pixels[i + 1] != pixels[1] || pixels[i + 2] != pixels[2] {
            return false
        }
        return true
    }

    /// Whether every pixel in the rectangle is pure black.
    func isBlack(x: Int, y: Int, width w: Int, height h: Int) -> Bool {
        for row in y..<(y + h) {
            for column in x..<(x + w) where pixel(column, row) != (0, 0, 0) { return false }
        }
        return true
    }
}

/// Whether a screenshot shows glout's control view: dark, where the content view is
/// bright.
func isControlView(_ picture: Image) -> Bool { picture.meanBrightness < 70 }

/// A PNG that glout wrote, as RGB (through ImageMagick's convert).
func loadPNG(_ path: String) throws -> Image {
    let ppm = path + ".ppm"
    let convert = try Child("/usr/bin/convert", [path, "-alpha", "off", ppm]).wait()
    guard convert.status == 0 else { throw HarnessError("convert \(path): \(convert.stderr)") }
    return try Image(ppm: Data(contentsOf: URL(fileURLWithPath: ppm)))
}
