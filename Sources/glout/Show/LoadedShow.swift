import CGLES
import Foundation
import WaylandOutputs

/// A show ready to draw, made once before any window opens: every image decoded and
/// uploaded to a texture the outputs share, every shader compiled, every video opened with
/// its decoder running ahead, and a timeline per zone that the outputs showing it share.
/// Nothing an item needs is read on a frame, and a video's first frames are decoded and
/// uploaded before its item comes: every change is gapless.
final class LoadedShow: Sendable {
    let show: Show
    /// Per entry of ``Show/outputs``, its zones.
    let zones: [[LoadedZone]]
    /// The span's zones (``Show/span``).
    let spanZones: [LoadedZone]
    /// show-copy, which draws a video's frames, text and plain colours.
    let copyProgram: GLuint
    /// The videos, a decoder per zone and file (a zone numbers its video's frames by its
    /// own loop); stopped by ``ShowVideos`` once no output draws the show.
    private let videos: ShowVideos

    /// The most videos one show may play: each has a decoding thread and up to
    /// ``VideoSource/queueBytes`` of frames decoded ahead.
    static let videoLimit = 16

    /// The most a show's images may take decoded with their mip levels, all together (each
    /// is held as a texture until the show is replaced).
    static let imageBytesLimit = 2 << 30

    /// What an item draws.
    enum Drawing: Sendable {
        case image(ContentImage, fit: ScaleMode, program: GLuint)
        /// A video's frames, converted to BGRA by libswscale once for every output, copied
        /// (``copyProgram``).
        case video(VideoSource, fit: ScaleMode)
        case shader(program: GLuint)
        case colour(RGB)
        /// Text in the font file fontconfig found for its name, copied from a line in its
        /// colours (``TextLine``).
        case text(TextItem, font: String)
    }

    /// A zone, its timeline, and what each item of each playlist draws.
    struct LoadedZone: Sendable {
        var zone: Show.Zone
        var timeline: ZoneTimeline
        var drawings: [[Drawing]]
        /// Whether an item of it is a video.
        var playsVideo = false

        func drawing(_ item: ZoneTimeline.ItemRef) -> Drawing { drawings[item.playlist][item.item] }
        func item(_ item: ZoneTimeline.ItemRef) -> Show.ShowItem { zone.playlists[item.playlist].items[item.item] }
    }

    /// Reads the show file at `path` and everything it names, its textures buried in
    /// `graveyard` once no one holds them. Errors name the file, the JSON path and the
    /// reason; `allowed` says whether an item's file may be opened (the control API's
    /// content root), and a file it refuses is a ``ShowFileRefused``.
    init(path: String, log: Log, programs: ScenePrograms, graphics: Graphics, graveyard: TextureGraveyard,
         decoding: VideoDecoding = .auto, releases: DispatchGroup = DispatchGroup(),
         allowed: (String) -> Bool = { _ in true }) throws {
        let text = try FileSystem.readText(path, for: "--show")
        copyProgram = try graphics.withSharedContext { try programs.showCopy }
        do {
            show = try ShowParser.parse(text, path: path)
        } catch {
            throw GloutError("--show \(Log.printable(path)): \(error.path): \(error.message)")
        }
        for case let file? in show.files.map(\.file) where !allowed(file) { throw ShowFileRefused(file: file) }
        // Each file once, whichever items name it.
        var files = ItemFiles(show: path, log: log, programs: programs, graphics: graphics, graveyard: graveyard,
                              decoding: decoding)
        func load(_ zones: [Show.Zone], at: String) throws -> [LoadedZone] {
            try zones.enumerated().map { z, zone in
                var zone = zone
                var drawings: [[Drawing]] = []
                for (p, playlist) in zone.playlists.enumerated() {
                    drawings.append(try playlist.items.enumerated().map { i, item in
                        try files.drawing(item, at: zone.path(at: "\(at).zones[\(z)]", playlist: p, item: i), zone: "\(at).zones[\(z)]")
                    })
                    for (i, drawn) in drawings[p].enumerated() {
                        guard case .video(let video, _) = drawn else { continue }
                        zone.playlists[p].items[i] = try LoadedShow.timed(zone.playlists[p].items[i], video: video, show: path,
                                                                          at: zone.path(at: "\(at).zones[\(z)]", playlist: p, item: i))
                    }
                }
                let playsVideo = drawings.joined().contains { if case .video = $0 { true } else { false } }
                return LoadedZone(zone: zone, timeline: ZoneTimeline(zone: zone), drawings: drawings, playsVideo: playsVideo)
            }
        }
        zones = try show.outputs.map { entry in
            try load(entry.zones, at: ShowParser.member("$.outputs", LoadedShow.key(of: entry.selector)))
        }
        spanZones = try load(show.span, at: "$.span")
        // Decoding starts once nothing else can fail, so that no decoder outlives a refusal.
        let (images, videos, shaders) = (files.images.count, files.videos.count, files.shaders.count)
        self.videos = try ShowVideos(Array(files.videos.values), graphics: graphics, releases: releases, log: log, show: path)
        log.info("--show \(Log.printable(path)): \(LoadedShow.describe(show)), \(images) image\(images == 1 ? "" : "s"), "
                 + "\(videos) video\(videos == 1 ? "" : "s"), \(shaders) shader\(shaders == 1 ? "" : "s")")
    }

