import CGLES
import WaylandOutputs

/// A file of the user's own that replaces the content view (--content [NAME=]FILE):
/// an image (PNG, JPEG, WebP, or any file FFmpeg reads as one frame), which stands still,
/// a GLSL ES 3.00 fragment shader that reads the same `Frame` inputs as glout's own views
/// (shaders/frame.glsl), or a video FFmpeg decodes or an animated WebP. What a file is
/// comes from its contents, never its name.
enum ContentFile: Sendable {
    case image(ContentImage)
    /// The file's text, compiled with glout's shader library (so `#include "frame.glsl"`
    /// and `"canvas.glsl"` work).
    case shader(path: String, source: String)
    /// A video, decoded once for every window that shows it.
    case video(VideoSource)
    /// A list of the others, each shown for its time in turn, looped.
    case playlist(ContentPlaylist)

    /// The most an image file (PNG, JPEG, WebP) may hold: one of glout's largest
    /// pictures compresses to far less.
    static let fileLimit = 512 << 20

    /// What the start of a file tells: an image format's signature, text (a shader: no
    /// NUL byte and valid UTF-8 in its first 4 KiB, a character cut at the end aside),
    /// else something for FFmpeg.
    enum Kind: Equatable { case png, jpeg, webp, text, other }

    /// `cut`: the file goes on past `start`, so a character may be cut in two at its end
    /// (up to three bytes of it, each 0x80 or above).
    static func kind(of start: [UInt8], cut: Bool) -> Kind {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        if start.starts(with: signature) { return .png }
        if JPEGMetadata.isJPEG(start) { return .jpeg }
        if WebPFile.isWebP(start) { return .webp }
        if start.contains(0) { return .other }
        var text = start[...]
        for _ in 0..<4 {
            if String(validating: text, as: UTF8.self) != nil { return .text }
            guard cut, let last = text.last, last >= 0x80 else { break }
            text = text.dropLast()
        }
        return .other
    }

    /// Reads `path`: a PNG, JPEG or WebP by its signature (an animated WebP of more than
    /// one frame plays as a video); when it is text, a fragment shader if it starts with
    /// `#version`, else a playlist; else what FFmpeg opens, decoded as `decoding` says: a
    /// still where it holds one frame, else a video. A file already in `loaded` is not read
    /// again (a video: not opened again), except that a video in list `list` is decoded
    /// apart from the same file shown alone or in another list: a list numbers its videos'
    /// frames on its own passes, and two numberings of one decoder would pull it back and
    /// forth. Errors name the file (and the list's line) and the reason.
    static func load(_ path: String, log: Log, decoding: VideoDecoding = .auto, loaded: inout [String: ContentFile],
                     list: String? = nil) throws -> ContentFile {
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
        var picture: ContentFile
        switch kind(of: Array(start.prefix(4096)), cut: start.count > 4096) {
        case .png:
            picture = .image(try ContentImage(png: try FileSystem.readHeld(path, for: "--content", limit: fileLimit), path: path))
        case .jpeg:
            let file = try FileSystem.readHeld(path, for: "--content", limit: fileLimit)
            picture = .image(try ContentImage(jpeg: file, path: path, log: log))
        case .webp:
            let file = try FileSystem.readHeld(path, for: "--content", limit: fileLimit)
            if try WebPFile.isAnimated(file, path: path) {
                let animation = try WebPAnimation(file: file, path: path)
                picture = animation.durations.count == 1
                    ? .image(try animation.still())
                    : .video(try VideoSource(decoder: animation, path: path, log: log, decoding: decoding) {
                        try WebPAnimation(file: file, path: path)
                    })
            } else {
                picture = .image(try ContentImage(webp: file, path: path))
            }
        case .text:
            let text = try FileSystem.readText(path, for: "--content")
            if Playlist.isShader(text) {
                picture = .shader(path: path, source: text)
            } else {
                guard list == nil else { throw GloutError("--content \(Log.printable(path)): a list cannot be an item of a list") }
                picture = .playlist(try ContentPlaylist(path: path, text: text, log: log, decoding: decoding, loaded: &loaded))
            }
        case .other:
            let decoder = try VideoDecoder(path: path, decoding: decoding)
            let timeline = try decoder.timeline()
            // Numbered in decoding order, the scan left it at the end: opened again.
            let reopen = { try VideoDecoder(path: path, decoding: decoding) }
            if timeline.count == 1 {
                picture = .image(try ContentImage(onlyFrameOf: timeline.framed ? try reopen() : decoder, path: path))
            } else {
                picture = .video(try VideoSource(decoder: decoder, timeline: timeline, path: path, log: log, decoding: decoding,
                                                 reopen: reopen))
            }
        }
        // Decoded once for every output that shows it, and so are its mip levels.
        if case .image(let image) = picture { picture = .image(image.withMipLevels()) }
        if case .video = picture, let listed { loaded[listed] = picture } else { loaded[path] = picture }
        return picture
    }
}

/// --content LIST: its items, loaded, and their times.
struct ContentPlaylist: Sendable {
    let path: String
    let items: [ContentFile]
    let playlist: Playlist

    /// Loads every file the list names (each once, through `loaded`). A video shows for
    /// its own length unless the line gives seconds; an image or a shader needs them.
    init(path: String, text: String, log: Log, decoding: VideoDecoding, loaded: inout [String: ContentFile]) throws {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
        let name = Log.printable(path)
        let lines: [Playlist.Line]
        do {
            lines = try Playlist.parse(text, folder: path.hasPrefix("/") && folder.isEmpty ? "/" : folder)
        } catch {
            throw GloutError("--content \(name)\(error.line.map { ":\($0)" } ?? ""): \(error.message); a list has a line "
                             + "FILE [SECONDS] for each item (a shader starts with #version 300 es)")
        }
        var items: [ContentFile] = [], durations: [Double] = []
        for line in lines {
            let item: ContentFile
            do {
                item = try ContentFile.load(line.path, log: log, decoding: decoding, loaded: &loaded, list: path)
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

    /// The videos it plays, each once.
    var videos: [VideoSource] {
        var seen = Set<ObjectIdentifier>()
        return pieces.compactMap(\.video).filter { seen.insert(ObjectIdentifier($0)).inserted }
    }

    /// Whether it has a clock of its own (a video or a list): shown by the API, it starts
    /// at its beginning.
    var playsFromStart: Bool { playlist != nil || pieces.contains { $0.video != nil } }

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
