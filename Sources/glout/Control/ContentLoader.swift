import Foundation
import Glibc
import WaylandOutputs

/// Opens, decodes and readies what PUT .../content names, on the request's thread: a
/// PNG, JPEG or WebP image (uploaded), a fragment shader (compiled in the shared context),
/// a video or animation (its decoder started and its first frame decoded), or a playlist
/// of them. One file at a time, so that clients cannot make glout hold many large
/// pictures at once.
struct ContentLoader: Sendable {
    private let programs: ScenePrograms
    private let graphics: Graphics
    private let root: ContentRoot
    private let log: Log
    private let scaleMode: ScaleMode
    private let videoSync: VideoSync
    private let decoding: VideoDecoding
    private let conversion: VideoConversion
    private let turn = Locked(())
    private let graveyard = TextureGraveyard()

    /// Runs work on the session's thread, at the priority it was started with: a
    /// decoding thread started from a request's thread (nice 10) would decode at its nice.
    private let bridge: SessionBridge

    init(stage: Stage, root: ContentRoot, log: Log, bridge: SessionBridge) {
        self.bridge = bridge
        (programs, graphics, self.root, self.log) = (stage.programs, stage.graphics, root, log)
        (scaleMode, videoSync) = (stage.options.scaleMode, stage.options.videoSync)
        decoding = stage.options.videoDecoding
        conversion = stage.options.videoConversion.resolved(rasterizesOnCPU: stage.graphics.rasterizesOnCPU)
    }

    func load(_ name: String) throws(ControlError) -> ContentRendering {
        let path = try root.resolve(name)
        // Decoding takes a core for a while (a quarter of a second for a 12-megapixel PNG):
        // the render threads come first. The thread is the connection's own.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(threadID()), 10)
        do {
            return try turn.withLock { _ in try rendering(of: path) }
        } catch let error as ControlError {
            throw error
        } catch {
            var message = GloutError(error).message
            if message.hasPrefix("--content ") { message.removeFirst("--content ".count) }
            throw ControlError(422, message)
        }
    }

    /// Plays the show file `name` (under the content root, as every file it names must be)
    /// from each output's next frame, on the request's thread, or says why not and changes
    /// nothing.
    func replaceShow(_ name: String, in source: ShowSource) throws(ControlError) -> LoadedShow {
        let path = try root.resolve(name)
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(threadID()), 10)
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw ControlError(404, "\(ControlRoutes.quoted(name)): \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFREG else { throw ControlError(422, "\(ControlRoutes.quoted(name)): not a file") }
        do {
            let show = try source.replace(with: path, allowed: root.holds)
            log.info("control: show \(Log.printable(path))")
            return show
        } catch let refused as ShowFileRefused {
            throw ControlError(403, "\(ControlRoutes.quoted(name)) names \(ControlRoutes.quoted(refused.file)), which is not a "
                               + "file under the content root")
        } catch {
            throw ControlError(422, GloutError(error).message)
        }
    }

