import CJPEG
import WaylandOutputs

extension ContentImage {
    /// Decodes a JPEG (baseline or progressive; colour, greyscale, CMYK or YCCK) with
    /// libjpeg-turbo's TurboJPEG API and turns it upright by its EXIF orientation. A file
    /// libjpeg would only warn about (cut short, damaged data) is refused, as is a
    /// progressive file of more than 500 scans (which can take minutes to decode). One
    /// larger than glout holds is decoded at the largest of libjpeg's scales (1/2 to
    /// 1/8) within ``PictureLimits``, which `log` says.
    init(jpeg file: HeldBytes, path: String, log: Log) throws {
        let name = Log.printable(path)
        guard let handle = tjInitDecompress() else {
            throw GloutError("--content \(name): libjpeg-turbo cannot start a decoder")
        }
        defer { tjDestroy(handle) }
        func failure() -> GloutError {
            let reason = tjGetErrorStr2(handle).map { String(cString: $0) } ?? "unknown error"
            return GloutError("--content \(name): not a JPEG glout can read (libjpeg: \(Log.printable(reason)))")
        }
        let metadata = file.withBytes { JPEGMetadata($0) }
        var (width, height, subsampling, colourspace): (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
        let (pixels, decoded): ([UInt8], (width: Int, height: Int)) = try withExtendedLifetime(file) {
            guard tjDecompressHeader3(handle, file.typed, UInt(file.count), &width, &height, &subsampling, &colourspace) == 0 else {
                throw failure()
            }
            guard let scaled = ContentImage.jpegScale(width: Int(width), height: Int(height)) else {
                throw ContentImage.tooLarge(path, width: Int(width), height: Int(height))
            }
            if scaled.width != Int(width) {
                log.info("--content \(name): \(width)x\(height) pixels, decoded at \(scaled.width)x\(scaled.height) "
                         + "(glout shows images of \(PictureLimits.described))")
            }
            let cmyk = colourspace == TJCS_CMYK.rawValue || colourspace == TJCS_YCCK.rawValue
            let format = cmyk ? TJPF_CMYK : TJPF_RGBA
            let flags = TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS
            var decodedOK = false
            var pixels = [UInt8](unsafeUninitializedCapacity: scaled.width * scaled.height * 4) { buffer, count in
                decodedOK = tjDecompress2(handle, file.typed, UInt(file.count), buffer.baseAddress, Int32(scaled.width), 0,
                                          Int32(scaled.height), format.rawValue, flags) == 0
                count = scaled.width * scaled.height * 4
            }
            guard decodedOK else { throw failure() }
            if cmyk { ContentImage.convertCMYK(&pixels, inverted: metadata.adobe) }
            return (pixels, scaled)
        }
        let upright = metadata.orientation.apply(to: pixels, width: decoded.width, height: decoded.height)
        self.init(path: path, width: upright.width, height: upright.height, pixels: upright.pixels)
    }

    /// The size a JPEG of `width` x `height` is decoded at: its own, or the largest of
    /// libjpeg's scales below it within ``PictureLimits``; nil where none is.
    static func jpegScale(width: Int, height: Int) -> (width: Int, height: Int)? {
        for denominator in [1, 2, 4, 8] {
            let (w, h) = ((width + denominator - 1) / denominator, (height + denominator - 1) / denominator)
            if PictureLimits.allows(width: w, height: h) { return (w, h) }
        }
        return nil
    }

    /// C, M, Y, K samples to R, G, B and an opaque alpha, in place: each of R, G, B is
    /// (1 - C)(1 - K) and so on. `inverted`: stored as 1 - C (an Adobe APP14 marker, as
    /// Photoshop writes CMYK).
    static func convertCMYK(_ pixels: inout [UInt8], inverted: Bool) {
        pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                var (c, m, y, k) = (UInt32(p[i]), UInt32(p[i + 1]), UInt32(p[i + 2]), UInt32(p[i + 3]))
                if !inverted { (c, m, y, k) = (255 - c, 255 - m, 255 - y, 255 - k) }
                // Now 1 - C and 1 - K: their product, rounded, over 255.
                p[i] = UInt8((c * k + 127) / 255)
                p[i + 1] = UInt8((m * k + 127) / 255)
                p[i + 2] = UInt8((y * k + 127) / 255)
                p[i + 3] = 255
                i += 4
            }
        }
    }
}