    /// Stops the videos now, and deletes their textures (in the shared context): glout
    /// stops, and no window draws any more.
    func stopVideos() { videos.stopNow() }

    /// Frame `number` of `video` is to show soon: ``ShowVideos/prepare(_:from:)``.
    func prepareVideo(_ video: VideoSource, from number: Int) { videos.prepare(video, from: number) }

    /// `item`, a video's, with its seconds: the video's own length where the item gives
    /// none; its crossfade checked against that.
    private static func timed(_ item: Show.ShowItem, video: VideoSource, show: String, at jsonPath: String) throws -> Show.ShowItem {
        var item = item
        guard item.seconds == 0 else { return item }
        let length = video.timeline.length
        guard length.isFinite, length >= Playlist.shortestItem else {
            throw GloutError("--show \(Log.printable(show)): \(jsonPath): the video lasts \(ShowParser.format(length)) s, "
                             + "too short to be an item of its own length; give its seconds")
        }
        item.seconds = min(length, Playlist.longestItem)
        if case .crossfade(let fade) = item.transition, fade > item.seconds {
            throw GloutError("--show \(Log.printable(show)): \(jsonPath).transition.crossfade_ms: \(ShowParser.format(fade * 1000)) ms is "
                             + "longer than the video's \(ShowParser.format(item.seconds)) s")
        }
        return item
    }

    /// "N zones on M output entries" (and "K on the span").
    static func describe(_ show: Show) -> String {
        let count = show.outputs.reduce(0) { $0 + $1.zones.count }
        return "\(count) zone\(count == 1 ? "" : "s") on \(show.outputs.count) output entr\(show.outputs.count == 1 ? "y" : "ies")"
            + (show.span.isEmpty ? "" : " and \(show.span.count) on the span")
    }

    /// The image an item names, decoded as --content decodes it (a text file is not
    /// taken for a playlist, nor a video opened for good); its error names the show and
    /// the item.
    fileprivate static func image(_ file: String, show: String, at jsonPath: String, log: Log,
                              loaded: inout [String: ContentFile]) throws -> ContentImage {
        let opened = try open(file, as: "an image", show: show, at: jsonPath, log: log, decoding: .auto, loaded: &loaded)
        guard case .image(let image) = opened.file else {
            throw GloutError("\(opened.name) is a video or an animation; give it as a video item")
        }
        return image
    }

    /// The video an item names, opened as --content opens one (an animated WebP is a video
    /// too); its error names the show and the item.
    fileprivate static func video(_ file: String, show: String, at jsonPath: String, log: Log,
                              decoding: VideoDecoding) throws -> VideoSource {
        // Not kept with the show's other files: each zone decodes its own.
        var loaded: [String: ContentFile] = [:]
        let opened = try open(file, as: "a video", show: show, at: jsonPath, log: log, decoding: decoding, loaded: &loaded)
        guard case .video(let video) = opened.file else {
            throw GloutError("\(opened.name) is a still picture; give it as an image item")
        }
        return video
    }

    /// An item's file read as --content reads one, refused where it is text (`kind`: what
    /// the item wanted); with the name its errors start with, which every error of the
    /// read is given instead of --content's.
    private static func open(_ file: String, as kind: String, show: String, at jsonPath: String, log: Log,
                             decoding: VideoDecoding, loaded: inout [String: ContentFile]) throws -> (file: ContentFile, name: String) {
        let name = "--show \(Log.printable(show)): \(jsonPath): \(Log.printable(file))"
        do {
            let start = try FileSystem.readStart(file, for: "--show", count: 4097)
            if ContentFile.kind(of: Array(start.prefix(4096)), cut: start.count > 4096) == .text {
                throw GloutError("\(name) is text, not \(kind)" + (kind == "an image" ? " (a shader is a shader item)" : ""))
            }
            return (try ContentFile.load(file, log: log, decoding: decoding, loaded: &loaded), name)
        } catch let error as GloutError where !error.message.hasPrefix(name) {
            let message = error.message.split(separator: ": ", maxSplits: 1).dropFirst().first.map(String.init) ?? error.message
            throw GloutError("\(name): \(message)")
        }
    }

    /// The file of the font fontconfig matches `name` with, checked to be one FreeType reads.
    fileprivate static func font(_ name: String, show: String, at jsonPath: String, log: Log) throws -> String {
        guard let (file, family) = FontLookup.file(for: name) else {
            throw GloutError("--show \(Log.printable(show)): \(jsonPath).font: fontconfig has no font for "
                             + "\(ControlRoutes.quoted(name)) (install one, such as fonts-dejavu-core)")
        }
        do {
            _ = try FontFace(pixelSize: 16, path: file)
        } catch {
            throw GloutError("--show \(Log.printable(show)): \(jsonPath).font: \(GloutError(error).message)")
        }
        log.info("--show \(Log.printable(show)): font \(ControlRoutes.quoted(name)) is \(Log.printable(family)), "
                 + Log.printable(file))
        return file
    }

