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
    /// A list of the others, each shown for its time in turn, looped.
    case playlist(ContentPlaylist)

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

    /// Reads `path`: a PNG when it has PNG's signature; when it is text, a fragment
    /// shader if it starts with `#version`, else a playlist; else a video FFmpeg can
    /// open, decoded as `decoding` says. A file already in `loaded` is not read again (a
    /// video: not opened again), except that a video in list `list` is decoded apart from
    /// the same file shown alone or in another list: a list numbers its videos' frames on
    /// its own passes, and two numberings of one decoder would pull it back and forth.
    /// Errors name the file (and the list's line) and the reason.
    static func load(_ path: String, log: Log, decoding: VideoDecoding = .auto, loaded: inout [String: ContentPicture],
                     list: String? = nil) throws -> ContentPicture {
        let listed = list.map { "\($0)\u{0}\(path)" }
        switch loaded[path] {
        case .playlist? where list != nil:
            throw GloutError("--content \(Log.printable(path)): a list cannot be an item of a list")
        case .video? where list != nil, nil:
            if let listed, let own = loaded[listed] { return own }  // the list's own decoder
        case let picture?:
            return picture
        }
        let start = try FileSystem.readStart(path, for: "--content", count: 4097)
        let picture: ContentPicture
        switch kind(of: Array(start.prefix(4096)), cut: start.count > 4096) {
        case .png:
            let bytes = try FileSystem.readBytes(path, for: "--content", limit: fileLimit)
            picture = .image(try ContentImage(png: bytes, path: path))
        case .text:
            let text = try FileSystem.readText(path, for: "--content")
            if Playlist.isShader(text) {
                picture = .shader(path: path, source: text)
            } else {
                guard list == nil else { throw GloutError("--content \(Log.printable(path)): a list cannot be an item of a list") }
                picture = .playlist(try ContentPlaylist(path: path, text: text, log: log, decoding: decoding, loaded: &loaded))
            }
        case .other:
            picture = .video(try VideoSource(path: path, log: log, decoding: decoding))
        }
        if case .video = picture, let listed { loaded[listed] = picture } else { loaded[path] = picture }
        return picture
    }
}

/// --content LIST: its items, loaded, and their times.
struct ContentPlaylist: Sendable {
    let path: String
    let items: [ContentPicture]
    let playlist: Playlist

    /// Loads every file the list names (each once, through `loaded`). A video shows for
    /// its own length unless the line gives seconds; an image or a shader needs them.
    init(path: String, text: String, log: Log, decoding: VideoDecoding, loaded: inout [String: ContentPicture]) throws {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
        let name = Log.printable(path)
        let lines: [Playlist.Line]
        do {
            lines = try Playlist.parse(text, folder: path.hasPrefix("/") && folder.isEmpty ? "/" : folder)
        } catch {
            throw GloutError("--content \(name)\(error.line.map { ":\($0)" } ?? ""): \(error.message); a list has a line "
                             + "FILE [SECONDS] for each item (a shader starts with #version 300 es)")
        }
        var items: [ContentPicture] = [], durations: [Double] = []
        for line in lines {
            let item: ContentPicture
            do {
                item = try ContentPicture.load(line.path, log: log, decoding: decoding, loaded: &loaded, list: path)
            } catch let error as GloutError {
                // The item's own error names it after "--content ".
                let message = error.message.hasPrefix("--content ") ? String(error.message.dropFirst(10)) : error.message
                throw GloutError("--content \(name):\(line.number): \(message)")
            }
            switch item {
            case .video(let source):
                durations.append(line.seconds ?? source.timeline.length)
            default:
                guard let seconds = line.seconds else {
                    throw GloutError("--content \(name):\(line.number): \(Log.printable(line.path)) needs SECONDS: only a video "
                                     + "has a length of its own")
                }
                durations.append(seconds)
            }
            items.append(item)
        }
        self.path = path
        self.items = items
        playlist = Playlist(durations: durations)
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
            return GloutError("--content \(Log.printable(path)): not a PNG glout can read (libpng: \(message))")
        }
        let began = bytes.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        guard began != 0 else { throw failure() }
        let (width, height) = (Int(image.width), Int(image.height))
        guard width <= ContentImage.maximumSide, height <= ContentImage.maximumSide else {
            png_image_free(&image)
            throw GloutError("--content \(Log.printable(path)): \(width)x\(height) pixels; glout shows images of at most "
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

/// One picture a renderer draws for --content: the program (the image or video shader,
/// or the user's), and the image or video.
struct ContentPiece: Sendable {
    var image: ContentImage?
    var video: VideoSource? = nil
    var program: GLuint
}

/// How a renderer draws an output's --content: one piece, or a playlist's pieces in turn
/// on the content clock, with --scale-mode.
struct ContentRendering: Sendable {
    var pieces: [ContentPiece]
    var playlist: Playlist?
    var scaleMode: ScaleMode
    var videoSync: VideoSync

    init(_ piece: ContentPiece, scaleMode: ScaleMode, videoSync: VideoSync = .time) {
        pieces = [piece]
        playlist = nil
        self.scaleMode = scaleMode
        self.videoSync = videoSync
    }

    init(pieces: [ContentPiece], playlist: Playlist, scaleMode: ScaleMode, videoSync: VideoSync = .time) {
        self.pieces = pieces
        self.playlist = playlist
        self.scaleMode = scaleMode
        self.videoSync = videoSync
    }

    /// An image alone stands still; a shader moves with scene time, a video with its
    /// frames, and a playlist goes on to its next item.
    var standsStill: Bool { playlist == nil && pieces[0].image != nil }

    /// The piece shown at content time `time`, and the time since it began.
    func piece(at time: Double) -> (index: Int, local: Double, pass: Int) {
        guard let playlist else { return (0, time, 0) }
        let position = playlist.position(at: time)
        return (position.item, position.local, position.pass)
    }

    /// The frame of piece `index`'s video at `local` seconds into pass `pass` of the
    /// list, numbered so that a video that plays its own length goes on from one pass of
    /// the list to the next as from one loop to the next (the decoder has the next
    /// pass's first frames ready); alone, the video's own unwrapped number.
    func videoFrame(piece index: Int, local: Double, pass: Int) -> Int {
        guard let video = pieces[index].video else { return 0 }
        let timeline = video.timeline
        guard let playlist else { return timeline.frame(at: local) }
        let loops = max(1, Int((playlist.durations[index] / timeline.length - 1e-9).rounded(.up)))
        // Past Int's range (a crafted file's millions of frames in a millisecond's item,
        // passed over for years): the video's own number in the item, which stays in it.
        let (perPass, over) = loops.multipliedReportingOverflow(by: timeline.count)
        let (first, past) = pass.multipliedReportingOverflow(by: perPass)
        let (number, beyond) = first.addingReportingOverflow(timeline.frame(at: local))
        return over || past || beyond ? timeline.frame(at: local) : number
    }

    /// The piece after `current` (the one at `time`), when it is a video: its first
    /// frame's number at its next start, for the decoder to have ready.
    func nextVideoStart(after time: Double, current: Int) -> (video: VideoSource, frame: Int)? {
        guard let playlist, pieces.count > 1 else { return nil }
        let next = (current + 1) % pieces.count
        guard let video = pieces[next].video else { return nil }
        let start = playlist.nextStart(of: next, after: time)
        let pass = Int((start / playlist.length).rounded(.down))
        return (video, videoFrame(piece: next, local: 0, pass: pass))
    }
}
