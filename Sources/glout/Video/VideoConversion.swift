/// --video-conversion: where a video frame's Y'CbCr becomes the RGB an output shows.
///
/// On a GPU the shader is the natural place: each output uploads the planes and
/// video.frag converts them as it draws. Where GL shades on the CPU (llvmpipe), that
/// shader costs each output about a texture read and a dozen operations a pixel on every
/// new frame, while libswscale's SIMD code converts a frame in a fraction of that: so
/// there, the decoding thread converts each frame once for every output, ahead of need,
/// and each output only copies it (BENCHMARKS.md, "Video").
enum VideoConversion: String, Sendable, CaseIterable {
    /// libswscale where GL rasterizes on the CPU, the shader elsewhere (the default).
    case auto
    /// video.frag, per output, from the Y and U/V planes.
    case shader
    /// libswscale, once per frame on the decoding thread, into BGRA.
    case swscale

    /// What `auto` means on a driver that does or does not shade on the CPU.
    func resolved(rasterizesOnCPU: Bool) -> VideoConversion {
        self == .auto ? (rasterizesOnCPU ? .swscale : .shader) : self
    }
}
