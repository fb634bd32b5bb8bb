import CFFmpeg
import WaylandOutputs

extension ContentImage {
    /// The only frame of a file FFmpeg reads that holds one (BMP, TIFF, a GIF or a video
    /// of one frame), as a still: decoded once, converted to RGBA with its own colours.
    init(onlyFrameOf decoder: VideoDecoder, path: String) throws {
        let converter = FrameConverter()
        var found: (pixels: [UInt8], width: Int, height: Int)?
        var unconverted: String?
        var reason: String?
        decoding: while found == nil {
            let step = decoder.step { frame, _ in
                guard found == nil else { return }
                let (width, height) = (Int(frame.pointee.width), Int(frame.pointee.height))
                if let pixels = converter.rgba(of: frame) {
                    found = (pixels, width, height)
                } else {
                    unconverted = "its frame (\(width)x\(height)) could not be made into a picture (out of memory, or a size "
                        + "glout does not show: \(PictureLimits.described))"
                }
            }
            switch step {
            case .more: continue
            case .end: break decoding
            case .corrupt(let why):
                reason = why
                break decoding
            }
        }
        guard let found else {
            throw GloutError("--content \(Log.printable(path)): \(unconverted ?? reason ?? "FFmpeg gave no frame of it")")
        }
        self.init(path: path, width: found.width, height: found.height, pixels: found.pixels)
    }
}
