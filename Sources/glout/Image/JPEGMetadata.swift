/// What a JPEG's marker segments say beyond its pixels, read before decoding: the EXIF
/// Orientation (APP1 "Exif"), and whether Adobe's APP14 marker is there, which says that
/// CMYK samples are stored inverted (as Photoshop writes them). Every offset is checked
/// against the bytes: a crafted file gives the defaults, never a trap. Pure.
struct JPEGMetadata: Equatable, Sendable {
    var orientation = ImageOrientation.upright
    var adobe = false

    /// JPEG's start-of-image marker, which every JPEG file starts with (and then another FF).
    static func isJPEG(_ start: some Collection<UInt8>) -> Bool { start.starts(with: [0xFF, 0xD8, 0xFF]) }

    init(orientation: ImageOrientation = .upright, adobe: Bool = false) {
        (self.orientation, self.adobe) = (orientation, adobe)
    }

    /// Reads the segments from the start of `bytes` up to the first scan.
    init(_ bytes: UnsafeRawBufferPointer) {
        var at = 2
        while at + 4 <= bytes.count {
            guard bytes[at] == 0xFF else { return }
            let marker = bytes[at + 1]
            if marker == 0xFF { at += 1; continue }  // fill bytes before a marker
            // Markers without a length: TEM and the restart markers; the scan or the end
            // of the image ends the header.
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { at += 2; continue }
            if marker == 0xDA || marker == 0xD9 { return }
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            guard length >= 2, at + 2 + length <= bytes.count else { return }
            let segment = UnsafeRawBufferPointer(rebasing: bytes[(at + 4)..<(at + 2 + length)])
            if marker == 0xE1, segment.starts(with: Array("Exif\0\0".utf8)) {
                orientation = JPEGMetadata.orientation(exif: UnsafeRawBufferPointer(rebasing: segment[6...])) ?? orientation
            } else if marker == 0xEE, segment.starts(with: Array("Adobe".utf8)) {
                adobe = true
            }
            at += 2 + length
        }
    }

    /// The Orientation tag of IFD0 in a TIFF structure (EXIF's payload), nil where there
    /// is none or it is out of 1...8.
    static func orientation(exif tiff: UnsafeRawBufferPointer) -> ImageOrientation? {
        guard tiff.count >= 8 else { return nil }
        let little: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): little = true   // "II"
        case (0x4D, 0x4D): little = false  // "MM"
        default: return nil
        }
        func number(_ at: Int, _ size: Int) -> Int? {
            guard at >= 0, size <= tiff.count, at <= tiff.count - size else { return nil }
            var value = 0
            for i in 0..<size { value |= Int(tiff[at + (little ? i : size - 1 - i)]) << (8 * i) }
            return value
        }
        guard number(2, 2) == 42, let ifd = number(4, 4), let entries = number(ifd, 2) else { return nil }
        for entry in 0..<entries {
            let at = ifd + 2 + 12 * entry
            guard let tag = number(at, 2) else { return nil }
            // SHORT (3), one value, in the entry's first two value bytes.
            guard tag == 0x0112 else { continue }
            guard number(at + 2, 2) == 3, let value = number(at + 8, 2) else { return nil }
            return ImageOrientation(rawValue: value)
        }
        return nil
    }
}
