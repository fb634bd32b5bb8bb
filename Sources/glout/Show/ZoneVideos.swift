import Foundation
import WaylandOutputs

/// The videos one output draws in a show's zones: for each, the frame each refresh shows
/// (the one of its target time in the item, held to the video's cadence near a frame's
/// edge, as --content's are: ``VideoPlayer``), the reader its frames and textures are
/// asked for by, and when it was last drawn. A zone whose video shows the frame it showed
/// at the last refresh stands still (a 30 fps video on a 60 Hz output is drawn every
/// other refresh). A video this output stops drawing is let go
/// of at once, so that its decoder may go ahead to where it is needed next. Lives on the
/// output's render thread.
final class ZoneVideos {
    private struct Playing {
        var video: VideoSource
        var player = VideoPlayer()
        /// Its identity is the reader's (``VideoSource/picture(for:consumer:now:waiting:)``).
        let reader = NSObject()
        /// The showing drawn last, and the frame index it was drawn at.
        var showing: Int
        var drawnAt: UInt64
        /// The picture that frame shows (nil: none decoded yet).
        var picture: VideoFrame?
    }
    private var playing: [ObjectIdentifier: Playing] = [:]
    /// Whether a frame drawn since ``startFrame()`` was not yet decoded (the newest before it
    /// showed instead): a still show draws again until it is there.
    private(set) var late = false

    deinit { forgetAll() }

    /// The number of the frame of `video` at `local` seconds into showing `showing` of an
    /// item `seconds` long: the video plays from its start, looping within a longer item,
    /// and holds its frame at the item's end (an item crossfading out goes on showing it).
    /// Showings number their frames apart (their passes of the video follow each other),
    /// so that a video that follows itself plays on with no seek.
    static func frameNumber(_ timeline: VideoTimeline, seconds: Double, showing: Int, local: Double) -> Int {
        let held = min(local, seconds - min(seconds / 2, 0.000_001))
        let within = timeline.frame(at: held)
        let passes = max(1, Int(min(1e9, (seconds / timeline.length - 1e-9).rounded(.up))))
        let (perShowing, over) = passes.multipliedReportingOverflow(by: timeline.count)
        let (first, past) = max(0, showing).multipliedReportingOverflow(by: perShowing)
        let (number, beyond) = first.addingReportingOverflow(within)
        return over || past || beyond ? within : number
    }

    func startFrame() { late = false }

    /// Takes the frame of `video` that this refresh shows, for an item of `seconds` in
    /// showing `showing`, `local` seconds in, once a refresh: its number, which may be
    /// before the one the time calls for while the decoder has not reached that (nil
    /// before the video has a frame). `waiting`: seconds to wait for that very frame (a
    /// snapshot). Then ``bind(_:)`` binds it.
    func frame(of video: VideoSource, seconds: Double, showing: Int, local: Double, frame: DisplayLinkFrame, frozen: Bool,
               waiting: Double) -> Int? {
        let key = ObjectIdentifier(video)
        if let entry = playing[key], entry.drawnAt == frame.index, entry.showing == showing { return entry.picture?.number }
        var entry = playing[key] ?? Playing(video: video, showing: showing, drawnAt: frame.index)
        if entry.showing != showing { entry.player.cut(to: video) }
        (entry.showing, entry.drawnAt) = (showing, frame.index)
        let (picture, isLate, _) = entry.player.take(video, frame: frame, local: local, rate: 1, frozen: frozen,
                                                     consumer: ObjectIdentifier(entry.reader), waiting: waiting) {
            ZoneVideos.frameNumber(video.timeline, seconds: seconds, showing: showing, local: $0)
        }
        if isLate { late = true }
        entry.picture = picture
        playing[key] = entry
        return picture?.number
    }

    /// Binds the texture of the frame ``frame(of:seconds:showing:local:frame:frozen:waiting:)``
    /// took of `video`; nil where it took none. Call ``finishedDrawing(_:binding:)`` after
    /// the draw.
    func bind(_ video: VideoSource) -> VideoTextures.Binding? {
        guard let entry = playing[ObjectIdentifier(video)], let picture = entry.picture else { return nil }
        return video.textures.bind(picture, reader: ObjectIdentifier(entry.reader))
    }

    /// The draw from `binding` of `video` is in the context's commands.
    func finishedDrawing(_ video: VideoSource, binding: VideoTextures.Binding) {
        guard let entry = playing[ObjectIdentifier(video)] else { return }
        video.textures.finishedReading(binding, reader: ObjectIdentifier(entry.reader))
    }

    /// Lets go of the videos frame `index` did not draw.
    func endFrame(_ index: UInt64) {
        for (key, entry) in playing where entry.drawnAt != index {
            entry.video.forget(ObjectIdentifier(entry.reader))
            playing[key] = nil
        }
    }

    /// Lets go of every video (another show, or the window closes).
    func forgetAll() {
        for entry in playing.values { entry.video.forget(ObjectIdentifier(entry.reader)) }
        playing = [:]
    }
}
