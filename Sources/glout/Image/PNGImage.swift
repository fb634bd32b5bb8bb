import CPNG
import Foundation
import WaylandOutputs

extension ContentImage {
    /// Decodes a PNG of any colour type and depth (palettes with transparency, 16-bit,
    /// interlaced) to 8-bit sRGB RGBA with libpng's simplified API, which converts by the
    /// file's gAMA, sRGB or iCCP chunk. libpng reads `file` from begin_read to finish_read:
    /// it keeps the pointer between the calls, so `file` is memory held to the end.
    ///
    /// A 16-bit file is read as libpng's 16-bit linear output and encoded to 8 bits here:
    /// libpng's own conversion to 8 bits misplaces the pixels of a 16-bit interlaced file
    /// (libpng 1.6.39 and 1.6.48, every such file ImageMagick writes; its linear output is
    /// right).
    ///
    /// The PNGs most files are (8-bit RGB or RGBA, not interlaced, sRGB) are read by
    /// ``PNGFastReader`` instead, to the same pixels, in about three fifths of the time.
    init(png file: HeldBytes, path: String) throws {
        if let read = file.withBytes({ PNGFastReader.pixels(of: $0) }) {
            self.init(path: path, width: read.width, height: read.height, pixels: read.pixels)
            return
        }
        try self.init(libpng: file, path: path)
    }

    /// The file read by libpng alone.
    init(libpng file: HeldBytes, path: String) throws {
        // libpng keeps the address of the png_image between the calls too (its io_ptr):
        // memory of our own, not a Swift variable's, whose address is only promised for
        // the length of one call.
        let image = UnsafeMutablePointer<png_image>.allocate(capacity: 1)
        image.initialize(to: png_image())
        defer { image.deallocate() }
        image.pointee.version = UInt32(PNG_IMAGE_VERSION)
        func failure() -> GloutError {
            let message = withUnsafeBytes(of: image.pointee.message) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            png_image_free(image)
            return GloutError("--content \(Log.printable(path)): not a PNG glout can read (libpng: \(Log.printable(message)))")
        }
        let pixels: [UInt8] = try withExtendedLifetime(file) {
            guard png_image_begin_read_from_memory(image, file.start, file.count) != 0 else { throw failure() }
            let (width, height) = (Int(image.pointee.width), Int(image.pointee.height))
            guard PictureLimits.allows(width: width, height: height) else {
                png_image_free(image)
                throw ContentImage.tooLarge(path, width: width, height: height)
            }
            let sixteen = image.pointee.format & UInt32(PNG_FORMAT_FLAG_LINEAR) != 0
            image.pointee.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA) | (sixteen ? UInt32(PNG_FORMAT_FLAG_LINEAR) : 0)
            // A 16-bit file without gAMA or sRGB is sRGB, as other readers take it (not linear).
            image.pointee.flags |= UInt32(PNG_IMAGE_FLAG_16BIT_sRGB)
            let count = width * height * 4
            var finished: Int32 = 0
            let pixels: [UInt8]
            if sixteen {
                let linear = [UInt16](unsafeUninitializedCapacity: count) { buffer, filled in
                    finished = png_image_finish_read(image, nil, buffer.baseAddress, 0, nil)
                    filled = count
                }
                guard finished != 0 else { throw failure() }
                pixels = ContentImage.encoded(linear)
            } else {
                pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, filled in
                    finished = png_image_finish_read(image, nil, buffer.baseAddress, 0, nil)
                    filled = count
                }
                guard finished != 0 else { throw failure() }
            }
            png_image_free(image)
            return pixels
        }
        self.init(path: path, width: Int(image.pointee.width), height: Int(image.pointee.height), pixels: pixels)
    }

    /// libpng's 16-bit linear RGBA (colours premultiplied by alpha) as 8-bit RGBA, the
    /// colours not premultiplied and encoded with gamma 1/2.2, as libpng encodes 16-bit
    /// files itself (so 8 bits of the file's own 16 come out as they went in).
    static func encoded(_ linear: [UInt16]) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: linear.count) { out, count in
            linear.withUnsafeBufferPointer { p in
                var i = 0
                while i < p.count {
                    let alpha = UInt32(p[i + 3])
                    for c in 0..<3 {
                        // Not premultiplied: the colour over its alpha, as a 16-bit fraction.
                        let value = alpha == 0 ? 0 : min(65535, (UInt32(p[i + c]) * 65535 + alpha / 2) / alpha)
                        out[i + c] = gammaEncoded[Int(value)]
                    }
                    out[i + 3] = UInt8((alpha * 255 + 32767) / 65535)
                    i += 4
                }
            }
            count = linear.count
        }
    }

    /// 16-bit linear light to 8-bit gamma 1/2.2, every value.
    private static let gammaEncoded: [UInt8] = (0...65535).map { UInt8((pow(Double($0) / 65535, 1 / 2.2) * 255).rounded()) }
}
