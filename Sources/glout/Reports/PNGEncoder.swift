import CPNG

/// Writes 8-bit RGBA pixels as a PNG in memory, for the control API's screenshots, which
/// are made while glout draws: each row filtered by Sub (each byte less the one a pixel to
/// its left), then deflated by zlib at level 1. libpng's own fast setting (no filter,
/// level 3) took 1.3 to 3.4 times as long on 1280x720 frames (a gradient, a photo, noise)
/// and wrote larger files; BENCHMARKS.md, "The control API".
enum PNGEncoder {
    /// The PNG of `pixels` (`width` x `height`, RGBA, rows top first, or bottom first
    /// where `bottomUp`, as glReadPixels gives them).
    static func encode(_ pixels: [UInt8], width: Int, height: Int, bottomUp: Bool) throws -> [UInt8] {
        guard width > 0, height > 0, width <= Int(Int32.max) / 4, height <= Int(Int32.max) else {
            throw GloutError("cannot make a PNG of \(width)x\(height) pixels")
        }
        precondition(pixels.count == width * height * 4, "PNGEncoder: \(pixels.count) bytes for \(width)x\(height)")
        let rowBytes = width * 4
        var stream = z_stream()
        guard deflateInit2_(&stream, 1, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
                            Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw GloutError("cannot make a PNG: zlib would not start")
        }
        defer { deflateEnd(&stream) }
        let filtered = (rowBytes + 1) * height
        // Signature, IHDR, IDAT's length and type, its CRC, IEND: around the deflated rows.
        let framing = 8 + 25 + 8 + 4 + 12
        let room = Int(deflateBound(&stream, UInt(filtered))) + framing
        var failure: String?
        // Not zeroed first: only the bytes written are touched (and counted).
        let png = [UInt8](unsafeUninitializedCapacity: room) { out, count in
            count = 0
            func put(_ bytes: [UInt8]) {
                for byte in bytes { out[count] = byte; count += 1 }
            }
            func put32(_ value: UInt32) { put([UInt8(value >> 24), UInt8(value >> 16 & 255), UInt8(value >> 8 & 255), UInt8(value & 255)]) }
            /// A chunk's CRC, over its type and data, which end at `count`.
            func putCRC(from start: Int) {
                let crc = crc32(0, out.baseAddress! + start, UInt32(count - start))
                put32(UInt32(crc))
            }
            put([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            put32(13)
            let header = count
            put(Array("IHDR".utf8))
            put32(UInt32(width)); put32(UInt32(height))
            put([8, 6, 0, 0, 0])  // 8 bits, RGBA, deflate, adaptive filters, not interlaced
            putCRC(from: header)
            let lengthAt = count
            put32(0)  // IDAT's length, once known
            let data = count
            put(Array("IDAT".utf8))
            var row = [UInt8](repeating: 1, count: rowBytes + 1)  // filter type 1, Sub
            pixels.withUnsafeBufferPointer { source in
                row.withUnsafeMutableBufferPointer { row in
                    stream.next_out = out.baseAddress! + count
                    stream.avail_out = UInt32(room - count)
                    for y in 0..<height {
                        let line = source.baseAddress! + (bottomUp ? height - 1 - y : y) * rowBytes
                        sub(line, into: row.baseAddress! + 1, count: rowBytes)
                        stream.next_in = row.baseAddress!
                        stream.avail_in = UInt32(rowBytes + 1)
                        let last = y == height - 1
                        let result = deflate(&stream, last ? Z_FINISH : Z_NO_FLUSH)
                        guard result == (last ? Z_STREAM_END : Z_OK), stream.avail_in == 0 else {
                            failure = "zlib stopped (\(result))"
                            return
                        }
                    }
                    stream.next_in = nil
                    stream.next_out = nil
                }
            }
            guard failure == nil else { return }
            count = room - Int(stream.avail_out)
            let length = UInt32(count - data - 4)
            for (i, byte) in [UInt8(length >> 24), UInt8(length >> 16 & 255), UInt8(length >> 8 & 255), UInt8(length & 255)].enumerated() {
                out[lengthAt + i] = byte
            }
            putCRC(from: data)
            put32(0)
            let end = count
            put(Array("IEND".utf8))
            putCRC(from: end)
        }
        if let failure { throw GloutError("cannot make a PNG: \(failure)") }
        return png
    }

    /// The Sub filter of one row of RGBA pixels: each byte less the same byte of the pixel
    /// to its left (the first pixel as it is), sixteen bytes at a time.
    private static func sub(_ line: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<UInt8>, count: Int) {
        let (source, target) = (UnsafeRawPointer(line), UnsafeMutableRawPointer(out))
        for i in 0..<min(4, count) { out[i] = line[i] }
        var i = 4
        while i + 16 <= count {
            let here = source.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
            let left = source.loadUnaligned(fromByteOffset: i - 4, as: SIMD16<UInt8>.self)
            target.storeBytes(of: here &- left, toByteOffset: i, as: SIMD16<UInt8>.self)
            i += 16
        }
        while i < count {
            out[i] = line[i] &- line[i - 4]
            i += 1
        }
    }
}
