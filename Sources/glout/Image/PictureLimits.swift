/// The largest picture glout holds, a still or a video's frame: llvmpipe's texture limit a
/// side, and 64 Mpx in all, since a picture is held in several places at once (decoded,
/// a texture per output, a video's queue and spares) at 4 bytes a pixel, a still's mip
/// levels a third more.
enum PictureLimits {
    static let side = 16384
    static let pixels = 8192 * 8192

    static func allows(width: Int, height: Int) -> Bool {
        (1...side).contains(width) && (1...side).contains(height) && width * height <= pixels
    }

    /// The limits, as an error message ends with them.
    static let described = "1 to \(side) pixels a side and \(pixels) pixels at most (8192x8192, 16384x4096)"
}
