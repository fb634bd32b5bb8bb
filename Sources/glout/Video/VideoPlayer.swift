import Foundation
import WaylandOutputs

/// How one output plays the --content videos it shows: which frame each refresh shows
/// (the one of its target time, held to the video's cadence near a frame's edge:
/// ``CadenceHold``; judged by the refresh the output's frames show: ``MeasuredRefresh``),
/// the cadence it showed of each video, and the frame to draw with its colour matrix.
/// The choice of a frame is pure; ``show(_:content:frame:at:output:frozen:consumer:waiting:telemetry:)``
/// takes the frame from the video.
struct VideoPlayer {
    /// Y'CbCr to R'G'B' for video.frag (u_video0, u_video1): ``colourMatrix(bt709:fullRange:)``.
    typealias ColourMatrix = (Double, Double, Double, Double, Double, Double, Double, Double)

    /// The frame to draw, and its number.
    private(set) var picture: VideoFrame?
    private(set) var shownFrame: Int?
    private(set) var colourMatrix: ColourMatrix = (0, 0, 0, 0, 0, 0, 0, 0)
    /// What this output's refreshes showed of each video, by file.
    private var playback: [ObjectIdentifier: (cadence: VideoCadence, late: Int)] = [:]
    /// This output's refresh as its frames show it, which a video's cadence is judged by.
    private var measuredRefresh = MeasuredRefresh()
    /// The video frame this output shows and how long, held to its cadence near edges.
    private var hold = CadenceHold()

    /// Another playlist item starts, showing `video` (nil: not a video): its frame is
    /// taken anew, and the cadence of `video` counts a cut rather than a skip.
    mutating func cut(to video: VideoSource?) {
        shownFrame = nil
        hold = CadenceHold()
        if let video, let last = playback[ObjectIdentifier(video)] {
            playback[ObjectIdentifier(video)] = (last.cadence.cut(), last.late)
        }
    }

    /// Takes the frame of `video` this refresh's target time calls for (`position` on the
    /// content clock: scene time, or with --clock realtime CLOCK_REALTIME), keeps it to
    /// draw if it is another than the last, and counts the cadence. Whether it changed.
    /// `waiting`: how long (ms) to wait for the frame's decoding (a snapshot draws the
    /// exact frame; a window shows what is there).
    mutating func show(_ video: VideoSource, content: ContentRendering, frame: DisplayLinkFrame,
                       at position: (index: Int, local: Double, pass: Int), output: Output, frozen: Bool,
                       consumer: ObjectIdentifier, waiting: Double, telemetry: Telemetry?) -> Bool {
        // --video-sync speed: the video's time runs at the rate that holds each frame a
        // whole number of this output's refreshes.
        let refresh = Double(output.currentMode?.refreshMilliHertz ?? 0) / 1000
        let rate = content.videoSync.rate(framesPerSecond: video.timeline.framesPerSecond, refreshHertz: refresh)
        let (picture, late, refreshesPerFrame) = take(video, frame: frame, local: position.local, rate: rate, frozen: frozen,
                                                      consumer: consumer, waiting: waiting) {
            content.videoFrame(piece: position.index, local: $0, pass: position.pass)
        }
        let key = ObjectIdentifier(video)
        if let picture {
            var playback = playback[key] ?? (VideoCadence(), 0)
            if late { playback.late += 1 }
            telemetry?.recordVideoFrame(output.id, index: frame.index, number: picture.number)
            if let refreshesPerFrame { playback.cadence.refresh(showing: picture.number, refreshesPerFrame: refreshesPerFrame) }
            self.playback[key] = playback
        }
        guard let picture, picture.number != shownFrame else { return false }
        self.picture = picture
        shownFrame = picture.number
        colourMatrix = VideoPlayer.colourMatrix(bt709: picture.bt709, fullRange: picture.fullRange)
        if let playback = playback[key] {
            telemetry?.recordVideo(output.id, VideoPlayback(source: video, cadence: playback.cadence, lateRefreshes: playback.late))
        }
        return true
    }

