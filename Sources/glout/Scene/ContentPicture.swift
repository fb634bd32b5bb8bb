import CGLES
import CPNG
import WaylandOutputs

/// A picture of the user's own that replaces the content view (--content [NAME=]FILE):
/// a PNG image, which stands still, or a GLSL ES 3.00 fragment shader that reads the
/// same `Frame` inputs as glout's own views (shaders/frame.glsl).
enum ContentPicture: Sendable {
    case image(ContentImage)
    /// The file's text, compiled with glout's shader library (so `#include "frame.glsl"`
    /// and `"canvas.glsl"` work).
    case shader(path: String, source: String)

    /// The most a content file may hold: a PNG of 16384x16384 compresses to far less.
    static let fileLimit = 512 << 20

    /// Reads `path`: a PNG when it has PNG's signature (or a .png name), a fragment shader
    /// otherwise. Errors name the file and the reason.
    static func load(_ path: String) throws -> ContentPicture {
        let bytes = try FileSystem.readBytes(path, for: "--content", limit: fileLimit)
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        if bytes.starts(with: signature) || path.lowercased().hasSuffix(".png") {
            return .image(try ContentImage(png: bytes, path: path))
        }
        guard bytes.count <= FileSystem.textLimit else {
            throw GloutError("--content \(path): more than \(FileSystem.textLimit >> 20) MiB; not a shader glout reads")
        }
        return .shader(path: path, source: String(decoding: bytes, as: UTF8.self))
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

/// How a renderer draws an output's --content: the program (the image shader, or the
/// user's), and the image with its --scale-mode.
struct ContentRendering: Sendable {
    var image: ContentImage?
    var program: GLuint
    var scaleMode: ScaleMode

    /// An image stands still; a shader moves with scene time.
    var standsStill: Bool { image != nil }
}