    /// The fragment shader an item names.
    fileprivate static func shader(_ file: String, show: String, at jsonPath: String) throws -> String {
        let name = "--show \(Log.printable(show)): \(jsonPath): \(Log.printable(file))"
        let text: String
        do {
            text = try FileSystem.readText(file, for: "--show")
        } catch let error as GloutError {
            throw GloutError("\(name): " + (error.message.split(separator: ": ", maxSplits: 1).dropFirst().first.map(String.init) ?? ""))
        }
        guard Playlist.isShader(text) else {
            throw GloutError("\(name) is not a shader: GLSL ES 3.00 starts with #version 300 es")
        }
        return text
    }

    static func key(of selector: Show.OutputSelector) -> String {
        switch selector {
        case .name(let name): name
        case .primary: "primary"
        case .secondaries: "secondaries"
        case .every: "*"
        }
    }

    /// The zones of the output named: its own, else its role's, else every output's.
    func zones(for output: String, primary: Bool) -> [LoadedZone] {
        for selector in [Show.OutputSelector.name(output), primary ? .primary : .secondaries, .every] {
            if let index = show.outputs.firstIndex(where: { $0.selector == selector }) { return zones[index] }
        }
        return []
    }

}

/// A show that names a file the control API may not open (out of --content-root).
struct ShowFileRefused: Error {
    var file: String
}

/// The files a show's items name, each read, decoded and uploaded once whichever items
/// name it (a video once per zone), within the show's limits.
private struct ItemFiles {
    /// The show file's path, for errors.
    let show: String
    let log: Log
    let programs: ScenePrograms
    let graphics: Graphics
    let graveyard: TextureGraveyard
    let decoding: VideoDecoding
    private var loaded: [String: ContentFile] = [:]
    private(set) var images: [String: ContentImage] = [:]
    private(set) var shaders: [String: GLuint] = [:]
    private var fonts: [String: String] = [:]
    private var imageBytes = 0
    /// By zone and file.
    private(set) var videos: [String: VideoSource] = [:]

    init(show: String, log: Log, programs: ScenePrograms, graphics: Graphics, graveyard: TextureGraveyard,
         decoding: VideoDecoding) {
        (self.show, self.log, self.programs, self.graphics, self.graveyard, self.decoding)
            = (show, log, programs, graphics, graveyard, decoding)
    }

    /// What draws `item` (at `jsonPath`, in the zone at `zone`), its file loaded if not yet.
    mutating func drawing(_ item: Show.ShowItem, at jsonPath: String, zone: String) throws -> LoadedShow.Drawing {
        switch item.source {
        case .video(let file):
            let key = zone + "\u{0}" + file
            if videos[key] == nil {
                guard videos.count < LoadedShow.videoLimit else {
                    throw GloutError("--show \(Log.printable(show)): \(jsonPath): \(Log.printable(file)) is past the "
                                     + "\(LoadedShow.videoLimit) videos a show may play (a video in two zones counts twice)")
                }
                videos[key] = try LoadedShow.video(file, show: show, at: jsonPath, log: log, decoding: decoding)
            }
            return .video(videos[key]!, fit: item.fit)
        case .image(let file):
            if images[file] == nil {
                let image = try LoadedShow.image(file, show: show, at: jsonPath, log: log, loaded: &loaded)
                imageBytes += image.levels.reduce(0) { $0 + $1.pixels.count }
                guard imageBytes <= LoadedShow.imageBytesLimit else {
                    throw GloutError("--show \(Log.printable(show)): \(jsonPath): \(Log.printable(file)) takes the show's "
                                     + "images past \(LoadedShow.imageBytesLimit >> 30) GiB decoded; show fewer or smaller ones")
                }
                images[file] = try image.uploaded(graphics: graphics, graveyard: graveyard)
            }
            return .image(images[file]!, fit: item.fit, program: try graphics.withSharedContext { try programs.image })
        case .shader(let file):
            if shaders[file] == nil {
                let source = try LoadedShow.shader(file, show: show, at: jsonPath)
                do {
                    shaders[file] = try graphics.withSharedContext { try programs.contentShader(path: file, source: source) }
                } catch {
                    throw GloutError("--show \(Log.printable(show)): \(jsonPath): \(error)")
                }
            }
            return .shader(program: shaders[file]!)
        case .color(let rgb):
            return .colour(rgb)
        case .text(let text):
            if fonts[text.font] == nil {
                fonts[text.font] = try LoadedShow.font(text.font, show: show, at: jsonPath, log: log)
            }
            return .text(text, font: fonts[text.font]!)
        }
    }
}