    private func rendering(of path: String) throws -> ContentRendering {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw ControlError(404, "\(ControlRoutes.quoted(path)): \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFREG else { throw ControlError(422, "\(ControlRoutes.quoted(path)): not a file") }
        try checkItems(of: path)
        var loaded: [String: ContentFile] = [:]
        let file: ContentFile
        do {
            file = try ContentFile.load(path, log: log, decoding: decoding, loaded: &loaded)
        } catch let error as GloutError {
            // Neither an image nor text, and FFmpeg could not make a picture of it either.
            let start = try FileSystem.readStart(path, for: "--content", count: 4097)
            guard ContentFile.kind(of: Array(start.prefix(4096)), cut: start.count > 4096) == .other else { throw error }
            var message = error.message
            if message.hasPrefix("--content ") { message.removeFirst("--content ".count) }
            throw ControlError(415, message + " (the API shows PNG, JPEG and WebP images, videos FFmpeg decodes, "
                               + "fragment shaders and playlists)")
        }
        let rendering: ContentRendering
        if case .playlist(let list) = file {
            rendering = ContentRendering(pieces: try list.items.map(piece), playlist: list.playlist, scaleMode: scaleMode,
                                         videoSync: videoSync)
        } else {
            rendering = ContentRendering(try piece(file), scaleMode: scaleMode, videoSync: videoSync)
        }
        guard rendering.videos.count <= ContentLoader.videosPerFile else {
            throw ControlError(422, "\(ControlRoutes.quoted(path)): \(rendering.videos.count) videos to decode at once; the API "
                               + "plays at most \(ContentLoader.videosPerFile) from one file")
        }
        try start(rendering.videos)
        do {
            if let video = rendering.pieces[0].video {
                try video.preload(from: rendering.videoFrame(piece: 0, local: 0, pass: 0), count: video.textures.capacity,
                                  graphics: graphics)
            }
        } catch {
            discard([rendering])
            throw error
        }
        return rendering
    }

    /// The most videos one file given to the API (a playlist) may decode: each is a
    /// decoding thread and up to 96 MB of frames.
    static let videosPerFile = 16

    /// Content loaded for a request that was then refused: its videos' decoders stop.
    func discard(_ renderings: [ContentRendering]) {
        VideoSource.release(renderings.flatMap(\.videos), graphics: graphics)
    }

    /// A playlist's items stay under the content root too.
    private func checkItems(of path: String) throws {
        guard root.path != nil else { return }
        let start = try FileSystem.readStart(path, for: "--content", count: 4097)
        guard ContentFile.kind(of: Array(start.prefix(4096)), cut: start.count > 4096) == .text else { return }
        let text = try FileSystem.readText(path, for: "--content")
        guard !Playlist.isShader(text) else { return }
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
        for line in (try? Playlist.parse(text, folder: folder.isEmpty ? "/" : folder)) ?? [] where !root.holds(line.path) {
            throw ControlError(403, "\(ControlRoutes.quoted(path)):\(line.number): \(ControlRoutes.quoted(line.path)) is not "
                               + "a file under the content root")
        }
    }

    /// One picture, readied in the shared context: an image uploaded, a shader compiled,
    /// a video's program (its decoder starts after).
    private func piece(_ file: ContentFile) throws -> ContentPiece {
        switch file {
        case .image(let image):
            return ContentPiece(image: try image.uploaded(graphics: graphics, graveyard: graveyard), program: try programs.image)
        case .shader(let path, let source):
            return ContentPiece(image: nil, program: try graphics.withSharedContext { try programs.contentShader(path: path, source: source) })
        case .video(let source):
            return ContentPiece(image: nil, video: source, program: try graphics.withSharedContext { try programs.video })
        case .playlist(let list):
            throw GloutError("--content \(Log.printable(list.path)): a list cannot be an item of a list")
        }
    }

    /// Starts each video's decoding thread, from the session's thread; on an error, stops
    /// those started.
    private func start(_ videos: [VideoSource]) throws {
        guard !videos.isEmpty else { return }
        let (conversion, log) = (conversion, log)
        let failure = Locked<String?>(nil)
        let reply = bridge.call {
            var started: [VideoSource] = []
            do {
                for video in videos {
                    try video.start(conversion: conversion)
                    started.append(video)
                    log.info("control: \(Log.printable(video.path)): \(video.codecName) video, \(video.width)x\(video.height), "
                             + "\(video.timeline.count) frames, decoded " + (video.decodesWithVAAPI ? "by VA-API" : "in software"))
                }
            } catch {
                for video in started { video.stop() }
                failure.withLock { $0 = GloutError(error).message }
            }
            return .json([:])
        }
        if let message = failure.withLock({ $0 }) { throw ControlError(500, message) }
        // The bridge's own refusal (glout stopping, or its session thread held up): the
        // work never ran, so no decoder started.
        guard reply.status == 200 else {
            throw ControlError(reply.status, "the video's decoder was not started: glout is stopping or its session thread is held up")
        }
    }
}

/// glibc's gettid (2.30), which the Glibc module does not import.
@_silgen_name("gettid")
private func threadID() -> pid_t
