/// How a picture's stored pixels are turned to stand upright: EXIF's Orientation tag
/// (0x0112), 1 to 8, which phones and cameras write instead of turning the pixels.
/// Pure: unit-tested on small pictures against what Pillow's exif_transpose does.
enum ImageOrientation: Int, Sendable, CaseIterable {
    case upright = 1
    case mirrored = 2
    case upsideDown = 3
    case flipped = 4
    /// Mirrored along the main diagonal.
    case transposed = 5
    /// Stored turned a quarter counter-clockwise: shown turned a quarter clockwise.
    case turnedClockwise = 6
    /// Mirrored along the other diagonal.
    case transversed = 7
    /// Stored turned a quarter clockwise: shown turned a quarter counter-clockwise.
    case turnedCounterClockwise = 8

    /// Whether width and height trade places.
    var swapsSides: Bool { rawValue >= 5 }

    /// Where the shown pixel (x, y) of a picture stored `width` x `height` is stored.
    func source(x: Int, y: Int, width: Int, height: Int) -> (x: Int, y: Int) {
        switch self {
        case .upright: (x, y)
        case .mirrored: (width - 1 - x, y)
        case .upsideDown: (width - 1 - x, height - 1 - y)
        case .flipped: (x, height - 1 - y)
        case .transposed: (y, x)
        case .turnedClockwise: (y, height - 1 - x)
        case .transversed: (width - 1 - y, height - 1 - x)
        case .turnedCounterClockwise: (width - 1 - y, x)
        }
    }

    /// `pixels` (4 bytes each, rows top first, `width` x `height` as stored) turned
    /// upright, with the shown width and height.
    func apply(to pixels: [UInt8], width: Int, height: Int) -> (pixels: [UInt8], width: Int, height: Int) {
        guard self != .upright else { return (pixels, width, height) }
        let (shownWidth, shownHeight) = swapsSides ? (height, width) : (width, height)
        let turned = [UInt8](unsafeUninitializedCapacity: pixels.count) { out, count in
            let shown = UnsafeMutableRawBufferPointer(out)
            pixels.withUnsafeBytes { stored in
                for y in 0..<shownHeight {
                    for x in 0..<shownWidth {
                        let from = source(x: x, y: y, width: width, height: height)
                        let pixel = stored.load(fromByteOffset: 4 * (from.y * width + from.x), as: UInt32.self)
                        shown.storeBytes(of: pixel, toByteOffset: 4 * (y * shownWidth + x), as: UInt32.self)
                    }
                }
            }
            count = pixels.count
        }
        return (turned, shownWidth, shownHeight)
    }
}