    /// The frame of `video` that refresh `frame` shows, `local` seconds into it played at
    /// `rate` (``chooseFrame(refresh:at:nominal:local:rate:framesPerSecond:frozen:frameAt:)``,
    /// `frameAt` numbering the frames), as `consumer` has it from the decoder: nil before
    /// it has one, and whether it is older than the one called for. With it, how many
    /// refreshes a frame lasts.
    mutating func take(_ video: VideoSource, frame: DisplayLinkFrame, local: Double, rate: Double, frozen: Bool,
                       consumer: ObjectIdentifier, waiting: Double,
                       frameAt: (Double) -> Int) -> (picture: VideoFrame?, late: Bool, refreshesPerFrame: Double?) {
        let (number, refreshesPerFrame) = chooseFrame(
            refresh: frame.index, at: frame.timestamp.nanoseconds, nominal: Double(frame.duration.inNanoseconds), local: local,
            rate: rate, framesPerSecond: video.timeline.framesPerSecond, frozen: frozen, frameAt: frameAt)
        let (picture, late) = video.picture(for: number, consumer: consumer, now: frame.timestamp.nanoseconds, waiting: waiting)
        return (picture, late, refreshesPerFrame)
    }

    /// The number of the frame refresh `index`, which started at `nanoseconds` (the display
    /// link's period `nominal` ns), shows of a video of `framesPerSecond` played at `rate`:
    /// the frame at `local` seconds into it (`frameAt` of its time at the video's rate),
    /// held to the cadence within a quarter refresh of that (``CadenceHold``), or exactly
    /// that when `frozen`. With it, how many refreshes a frame lasts, by the refresh the
    /// frames show (nil where there is none to judge the cadence by).
    mutating func chooseFrame(refresh index: UInt64, at nanoseconds: UInt64, nominal: Double, local: Double,
                              rate: Double, framesPerSecond: Double, frozen: Bool,
                              frameAt: (Double) -> Int) -> (number: Int, refreshesPerFrame: Double?) {
        // The cadence is judged by the refresh the frame callbacks show, not the mode's.
        measuredRefresh.frame(index: index, nanoseconds: nanoseconds, nominal: nominal)
        let period = measuredRefresh.period(nominal: nominal) * 1e-9
        let refreshesPerFrame = period > 0 ? 1 / period / (framesPerSecond * rate) : 0
        guard !frozen, period > 0 else { return (frameAt(local * rate), period > 0 ? refreshesPerFrame : nil) }
        let margin = period / 4
        let number = hold.choose(early: frameAt((local - margin) * rate), exact: frameAt(local * rate),
                                 late: frameAt((local + margin) * rate), refreshesPerFrame: refreshesPerFrame)
        return (number, refreshesPerFrame)
    }

    /// Y'CbCr to R'G'B': the Y and chroma offsets and scales (texel values 0 to 1), then
    /// R from Cr, G from Cb and Cr, B from Cb, for BT.709 or BT.601.
    static func colourMatrix(bt709: Bool, fullRange: Bool) -> ColourMatrix {
        let (kr, kb) = bt709 ? (0.2126, 0.0722) : (0.299, 0.114)
        let kg = 1 - kr - kb
        let (yOffset, yScale, cScale) = fullRange ? (0.0, 1.0, 1.0) : (16.0 / 255, 255.0 / 219, 255.0 / 224)
        return (yOffset, yScale, 128.0 / 255, cScale,
                2 * (1 - kr), 2 * kb * (1 - kb) / kg, 2 * kr * (1 - kr) / kg, 2 * (1 - kb))
    }

    /// Writes the colour matrix of the frame to draw into u_video0 and u_video1.
    func writeColourMatrix(to block: FrameBlock) {
        let m = colourMatrix
        block.set(.video0, m.0, m.1, m.2, m.3)
        block.set(.video1, m.4, m.5, m.6, m.7)
    }
}
