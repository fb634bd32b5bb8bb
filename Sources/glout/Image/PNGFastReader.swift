import CPNG

/// The PNGs most files are, read in about three fifths of the time libpng takes (its
/// zlib inflates at half libdeflate's speed; BENCHMARKS.md, "The control API"): 8-bit RGB
/// or RGBA, not interlaced, in sRGB (no gAMA far from sRGB's, no iCCP, no tRNS).
/// libdeflate inflates the image data in one call and the rows are unfiltered here, Paeth
/// a pixel at a time. Anything else, and anything wrong in the file (a chunk's type or
/// CRC, a length, the data's size, a filter), gives nil: libpng then reads the file, and
/// names what is wrong.
enum PNGFastReader {
    /// The file's pixels as 8-bit RGBA, rows top first; nil when libpng should read it.
    static func pixels(of file: UnsafeRawBufferPointer) -> (width: Int, height: Int, pixels: [UInt8])? {
        guard let layout = Layout(file) else { return nil }
        let stride = layout.width * layout.channels + 1
        let rawCount = stride * layout.height
        // Four bytes to spare after the rows, for loads of a pixel and a few bytes more.
        let raw = UnsafeMutableRawBufferPointer.allocate(byteCount: rawCount + 4, alignment: 64)
        defer { raw.deallocate() }
        UnsafeMutableRawBufferPointer(rebasing: raw[rawCount...]).initializeMemory(as: UInt8.self, repeating: 0)
        guard inflate(layout.data, from: file, into: UnsafeMutableRawBufferPointer(rebasing: raw[..<rawCount])) else { return nil }
        let (width, height, channels) = (layout.width, layout.height, layout.channels)
        let rows = raw.bindMemory(to: UInt8.self)
        for y in 0..<height {
            let row = rows.baseAddress! + y * stride
            let previous: UnsafePointer<UInt8>? = y == 0 ? nil : UnsafePointer(row - stride + 1)
            guard let filter = Filter(rawValue: row[0]) else { return nil }
            if channels == 4 {
                unfilter(row + 1, count: width * 4, previous: previous, filter: filter, bytesPerPixel: 4)
            } else {
                unfilter(row + 1, count: width * 3, previous: previous, filter: filter, bytesPerPixel: 3)
            }
        }
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { out, filled in
            let base = out.baseAddress!
            for y in 0..<height {
                let source = rows.baseAddress! + y * stride + 1
                let target = base + y * width * 4
                if channels == 4 {
                    target.update(from: source, count: width * 4)
                } else {
                    // A pixel and the next one's first byte at a time (the rows have bytes to spare).
                    for x in 0..<width {
                        var pixel = UnsafeRawPointer(source + x * 3).loadUnaligned(as: SIMD4<UInt8>.self)
                        pixel[3] = 255
                        UnsafeMutableRawPointer(target + x * 4).storeBytes(of: pixel, as: SIMD4<UInt8>.self)
                    }
                }
            }
            filled = width * height * 4
        }
        return (width, height, pixels)
    }

    /// PNG's five row filters.
    private enum Filter: UInt8 {
        case none = 0, sub, up, average, paeth
    }

    /// What the chunks say: the picture's size, its channels (3 or 4), and where its
    /// image data lies (one or more IDAT chunks in a row).
    private struct Layout {
        let width: Int
        let height: Int
        let channels: Int
        let data: [Range<Int>]

