import CGLES
import CPNG
import WaylandOutputs

/// A picture of the user's own that replaces the content view (--content [NAME=]FILE):
/// a PNG image, which stands still, a GLSL ES 3.00 fragment shader that reads the same
/// `Frame` inputs as glout's own views (shaders/frame.glsl), or a video FFmpeg decodes.
/// What a file is comes from its contents, never its name.
enum ContentPicture: Sendable {
    case image(ContentImage)
    /// The file's text, compiled with glout's shader library (so `#include "frame.glsl"`
    /// and `"canvas.glsl"` work).
    case shader(path: String, source: String)
    /// A video, decoded once for every window that shows it.
    case video(VideoSource)

    /// The most a PNG file may hold: one of 16384x16384 compresses to far less.
    static let fileLimit = 512 << 20

    /// What the start of a file tells: PNG's signature, text (a shader: no NUL byte and
    /// valid UTF-8 in its first 4 KiB, a character cut at the end aside), else a video.
    enum Kind: Equatable { case png, text, other }

    /// `cut`: the file goes on past `start`, so a character may be cut in two at its end
    /// (up to three bytes of it, each 0x80 or above).
    static func kind(of start: [UInt8], cut: Bool) -> Kind {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        if start.starts(with: signature) { return .png }
        if start.contains(0) { return .other }
        var text = start[...]
        for _ in 0..<4 {
            if String(validating: text, as: UTF8.self) != nil { return .text }
            guard cut, let last = text.last, last >= 0x80 else { break }
            text = text.dropLast()
        }
        return .other
    }

    /// Reads `path`: a PNG when it has PNG's signature, a fragment shader when it is text,
    /// else a video FFmpeg can open. Errors name the file and the reason.
    static func load(_ path: String, log: Log) throws -> ContentPicture {
        let start = try FileSystem.readStart(path, for: "--content", count: 4097)
        switch kind(of: Array(start.prefix(4096)), cut: start.count > 4096) {
        case .png:
            let bytes = try FileSystem.readBytes(path, for: "--content", limit: fileLimit)
            return .image(try ContentImage(png: bytes, path: path))
        case .text:
            let bytes = try FileSystem.readBytes(path, for: "--content", limit: FileSystem.textLimit)
            return .shader(path: path, source: String(decoding: bytes, as: UTF8.self))
        case .other:
            return .video(try VideoSource(path: path, log: log))
        }
    }
}

/// A decoded image: 8-bit RGBA, top row first.
struct ContentImage: Sendable {
    let path: String
    let width: Int
    let height: Int
    let pixels: [UInt8]

    /// The largest side GLES implementations here take as a texture (llvmpipe's limit).
    static let maximumSide = 16384

    /// Decodes a PNG of any colour type and depth to 8-bit RGBA (libpng's simplified API).
    init(png bytes: [UInt8], path: String) throws {
        self.path = path
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        func failure() -> GloutError {
            let message = withUnsafeBytes(of: image.message) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
            png_image_free(&image)
            return GloutError("--content \(path): not a PNG glout can read (libpng: \(message))")
        }
        let began = bytes.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        guard began != 0 else { throw failure() }
        let (width, height) = (Int(image.width), Int(image.height))
        guard width <= ContentImage.maximumSide, height <= ContentImage.maximumSide else {
            png_image_free(&image)
            throw GloutError("--content \(path): \(width)x\(height) pixels; glout shows images of at most "
                             + "\(ContentImage.maximumSide) pixels a side")
        }
        image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let finished = pixels.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, 0, nil) }
        guard finished != 0 else { throw failure() }
        png_image_free(&image)
        self.width = width
        self.height = height
        self.pixels = pixels
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

/// How a renderer draws an output's --content: the program (the image or video shader,
/// or the user's), and the image or video with its --scale-mode.
struct ContentRendering: Sendable {
    var image: ContentImage?
    var video: VideoSource? = nil
    var program: GLuint
    var scaleMode: ScaleMode

    /// An image stands still; a shader moves with scene time, a video with its frames.
    var standsStill: Bool { image != nil }
}
