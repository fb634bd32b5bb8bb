import Foundation
import WaylandOutputs

/// The videos of one show: their decoding threads, started once the show is loaded, and
/// their textures. When the show is dropped (another replaced it, and the last output that
/// drew it moved on), a thread of its own stops the decoders and deletes the textures:
/// joining a decoder never holds up a frame, and `releases` lets glout wait for it as it
/// stops. Where glout stops with the show still playing, ``stopNow()`` does it at once.
final class ShowVideos: Sendable {
    private let videos: [VideoSource]
    private let graphics: Graphics
    private let releases: DispatchGroup
    /// Whether the videos were stopped already.
    private let stopped = Locked(false)
    /// The first frame of the last preload asked of each video, and the preloads running.
    private let preloads = Locked<[ObjectIdentifier: Int]>([:])
    private let preloading = DispatchGroup()

    /// Starts each video's decoder (frames converted to BGRA by libswscale, which every
    /// output draws with the image program), and says what it plays.
    init(_ videos: [VideoSource], graphics: Graphics, releases: DispatchGroup, log: Log, show: String) throws {
        (self.videos, self.graphics, self.releases) = (videos, graphics, releases)
        do {
            for video in videos {
                try video.start(conversion: .swscale)
                log.info("--show \(Log.printable(show)): \(Log.printable(video.path)): \(video.codecName) video, "
                         + "\(video.width)x\(video.height), \(video.timeline.count) frames at "
                         + "\(String(format: "%.3f", video.timeline.framesPerSecond)) fps, "
                         + "\(String(format: "%.3f", video.timeline.length)) s, decoded "
                         + (video.decodesWithVAAPI ? "by VA-API" : "in software"))
            }
        } catch {
            for video in videos { video.stop() }
            throw error
        }
    }

    deinit {
        guard !stopped.withLock({ $0 }), !videos.isEmpty else { return }
        let (videos, graphics, preloading) = (videos, graphics, preloading)
        BackgroundWork.start(in: releases) {
            ShowVideos.release(videos, graphics: graphics, after: preloading)
        }
    }

    /// Frame `number` of `video` is to show soon (an item to come): unless a window shows the
    /// video now (its decoder is where it is needed), the decoder goes there and the first
    /// two frames are uploaded into its textures, off the render threads; once per number.
    func prepare(_ video: VideoSource, from number: Int) {
        let key = ObjectIdentifier(video)
        guard preloads.withLock({ asked in asked[key] == number ? false : { asked[key] = number; return true }() }),
              !video.isShownNow, !stopped.withLock({ $0 }) else { return }
        // The videos stop after the job, and glout waits for it as it stops.
        let (graphics, preloading) = (graphics, preloading)
        preloading.enter()
        BackgroundWork.start(in: releases) {
            try? video.preload(from: number, count: 2, graphics: graphics)
            preloading.leave()
        }
    }

    /// Stops the decoders and deletes the textures now, on the caller's thread.
    func stopNow() {
        guard !stopped.withLock({ was in defer { was = true }; return was }) else { return }
        ShowVideos.release(videos, graphics: graphics, after: preloading)
    }

    /// Stops the decoders first, so that a preload waiting for a frame gives up at once,
    /// then waits for the preloads, then deletes the textures.
    private static func release(_ videos: [VideoSource], graphics: Graphics, after preloading: DispatchGroup) {
        for video in videos { video.stop() }
        preloading.wait()
        VideoSource.release(videos, graphics: graphics)
    }
}