        init?(_ file: UnsafeRawBufferPointer) {
            let signature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
            guard file.count >= 8 + 25, file.prefix(8).elementsEqual(signature) else { return nil }
            var size: (width: Int, height: Int, channels: Int)?
            var data: [Range<Int>] = []
            var dataClosed = false
            var offset = 8
            while true {
                guard file.count - offset >= 12 else { return nil }
                let length = Int(Self.word(file, at: offset))
                guard length <= Int(Int32.max), file.count - offset - 12 >= length else { return nil }
                let type = Self.word(file, at: offset + 4)
                let body = offset + 8..<offset + 8 + length
                // A type is four ASCII letters, the third a capital (its reserved bit):
                // libpng refuses any other (1.6.48 the lower-case third; 1.6.39 let it by).
                guard (0..<4).allSatisfy({ Self.isLetter(file[offset + 4 + $0]) }), file[offset + 6] & 0x20 == 0 else {
                    return nil
                }
                let critical = (type >> 24) & 0x20 == 0
                // libpng stops at a critical chunk's wrong CRC; an ancillary one it drops.
                if critical && Self.crc(file, offset + 4..<body.upperBound) != Self.word(file, at: body.upperBound) { return nil }
                if size == nil && type != Self.header { return nil }
                if !data.isEmpty && type != Self.imageData { dataClosed = true }
                switch type {
                case Self.header:
                    guard size == nil, length == 13 else { return nil }
                    let width = Int(Self.word(file, at: body.lowerBound)), height = Int(Self.word(file, at: body.lowerBound + 4))
                    let (depth, colour) = (file[body.lowerBound + 8], file[body.lowerBound + 9])
                    // Compression, filter method and interlacing: 0, 0, 0.
                    guard depth == 8, colour == 2 || colour == 6,
                          file[body.lowerBound + 10] == 0, file[body.lowerBound + 11] == 0, file[body.lowerBound + 12] == 0,
                          PictureLimits.allows(width: width, height: height) else { return nil }
                    size = (width, height, colour == 6 ? 4 : 3)
                case Self.imageData:
                    guard !dataClosed else { return nil }
                    data.append(body)
                case Self.end:
                    guard let size, !data.isEmpty else { return nil }
                    (width, height, channels, self.data) = (size.width, size.height, size.channels, data)
                    return
                case Self.gamma:
                    // libpng takes a gamma within about 5% of sRGB's 1/2.2 as sRGB.
                    guard length == 4, (43_500...47_500).contains(Self.word(file, at: body.lowerBound)) else { return nil }
                case Self.profile, Self.transparency:
                    return nil
                case Self.palette:
                    // Only a suggestion for RGB, but libpng refuses one after the image data.
                    guard data.isEmpty else { return nil }
                default:
                    // Any other critical chunk, libpng refuses.
                    if critical { return nil }
                }
                offset = body.upperBound + 4
            }
        }

        static let header: UInt32 = 0x4948_4452, imageData: UInt32 = 0x4944_4154, end: UInt32 = 0x4945_4E44
        static let gamma: UInt32 = 0x6741_4D41, profile: UInt32 = 0x6943_4350, transparency: UInt32 = 0x7452_4E53
        static let palette: UInt32 = 0x504C_5445

        static func word(_ file: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
            UInt32(file[offset]) << 24 | UInt32(file[offset + 1]) << 16 | UInt32(file[offset + 2]) << 8 | UInt32(file[offset + 3])
        }

        static func isLetter(_ byte: UInt8) -> Bool {
            (65...90).contains(byte) || (97...122).contains(byte)
        }

        static func crc(_ file: UnsafeRawBufferPointer, _ range: Range<Int>) -> UInt32 {
            UInt32(libdeflate_crc32(0, file.baseAddress! + range.lowerBound, range.count))
        }
    }

    /// The zlib stream the IDAT chunks hold, inflated into exactly `raw`; false when it
    /// does not fill `raw` exactly or is not a whole, sound stream.
    private static func inflate(_ data: [Range<Int>], from file: UnsafeRawBufferPointer, into raw: UnsafeMutableRawBufferPointer) -> Bool {
        guard let decompressor = libdeflate_alloc_decompressor() else { return false }
        defer { libdeflate_free_decompressor(decompressor) }
        func run(_ stream: UnsafeRawBufferPointer) -> Bool {
            libdeflate_zlib_decompress(decompressor, stream.baseAddress, stream.count, raw.baseAddress, raw.count, nil)
                == LIBDEFLATE_SUCCESS
        }
        if data.count == 1 { return run(UnsafeRawBufferPointer(rebasing: file[data[0]])) }
        let joined = UnsafeMutableRawBufferPointer.allocate(byteCount: data.reduce(0) { $0 + $1.count }, alignment: 16)
        defer { joined.deallocate() }
        var at = 0
        for range in data {
            let piece = UnsafeRawBufferPointer(rebasing: file[range])
            UnsafeMutableRawBufferPointer(rebasing: joined[at..<at + range.count]).copyMemory(from: piece)
            at += range.count
        }
        return run(UnsafeRawBufferPointer(joined))
    }

