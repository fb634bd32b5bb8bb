/// One decoded video frame, as the output draws it (``VideoConversion``): for the shader,
/// an 8-bit Y plane followed by the U and V samples interleaved in one plane at half the
/// width and height (4:2:0, as NV12), tightly packed, top row first (one two-channel
/// texture for U and V is one texture read a pixel fewer than two; BENCHMARKS.md,
/// "Video"); or BGRA that libswscale converted, bottom row first as GL stores a texture
/// (in the order of the window's buffers, so that copies into them are plain copies).
struct VideoFrame: Sendable {
    enum Form: Sendable {
        /// Y, then U, V, U, V...: `chromaWidth` pairs a row.
        case planes
        /// B, G, R, A, a row of `width` pixels after another, the bottom one first.
        case bgra
    }

    /// Its number on the video's unwrapped timeline (``VideoTimeline``).
    let number: Int
    let width: Int
    let height: Int
    let form: Form
    let memory: VideoFrameMemory
    /// BT.709 (else BT.601), and full range (else the video range, 16-235).
    let bt709: Bool
    let fullRange: Bool

    var chromaWidth: Int { (width + 1) / 2 }
    var chromaHeight: Int { (height + 1) / 2 }
    /// Where the Y plane and the U/V plane start (``Form/planes``).
    var luma: UnsafeRawPointer { UnsafeRawPointer(memory.bytes) }
    var chroma: UnsafeRawPointer { UnsafeRawPointer(memory.bytes + width * height) }
    /// The BGRA rows (``Form/bgra``).
    var bgra: UnsafeRawPointer { UnsafeRawPointer(memory.bytes) }

    /// The bytes a frame of `width` x `height` takes in the form `conversion` makes.
    static func bytes(width: Int, height: Int, conversion: VideoConversion) -> Int {
        conversion == .swscale ? width * height * 4 : width * height + 2 * ((width + 1) / 2) * ((height + 1) / 2)
    }
}
