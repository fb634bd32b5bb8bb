import WaylandOutputs

/// A decoded still: 8-bit RGBA, not premultiplied, top row first, upright (a JPEG's EXIF
/// orientation applied). Decoded once for every output that shows it; each output's
/// image.frag draws it over black.
struct ContentImage: Sendable {
    let path: String
    let width: Int
    let height: Int
    /// The pixels, until they are uploaded to `texture` (then empty).
    let pixels: [UInt8]
    /// The smaller copies GL samples where the image is drawn smaller than it is, made
    /// once for every output (``withMipLevels()``); until they are uploaded (then empty).
    let mips: [Bitmap]
    /// The texture made of them off the frame path, which every output binds.
    let texture: SharedTexture?

    init(path: String, width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 4, "ContentImage: \(pixels.count) bytes for \(width)x\(height)")
        (self.path, self.width, self.height, self.pixels, mips, texture) = (path, width, height, pixels, [], nil)
    }

    private init(path: String, width: Int, height: Int, pixels: [UInt8], mips: [Bitmap]) {
        (self.path, self.width, self.height, self.pixels, self.mips, texture) = (path, width, height, pixels, mips, nil)
    }

    /// The image with its mip levels, for showing (``ContentFile/load(_:log:decoding:loaded:list:)``
    /// makes them for every still it reads); a decode that is not shown does without.
    func withMipLevels() -> ContentImage {
        guard texture == nil, mips.isEmpty else { return self }
        return ContentImage(path: path, width: width, height: height, pixels: pixels,
                            mips: MipChain.levels(width: width, height: height, pixels: pixels))
    }

    /// The picture, then its mip levels: a texture's levels, in order.
    var levels: [Bitmap] { [Bitmap(width: width, height: height, pixels: pixels)] + mips }

    /// The image uploaded to a shared texture, its pixels let go.
    func uploaded(graphics: Graphics, graveyard: TextureGraveyard) throws -> ContentImage {
        ContentImage(path: path, width: width, height: height,
                     texture: try SharedTexture(levels: levels, graphics: graphics, graveyard: graveyard))
    }

    private init(path: String, width: Int, height: Int, texture: SharedTexture) {
        (self.path, self.width, self.height, pixels, mips, self.texture) = (path, width, height, [], [], texture)
    }

    /// The error for a picture larger than glout holds (``PictureLimits``).
    static func tooLarge(_ path: String, width: Int, height: Int) -> GloutError {
        GloutError("--content \(Log.printable(path)): \(width)x\(height) pixels; glout shows images of \(PictureLimits.described)")
    }

    /// Where the image goes in a picture of `size` pixels, as `mode` fits it: x, y,
    /// width, height in picture pixels from the top left (parts may lie outside: fill
    /// crops them).
    static func placement(width: Int, height: Int, in size: Size, mode: ScaleMode)
        -> (x: Double, y: Double, width: Double, height: Double) {
        let (pw, ph) = (Double(size.width), Double(size.height))
        let (iw, ih) = (Double(max(1, width)), Double(max(1, height)))
        switch mode {
        case .stretch:
            return (0, 0, pw, ph)
        case .fit, .fill:
            let scale = mode == .fit ? min(pw / iw, ph / ih) : max(pw / iw, ph / ih)
            let (w, h) = (iw * scale, ih * scale)
            return ((pw - w) / 2, (ph - h) / 2, w, h)
        }
    }
}