    /// One row unfiltered in place, against the row above it (already unfiltered; nil
    /// for the first row, whose row above is zeros).
    @inline(__always)
    private static func unfilter(_ row: UnsafeMutablePointer<UInt8>, count: Int, previous: UnsafePointer<UInt8>?,
                                 filter: Filter, bytesPerPixel n: Int) {
        switch (filter, previous) {
        case (.none, _), (.up, nil):
            return
        case (.sub, _):
            for i in n..<max(n, count) { row[i] &+= row[i - n] }
        case (.up, let above?):
            for i in 0..<count { row[i] &+= above[i] }
        case (.average, nil):
            for i in n..<max(n, count) { row[i] &+= row[i - n] >> 1 }
        case (.average, let above?):
            for i in 0..<min(n, count) { row[i] &+= above[i] >> 1 }
            for i in n..<max(n, count) { row[i] &+= UInt8((UInt16(row[i - n]) + UInt16(above[i])) >> 1) }
        case (.paeth, nil):
            // With zeros above, Paeth picks the left neighbour: Sub.
            for i in n..<max(n, count) { row[i] &+= row[i - n] }
        case (.paeth, let above?):
            paeth(row, count: count, above: above, bytesPerPixel: n)
        }
    }

    /// Paeth a pixel at a time, its channels side by side: each channel predicted from the
    /// left (a), above (b) and above-left (c) bytes by whichever is nearest a + b - c. A
    /// 3-byte pixel is loaded with the next pixel's first byte, which is stored back as it
    /// was (so `row` needs one byte to spare after `count`).
    @inline(__always)
    private static func paeth(_ row: UnsafeMutablePointer<UInt8>, count: Int, above: UnsafePointer<UInt8>, bytesPerPixel n: Int) {
        // Kept as 16-bit lanes from one pixel to the next: the left pixel is the chain
        // every pixel waits on, so it does no more than it must.
        var a = SIMD4<Int16>(repeating: 0), c = SIMD4<Int16>(repeating: 0)
        var next = UnsafeRawPointer(row).loadUnaligned(as: SIMD4<UInt8>.self)
        var i = 0
        while i < count {
            let raw = next
            let b = SIMD4<Int16>(truncatingIfNeeded: UnsafeRawPointer(above + i).loadUnaligned(as: SIMD4<UInt8>.self))
            let up = b &- c, pa = magnitude(up)
            let left = a &- c, pb = magnitude(left), pc = magnitude(left &+ up)
            var predicted = c
            predicted.replace(with: b, where: pb .<= pc)
            predicted.replace(with: a, where: (pa .<= pb) .& (pa .<= pc))
            let pixel = (SIMD4<Int16>(truncatingIfNeeded: raw) &+ predicted) & 0xFF
            var stored = SIMD4<UInt8>(truncatingIfNeeded: pixel)
            if n == 3 { stored[3] = raw[3] }
            // The next pixel loaded before this one is stored: a load that overlaps the
            // store just made would wait for it.
            next = UnsafeRawPointer(row + i + n).loadUnaligned(as: SIMD4<UInt8>.self)
            UnsafeMutableRawPointer(row + i).storeBytes(of: stored, as: SIMD4<UInt8>.self)
            (a, c) = (pixel, b)
            i += n
        }
    }

    @inline(__always)
    private static func magnitude(_ v: SIMD4<Int16>) -> SIMD4<Int16> {
        let sign = v &>> 15
        return (v ^ sign) &- sign
    }
}
