import CGLES
import Foundation
import Glibc
import WaylandOutputs

/// Which picture an output shows.
enum SceneView: Sendable, Equatable {
    /// The primary's picture (also every output's in mirror).
    case control
    /// The secondaries' picture.
    case content
    /// Its part of the span canvas.
    case span
}

/// How one output's picture is placed: what overscan and safe area it has.
struct OutputFraming: Equatable, Sendable {
    var overscan: Overscan = .none
    /// Extra insets in points (--safe-area).
    var safeArea: Insets = .zero
}

/// Draws one output's picture: the control or the content view, full size or
/// letterboxed (mirror), laid out by ``SceneLayout``, or its part of the span canvas
/// (``SpanView``). Runs on the output's render thread.
///
/// llvmpipe shades every pixel on the CPU, so a view is drawn whole into a layer (an
/// RGBA8 texture) only when its layout or colours change; each frame shades again just
/// the regions that move (``SceneLayout/dynamicRegions(of:)``) into the layer, and copies
/// the layer to the output: where the output's framebuffer holds the last frame
/// (``RenderTarget/holdsPreviousFrame``), only those regions, which it names to the window
/// (``changedRegions(in:)``) so that only they are sent and recomposed.
final class SceneRenderer: OutputRenderer {
    private let scene: Scene
    private let programs: ScenePrograms
    private let framing: OutputFraming
    /// --content: what replaces the content view here (one piece, or a playlist's in
    /// turn), the piece this frame shows, and each image piece's texture.
    private let show: ContentRendering?
    private var content: ContentPiece?
    private var pieceIndex = 0
    private var imageTextures: [Int: GLuint] = [:]
    /// --content video: the frame this output shows (its textures are the video's, shared
    /// by every output that shows it: ``VideoTextures``), and this context's framebuffer
    /// around a BGRA frame's texture, to copy from.
    private var videoPicture: VideoPicture?
    private var videoReadFramebuffer: GLuint = 0
    /// The frame in RGB at the video's size, converted there from its planes and scaled
    /// into the picture from there, and which frame it holds.
    private var videoLayer = ColourLayer()
    private var videoLayerFrame: Int?
    /// The video frame the picture's layer holds (a frame drawn straight into the output
    /// is not in it).
    private var videoInLayer: Int?
    private var videoFrame: Int?
    private var videoMatrix: (Double, Double, Double, Double, Double, Double, Double, Double) = (0, 0, 0, 0, 0, 0, 0, 0)
    /// What this output's refreshes showed of each video, by file.
    private var videoPlayback: [ObjectIdentifier: (cadence: VideoCadence, late: Int)] = [:]
    /// This output's refresh as its frames show it, which a video's cadence is judged by.
    private var measuredRefresh = MeasuredRefresh()
    /// The video frame this output shows and how long, held to its cadence near edges.
    private var videoHold = CadenceHold()
    /// Extra time spent on every frame (--stall), to show that one slow output does not
    /// slow the others.
    private let stall: FrameStall
    private let block = FrameBlock()
    static let maxMarkers = 10
    /// rings.vert's mesh: two bands of 32 quads, six vertices each.
    static let ringVertexCount: Int32 = 2 * 32 * 6
    private var markerCount = 0
    /// The framebuffer pixels the markers cover: the marker pass draws there only.
    private var markerRegion = Rect(x: 0, y: 0, width: 0, height: 0)
    /// The dashboard (control view only), and the tiles it arranged for which outputs.
    private let telemetry: Telemetry?
    private var dashboard: Dashboard?
    private var arrangement: (count: Int, primaryIndex: Int) = (0, -1)
    private var arrangedFor: (UInt64, String?)?
    /// The layer: the picture, kept between frames, and what it was drawn whole for.
    private var still = ColourLayer()
    private var stillKey: StillKey?
    private var regions: [Rect] = []
    /// Where the dial's hand is in the layer (control view), nil right after the layer
    /// was drawn whole.
    private var handInLayer: Rect?
    /// Span: this output's part, and where the bar is in the layer.
    private var spanView: SpanView?
    private var barInLayer: Rect?
    /// The content view's rings: drawn each frame over the backdrop (the picture without
    /// them), not shaded again with the colour fields under them; nil in other views.
    private var ringsRegion: Rect?
    /// The content view's pacing bar: where this frame puts it, and where it is in the layer.
    private var pacingBarX = 0.0
    private var pacingBarInLayer: Rect?
    /// What this frame changed in the output's framebuffer (``changedRegions(in:)``), and
    /// whether that is everything.
    private var changed: [Rect] = []
    private var changedEverything = true
    /// The size of the last frame copied from the layer into the output's framebuffer,
    /// with the markers and whether the names were drawn over it there.
    private var presentedSize: Size?
    private var markersInOutput: Rect?
    private var identifiedInOutput = false
    /// The target of the last frame, to tell how late it landed when the next starts.
    private var lastFrame: (index: UInt64, target: MonotonicInstant)?
    /// The control view's layer as it was before any live dashboard part was drawn on it:
    /// each frame the live parts are copied back from here rather than shaded again.
    private var backdrop = ColourLayer()
    /// The content view's label and the large names of --identify (made at the first
    /// frame, in the window's context).
    private lazy var identification = Identification()
    /// The framebuffer the picture goes to: the target's (the window's, or a snapshot's).
    private var outputFramebuffer: GLuint = 0
    /// The first frame is drawn straight into the output's framebuffer, not through the
    /// layer, and without text: llvmpipe compiles its blit path for a new context on the
    /// first blit (30 ms or more) and the text shader for the window's format (about
    /// 5 ms), which the first frame need not wait for (BENCHMARKS.md, "Time to the first
    /// frame"). The second frame, drawn even when the picture stands still, draws the
    /// layer whole, text and all. Snapshots turn this off: they draw one complete frame.
    var drawsFirstFrameFast = true
    private lazy var direct = drawsFirstFrameFast
    /// Where this frame's picture is drawn: the layer, or for the first frame the output.
    private var drawingFramebuffer: GLuint { direct ? outputFramebuffer : still.framebuffer }
    /// Whether the next frame would differ from the last (see ``Scene/State/standsStill``).
    private(set) var isAnimating = true
    /// GLOUT_DUMP_FRAMES=DIR, for tests on compositors that offer no screenshots: every
    /// time the still picture is drawn again, the window's pixels (what glout commits)
    /// are written to DIR/NAME.png.
    private static let dumpFolder = ProcessInfo.processInfo.environment["GLOUT_DUMP_FRAMES"]

    /// Everything the still picture depends on.
    private struct StillKey: Equatable {
        var view: SceneView
        var layout: SceneLayout
        var width: Int32
        var height: Int32
        var accent: RGB
        var frozen: Double?
        var dashboard: UInt64
        var primary: String?
        var layoutMode: LayoutMode
        var span: SpanView?
        var mode: OutputMode?
        var pixelsPerPoint: Double
        /// The playlist's item.
        var piece: Int
    }

    init(scene: Scene, programs: ScenePrograms, framing: OutputFraming = OutputFraming(), content: ContentRendering? = nil,
         telemetry: Telemetry? = nil, stall: FrameStall = FrameStall()) {
        self.scene = scene
        show = content
        self.telemetry = telemetry
        self.programs = programs
        self.framing = framing
        self.stall = stall
    }

    deinit {
        for var texture in imageTextures.values { glDeleteTextures(1, &texture) }
        if videoReadFramebuffer != 0 { glDeleteFramebuffers(1, &videoReadFramebuffer) }
        for piece in show?.pieces ?? [] { piece.video?.forget(ObjectIdentifier(self)) }
        videoLayer.delete()
        backdrop.delete()
        still.delete()
    }

    /// Which view an output shows, and its layout in the target.
    static func placement(of output: Output, target: RenderTarget, state: Scene.State,
                          framing: OutputFraming = OutputFraming()) -> (view: SceneView, layout: SceneLayout) {
        let own = SceneLayout.make(area: target.picture, pixelsPerPoint: target.pixelsPerPoint,
                                   overscan: framing.overscan, safeArea: framing.safeArea)
        switch state.layout {
        case .independent:
            return (output.name == state.primary && state.showsControl ? .control : .content, own)
        case .span:
            // A part of the wall is exact: no overscan or safe area moves it.
            if state.span.part(machine: state.machine, name: output.name) != nil {
                return (.span, .make(area: target.picture, pixelsPerPoint: target.pixelsPerPoint))
            }
            return (output.name == state.primary && state.showsControl ? .control : .content, own)
        case .mirror:
            // The primary's picture, laid out as on the primary, letterboxed here.
            let primary = state.primaryPixelSize
            let classSize = (Double(primary.width) / state.primaryPixelsPerPoint,
                             Double(primary.height) / state.primaryPixelsPerPoint)
            return (.control, .make(area: target.picture, aspect: primary, pixelsPerPoint: target.pixelsPerPoint,
                                    classSize: classSize, overscan: framing.overscan, safeArea: framing.safeArea))
        }
    }

    /// --stall's extra work, outside the GL calls (which may run one window at a time),
    /// and what the dashboard shows: when this frame started and how late the last landed
    /// (the frame callback that started this frame came when the compositor used it).
    func prepare(_ frame: DisplayLinkFrame, in target: RenderTarget) {
        stall.wait()
        var landing: Int64?
        if let last = lastFrame, frame.index == last.index + 1 {
            landing = Int64(bitPattern: frame.timestamp.nanoseconds &- last.target.nanoseconds)
        }
        lastFrame = (frame.index, frame.targetTimestamp)
        telemetry?.record(target.output, timestamp: frame.timestamp.nanoseconds, landing: landing)
    }

    func render(_ frame: DisplayLinkFrame, in target: RenderTarget) throws {
        outputFramebuffer = target.framebuffer
        let state = scene.snapshot
        let (view, layout) = arrange(target: target, state: state)
        // --content replaces the content view, and on the span the test pattern: placed
        // on the whole canvas, of which each part shows its own piece. A playlist's item
        // is the one of the refresh's target time on the content clock.
        let contentTime = state.spanTime(at: frame.targetTimestamp)
        let position = show?.piece(at: contentTime) ?? (index: 0, local: contentTime, pass: 0)
        if let show {
            let index = position.index
            if index != pieceIndex || content == nil {
                // Another item: its video's frame is uploaded anew.
                (pieceIndex, content, videoFrame, videoLayerFrame, videoInLayer) = (index, show.pieces[index], nil, nil, nil)
                videoHold = CadenceHold()
                if let video = content?.video, let last = videoPlayback[ObjectIdentifier(video)] {
                    videoPlayback[ObjectIdentifier(video)] = (last.cadence.cut(), last.late)
                }
            }
            if let (video, first) = show.nextVideoStart(after: contentTime, current: index), video !== content?.video {
                video.prepare(first)
            }
        }
        let custom = view == .content || view == .span ? content : nil
        let program = switch view {
        case .control: try programs.control
        case .content: try custom?.program ?? programs.content
        case .span: try custom?.program ?? programs.span
        }
        let accent = view == .control ? state.accent : state.contentAccent
        spanView = view == .span ? SceneRenderer.spanView(of: target, state: state) : nil
        let video = custom?.video
        let newVideoFrame = video.map {
            showVideo($0, frame: frame, at: position, output: target.output, frozen: state.frozen != nil)
        } ?? false
        setUniforms(frame: frame, target: target, layout: layout, state: state, accent: accent)
        let key = StillKey(view: view, layout: layout, width: target.pixelSize.width, height: target.pixelSize.height,
                           accent: accent, frozen: state.frozen, dashboard: view == .control ? telemetry?.generation ?? 0 : 0,
                           primary: state.primary, layoutMode: state.layout, span: spanView,
                           mode: target.output.currentMode, pixelsPerPoint: target.pixelsPerPoint, piece: pieceIndex)
        let drawsDashboard = view == .control && dashboard != nil
        let identifies = state.identifies(at: frame.timestamp)
        // The frame after the names went away draws without them, then may rest; so
        // does the frame after the fast first one.
        let standsStill = custom != nil && show?.standsStill == true
        isAnimating = !state.standsStill(view, dashboard: drawsDashboard, image: standsStill) || identifies
            || direct
        let redrawn = key != stillKey
        if redrawn {
            try drawStill(program: program, view: view, layout: layout, state: state, target: target, dashboard: drawsDashboard)
            stillKey = key
            videoInLayer = nil
        }
        if video != nil {
            // The video's frame goes in below, when it changed or the layer was drawn anew.
            regions = []
        }
        let drawsLive = drawsDashboard && state.live && !direct
        // Only the regions drawn again go to the output, where it holds the last frame and
        // nothing over the whole of it changes.
        changed.removeAll(keepingCapacity: true)
        changedEverything = redrawn || direct || !target.holdsPreviousFrame || presentedSize != target.pixelSize
            || identifies || identifiedInOutput
        if drawsLive {
            restoreLiveRegions(target: target)
            for (_, region) in dashboard!.liveRegions { changed.append(region) }
        }
        shadeMovingParts(program: program, rings: ringsRegion == nil ? 0 : try programs.rings, view: view, layout: layout,
                         time: state.time(at: frame.timestamp),
                         spanTime: state.spanTime(at: frame.targetTimestamp), target: target)
        // Where the output's buffer holds the last frame and nothing goes over the video, a
        // new video frame is drawn straight into it, after the copy from the layer: no
        // layer and no copy of it (BENCHMARKS.md, "Video"). The layer catches up when a
        // frame needs it.
        let straight = video != nil && newVideoFrame && !changedEverything && markerCount == 0 && markersInOutput == nil
            && identification.labelBox == nil && !drawsLive
        if let video, videoPicture != nil, !straight, videoFrame != videoInLayer {
            placeVideo(video, layout: layout, target: target, into: drawingFramebuffer)
            videoInLayer = videoFrame
        }
        if drawsLive {
            glUseProgram(try programs.text)
            dashboard!.drawLive(layout: layout, state: state, target: target, now: frame.timestamp.nanoseconds)
        }
        if identification.labelBox != nil {
            glUseProgram(try programs.text)
            identification.drawLabel(frame: UInt64(SceneRenderer.frameNumber(frame, state: state)), layout: layout, target: target)
        }
        if direct {
            direct = false
            stillKey = nil
            presentedSize = nil
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), outputFramebuffer)
        } else {
            // The markers of the last frame are wiped by the copy of their region.
            if let markersInOutput { changed.append(markersInOutput) }
            present(target: target)
            presentedSize = target.pixelSize
            if straight, let video { placeVideo(video, layout: layout, target: target, into: outputFramebuffer) }
        }
        markersInOutput = nil
        if markerCount > 0 {
            try drawMarkers(layout: layout, target: target)  // its region is in `changed` (shade)
            markersInOutput = markerRegion
        }
        identifiedInOutput = identifies
        if identifies {
            glUseProgram(try programs.text)
            identification.drawOverlay(target: target, state: state)
        }
        if redrawn, let folder = SceneRenderer.dumpFolder { dump(target: target, into: folder) }
    }

    /// Makes the --content image's texture (once per piece) and binds it to unit 0 for
    /// image.frag.
    private func bindImage(_ image: ContentImage) {
        glActiveTexture(GLenum(GL_TEXTURE0))
        var imageTexture = imageTextures[pieceIndex] ?? 0
        if imageTexture == 0 {
            glGenTextures(1, &imageTexture)
            imageTextures[pieceIndex] = imageTexture
            glBindTexture(GLenum(GL_TEXTURE_2D), imageTexture)
            for parameter in [GL_TEXTURE_MIN_FILTER, GL_TEXTURE_MAG_FILTER] {
                glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(parameter), GL_LINEAR)
            }
            for parameter in [GL_TEXTURE_WRAP_S, GL_TEXTURE_WRAP_T] {
                glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(parameter), GL_CLAMP_TO_EDGE)
            }
            glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
            glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(image.width), GLsizei(image.height), 0, GLenum(GL_RGBA),
                         GLenum(GL_UNSIGNED_BYTE), image.pixels)
        }
        glBindTexture(GLenum(GL_TEXTURE_2D), imageTexture)
    }

    /// Takes the frame of the video this refresh's target time calls for (on the content
    /// clock: scene time, or with --clock realtime CLOCK_REALTIME; held to its cadence
    /// within a quarter refresh of that near a frame's edge), keeps it to draw if it is
    /// another than the last, and counts the cadence. Whether it changed.
    private func showVideo(_ video: VideoSource, frame: DisplayLinkFrame, at position: (index: Int, local: Double, pass: Int),
                           output: Output, frozen: Bool) -> Bool {
        let (index, local, pass) = position
        // --video-sync speed: the video's time runs at the rate that holds each frame a
        // whole number of this output's refreshes.
        let refresh = Double(output.currentMode?.refreshMilliHertz ?? 0) / 1000
        let rate = show!.videoSync.rate(framesPerSecond: video.timeline.framesPerSecond, refreshHertz: refresh)
        // The cadence is judged by the refresh the frame callbacks show, not the mode's.
        let nominal = Double(frame.duration.components.seconds) * 1e9 + Double(frame.duration.components.attoseconds) * 1e-9
        measuredRefresh.frame(index: frame.index, nanoseconds: frame.timestamp.nanoseconds, nominal: nominal)
        let period = measuredRefresh.period(nominal: nominal) * 1e-9
        let refreshesPerFrame = period > 0 ? 1 / period / (video.timeline.framesPerSecond * rate) : 0
        // The frame of the target time, held to the cadence within a quarter refresh of
        // it (CadenceHold); a frozen time is exact.
        let number: Int
        if frozen || period <= 0 {
            number = show!.videoFrame(piece: index, local: local * rate, pass: pass)
        } else {
            let margin = period / 4
            number = videoHold.choose(early: show!.videoFrame(piece: index, local: (local - margin) * rate, pass: pass),
                                      exact: show!.videoFrame(piece: index, local: local * rate, pass: pass),
                                      late: show!.videoFrame(piece: index, local: (local + margin) * rate, pass: pass),
                                      refreshesPerFrame: refreshesPerFrame)
        }
        // A snapshot draws the exact frame; a window shows what is there.
        let (picture, late) = video.picture(for: number, consumer: ObjectIdentifier(self), now: frame.timestamp.nanoseconds,
                                            waiting: drawsFirstFrameFast ? 0 : 5)
        let key = ObjectIdentifier(video)
        if let picture {
            var playback = videoPlayback[key] ?? (VideoCadence(), 0)
            if late { playback.late += 1 }
            telemetry?.recordVideoFrame(output.id, index: frame.index, number: picture.number)
            if period > 0 { playback.cadence.refresh(showing: picture.number, refreshesPerFrame: refreshesPerFrame) }
            videoPlayback[key] = playback
        }
        guard let picture, picture.number != videoFrame else { return false }
        videoPicture = picture
        videoFrame = picture.number
        videoMatrix = SceneRenderer.colourMatrix(bt709: picture.bt709, fullRange: picture.fullRange)
        if let playback = videoPlayback[key] {
            telemetry?.recordVideo(output.id, VideoPlayback(source: video, cadence: playback.cadence, lateRefreshes: playback.late))
        }
        return true
    }

    /// Y'CbCr to R'G'B': the Y and chroma offsets and scales (texel values 0 to 1), then
    /// R from Cr, G from Cb and Cr, B from Cb, for BT.709 or BT.601.
    static func colourMatrix(bt709: Bool, fullRange: Bool)
        -> (Double, Double, Double, Double, Double, Double, Double, Double) {
        let (kr, kb) = bt709 ? (0.2126, 0.0722) : (0.299, 0.114)
        let kg = 1 - kr - kb
        let (yOffset, yScale, cScale) = fullRange ? (0.0, 1.0, 1.0) : (16.0 / 255, 255.0 / 219, 255.0 / 224)
        return (yOffset, yScale, 128.0 / 255, cScale,
                2 * (1 - kr), 2 * kb * (1 - kb) / kg, 2 * kr * (1 - kr) / kg, 2 * (1 - kb))
    }

    /// Draws the frame's planes as RGB (video.frag) into `rect` (framebuffer pixels,
    /// bottom left origin) of the bound framebuffer.
    private func convertVideo(_ planes: VideoTextures.Binding, into rect: (x: Int32, y: Int32, width: Int32, height: Int32)) {
        glViewport(rect.x, rect.y, rect.width, rect.height)
        glUseProgram(content!.program)
        block.bind()
        for (i, texture) in planes.textures.enumerated() {
            glActiveTexture(GLenum(GL_TEXTURE0 + Int32(i)))
            glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        }
        glActiveTexture(GLenum(GL_TEXTURE0))
        glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
    }

    /// Binds this context's framebuffer around the BGRA frame's shared texture for reading,
    /// attached anew each time so that what another context uploaded is what it reads.
    private func bindForReading(_ frame: VideoTextures.Binding) {
        if videoReadFramebuffer == 0 { glGenFramebuffers(1, &videoReadFramebuffer) }
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), videoReadFramebuffer)
        glFramebufferTexture2D(GLenum(GL_READ_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D),
                               frame.bgra ?? 0, 0)
    }

    /// Puts the video's frame into `framebuffer` (the layer, or the output's) where
    /// --scale-mode puts it in the picture, within the canvas, and names that region as
    /// changed: at the video's own size copied (BGRA) or converted (planes) straight
    /// there; at another, scaled by a filtered blit from the frame (BGRA), or from the
    /// video's layer, which the planes are converted into at their own size (once per
    /// frame). The frame's textures are the video's own (``VideoTextures``).
    private func placeVideo(_ video: VideoSource, layout: SceneLayout, target: RenderTarget, into framebuffer: GLuint) {
        guard let picture = videoPicture, let shown = videoFrame else { return }
        let canvas = layout.canvas
        let place = contentPlacement(width: video.width, height: video.height, layout: layout)
        let (x0, y0) = (Int32((Double(canvas.x) + place.x).rounded()), Int32((Double(canvas.y) + place.y).rounded()))
        let (x1, y1) = (Int32((Double(canvas.x) + place.x + place.width).rounded()),
                        Int32((Double(canvas.y) + place.y + place.height).rounded()))
        let visible = Rect(x: max(x0, canvas.x), y: max(y0, canvas.y), width: min(x1, canvas.maxX) - max(x0, canvas.x),
                           height: min(y1, canvas.maxY) - max(y0, canvas.y))
        guard visible.width > 0, visible.height > 0 else { return }
        let height = target.pixelSize.height
        let (width, tall) = (Int32(picture.width), Int32(picture.height))
        // Top left (x0, y0) in picture pixels is (x0, height - y0) in the framebuffer.
        let destination = (x: x0, y: height - y1, width: x1 - x0, height: y1 - y0)
        let clip = visible.flippedY(containerHeight: height)
        let unscaled = destination.width == width && destination.height == tall
        let reader = ObjectIdentifier(self)
        // The shared textures only where this frame reads them: a scaled frame converted
        // into the video's layer before reads that.
        var frame: VideoTextures.Binding?
        if picture.form == .bgra || unscaled || videoLayerFrame != shown {
            frame = video.textures.bind(picture, reader: reader)
        }
        if let frame, picture.form == .bgra {
            // A copy of the visible part: at its own size a plain one (no scissor, no
            // scaling, the same format, which llvmpipe does as a memory copy), else filtered.
            bindForReading(frame)
            glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), framebuffer)
            if unscaled {
                let (sx, sy) = (clip.x - destination.x, clip.y - destination.y)
                glBlitFramebuffer(sx, sy, sx + clip.width, sy + clip.height, clip.x, clip.y, clip.maxX, clip.maxY,
                                  GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(GL_NEAREST))
            } else {
                glEnable(GLenum(GL_SCISSOR_TEST))
                glScissor(clip.x, clip.y, clip.width, clip.height)
                glBlitFramebuffer(0, 0, width, tall, destination.x, destination.y, x1, height - y0,
                                  GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(GL_LINEAR))
                glDisable(GLenum(GL_SCISSOR_TEST))
            }
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        } else if let frame, unscaled {
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
            glEnable(GLenum(GL_SCISSOR_TEST))
            glScissor(clip.x, clip.y, clip.width, clip.height)
            convertVideo(frame, into: destination)
            glDisable(GLenum(GL_SCISSOR_TEST))
        } else {
            if let frame {
                videoLayer.allocate(width: width, height: tall, bgra: target.storesBGRA)
                glBindFramebuffer(GLenum(GL_FRAMEBUFFER), videoLayer.framebuffer)
                convertVideo(frame, into: (0, 0, width, tall))
                videoLayerFrame = shown
            }
            glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), videoLayer.framebuffer)
            glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), framebuffer)
            glEnable(GLenum(GL_SCISSOR_TEST))
            glScissor(clip.x, clip.y, clip.width, clip.height)
            glBlitFramebuffer(0, 0, width, tall, destination.x, destination.y, x1, height - y0,
                              GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(GL_LINEAR))
            glDisable(GLenum(GL_SCISSOR_TEST))
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        }
        if let frame { video.textures.finishedReading(frame, reader: reader) }
        changed.append(visible)
    }

    /// Where --content of `width` x `height` goes, in picture pixels from the canvas's top
    /// left, as --scale-mode places it: in the picture, or on the span where the whole
    /// canvas, at this part's density, is what it fills and this part one piece of it.
    private func contentPlacement(width: Int, height: Int, layout: SceneLayout)
        -> (x: Double, y: Double, width: Double, height: Double) {
        guard let spanView else {
            return ContentImage.placement(width: width, height: height, in: layout.canvas.size, mode: show!.scaleMode)
        }
        return spanView.placement(width: width, height: height, mode: show!.scaleMode)
    }

    /// Writes what the output's framebuffer holds now to `folder`/NAME.png.
    private func dump(target: RenderTarget, into folder: String) {
        let size = target.pixelSize, width = Int(size.width), height = Int(size.height)
        var bottomUp = [UInt8](repeating: 0, count: width * height * 4)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), outputFramebuffer)
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
        glReadPixels(0, 0, size.width, size.height, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), &bottomUp)
        var picture = Canvas(width: width, height: height, pixels: bottomUp)
        picture.flipVertically()
        // Whole or not at all: a reader never sees half a file.
        let path = folder + "/" + FileSystem.fileName(forOutput: target.output.name, id: target.output.id) + ".png"
        if (try? picture.writePNG(to: path + ".part")) != nil { rename(path + ".part", path) }
    }

    /// The view this output shows and its layout, with a tile per output the dashboard lists.
    private func arrange(target: RenderTarget, state: Scene.State) -> (SceneView, SceneLayout) {
        var (view, layout) = SceneRenderer.placement(of: target.output, target: target, state: state, framing: framing)
        if view == .control, let telemetry {
            let generation = telemetry.generation
            if dashboard == nil { dashboard = Dashboard(telemetry: telemetry) }
            if arrangedFor.map({ $0.0 != generation || $0.1 != state.primary }) ?? true {
                arrangement = dashboard!.arrange(primary: state.primary)
                arrangedFor = (generation, state.primary)
            }
        }
        layout.arrangeTiles(count: view == .control ? max(1, arrangement.count) : 4)
        return (view, layout)
    }

    /// The draft first frame of the control and content views, written by the CPU
    /// (``DraftPicture``); the span, custom content and snapshots draw theirs with GL.
    func drawDraft(_ frame: DisplayLinkFrame, into pixels: UnsafeMutableBufferPointer<UInt32>, in target: RenderTarget) -> Bool {
        guard drawsFirstFrameFast else { return false }
        let state = scene.snapshot
        let (view, layout) = arrange(target: target, state: state)
        guard view == .control || (view == .content && show == nil) else { return false }
        let time = state.time(at: frame.timestamp)
        let picture = DraftPicture(
            view: view, size: target.pixelSize, canvas: layout.canvas,
            accent: view == .control ? state.accent : state.contentAccent, time: time,
            pixelsPerPoint: target.pixelsPerPoint, bandHeight: layout.bandHeight,
            hand: SceneRenderer.handDirection(time: time), dial: layout.dial, tiles: layout.tiles,
            grid: (Double(layout.gridColumns), Double(layout.gridRows), Double(max(1, arrangement.count)),
                   Double(arrangement.primaryIndex)),
            rings: layout.rings, strip: layout.strip,
            barX: layout.pacingBarX(frame: SceneRenderer.frameNumber(frame, state: state), pixelsPerPoint: target.pixelsPerPoint))
        picture.draw(into: pixels)
        // The next frame is the whole one, drawn through the layer.
        direct = false
        return true
    }

    /// Draws the whole picture once into the layer, with the dashboard's still text.
    private func drawStill(program: GLuint, view: SceneView, layout: SceneLayout, state: Scene.State,
                           target: RenderTarget, dashboard drawsDashboard: Bool) throws {
        if !direct { still.allocate(width: target.pixelSize.width, height: target.pixelSize.height, bgra: target.storesBGRA) }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), drawingFramebuffer)
        glViewport(0, 0, target.pixelSize.width, target.pixelSize.height)
        glClearColor(0, 0, 0, 1)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        glUseProgram(program)
        // After the layer's allocation, which binds its own texture.
        if view != .control, let image = content?.image { bindImage(image) }
        setViewport(layout.canvas, target: target)
        // The content view's rings go over the picture without them, each frame.
        let ringsOverBackdrop = view == .content && content == nil && !direct
        if ringsOverBackdrop {
            block[FrameBlock.ringsLeftOut] = 1
            block.upload()
        }
        // A video's picture is black until its frame is placed over it (placeVideo).
        if !(view != .control && content?.video != nil) { glDrawArrays(GLenum(GL_TRIANGLES), 0, 3) }
        ringsRegion = nil
        if ringsOverBackdrop {
            block[FrameBlock.ringsLeftOut] = 0
            block.upload()
            keepBackdrop(width: target.pixelSize.width, height: target.pixelSize.height, bgra: target.storesBGRA)
            ringsRegion = layout.dynamicRegions(of: .content).first
            regions = []
        } else if view != .control, let content {
            // An image never moves; a shader may change every pixel every frame.
            regions = content.image != nil ? [] : [layout.canvas]
        } else {
            regions = (spanView.map { [$0.cells.offset(by: layout.canvas.origin)] } ?? layout.dynamicRegions(of: view))
                .filter { $0.width > 0 && $0.height > 0 }
        }
        handInLayer = nil
        barInLayer = nil
        pacingBarInLayer = nil
        let label = view == .content && state.label && content == nil && !direct
            ? identification.arrangeLabel(for: target, layout: layout, state: state) : identification.forgetLabel()
        if let label { regions.append(label) }
        if drawsDashboard && !direct {
            glUseProgram(try programs.text)
            dashboard!.drawStill(layout: layout, state: state, target: target)
            keepBackdrop(width: target.pixelSize.width, height: target.pixelSize.height, bgra: target.storesBGRA)
        }
    }

    /// Wipes last frame's rates and graphs: a copy from the backdrop, where shading the
    /// view there again cost llvmpipe a millisecond or more a frame.
    private func restoreLiveRegions(target: RenderTarget) {
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), backdrop.framebuffer)
        glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), still.framebuffer)
        for (_, region) in dashboard!.liveRegions { copy(region, height: target.pixelSize.height) }
    }

    /// Shades the moving regions again, into the layer: every pixel of a frame is made in
    /// the same RGBA8 texture, so a snapshot and the window get the same values.
    private func shadeMovingParts(program: GLuint, rings: GLuint, view: SceneView, layout: SceneLayout, time: Double,
                                  spanTime: Double, target: RenderTarget) {
        if let ringsRegion {
            // The rings' square from the backdrop, then this frame's rings over it, on
            // the bands where they cover anything (rings.vert; the layer's alpha stays 1).
            glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), backdrop.framebuffer)
            glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), still.framebuffer)
            copy(ringsRegion, height: target.pixelSize.height)
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), drawingFramebuffer)
            glUseProgram(rings)
            block.bind()
            setViewport(layout.canvas, target: target)
            glEnable(GLenum(GL_SCISSOR_TEST))
            glEnable(GLenum(GL_BLEND))
            glBlendFuncSeparate(GLenum(GL_SRC_ALPHA), GLenum(GL_ONE_MINUS_SRC_ALPHA), GLenum(GL_ZERO), GLenum(GL_ONE))
            shade(ringsRegion, target: target, vertices: SceneRenderer.ringVertexCount)
            glDisable(GLenum(GL_BLEND))
            glDisable(GLenum(GL_SCISSOR_TEST))
        }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), drawingFramebuffer)
        glUseProgram(program)
        block.bind()
        setViewport(layout.canvas, target: target)
        glEnable(GLenum(GL_SCISSOR_TEST))
        for region in regions { shade(region, target: target) }
        if view == .control {
            // The hand: where it was in the layer and where it is now.
            let hand = layout.dialHand(pointing: SceneRenderer.handDirection(time: time))
            shade(handInLayer.map { hand.union($0) } ?? hand, target: target)
            handInLayer = hand
        }
        if view == .content && content == nil {
            // The pacing bar: where it was in the layer and where it is now.
            let bar = layout.pacingBar(x: pacingBarX, pixelsPerPoint: target.pixelsPerPoint)
            if let old = pacingBarInLayer, old != bar { shade(old, target: target) }
            shade(bar, target: target)
            pacingBarInLayer = bar
        }
        if let spanView, content == nil {
            // The bar: where it was in the layer and where it is now (apart when it wraps).
            let bar = spanView.barRegion(barX: SpanView.barX(time: spanTime, canvasWidth: spanView.canvasSize.width))
                .offset(by: layout.canvas.origin)
            if let old = barInLayer, old != bar { shade(old, target: target) }
            shade(bar, target: target)
            barInLayer = bar
        }
        glDisable(GLenum(GL_SCISSOR_TEST))
    }

    /// Copies the layer to the output: all of it, or only the regions this frame changed.
    /// (Shading it with texelFetch instead took a third of the CPU at 1920x1080 on
    /// llvmpipe; the blit is a plain copy.)
    private func present(target: RenderTarget) {
        let size = target.pixelSize
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), still.framebuffer)
        glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), outputFramebuffer)
        if changedEverything {
            glBlitFramebuffer(0, 0, size.width, size.height, 0, 0, size.width, size.height,
                              GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(GL_NEAREST))
        } else {
            for region in changed { copy(region, height: size.height) }
        }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), outputFramebuffer)
    }

    /// Copies `region` (top left origin) of the bound read framebuffer to the same place
    /// in the bound draw framebuffer, both `height` pixels high.
    private func copy(_ region: Rect, height: Int32) {
        let r = region.flippedY(containerHeight: height)
        glBlitFramebuffer(r.x, r.y, r.maxX, r.maxY, r.x, r.y, r.maxX, r.maxY, GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(GL_NEAREST))
    }

    func changedRegions(in target: RenderTarget) -> [Rect]? {
        changedEverything ? nil : changed
    }

    /// The pointer and touch markers, on top of the copy, never into the layer.
    private func drawMarkers(layout: SceneLayout, target: RenderTarget) throws {
        glUseProgram(try programs.marker)
        block.bind()
        setViewport(layout.canvas, target: target)
        glEnable(GLenum(GL_BLEND))
        glBlendFunc(GLenum(GL_SRC_ALPHA), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        glEnable(GLenum(GL_SCISSOR_TEST))
        shade(markerRegion, target: target)
        glDisable(GLenum(GL_SCISSOR_TEST))
        glDisable(GLenum(GL_BLEND))
    }

    /// Draws the bound program into `region` of the bound framebuffer only: its vertex
    /// shader's `vertices` (fullscreen.vert's one triangle unless told).
    private func shade(_ region: Rect, target: RenderTarget, vertices: Int32 = 3) {
        guard region.width > 0, region.height > 0 else { return }
        changed.append(region)
        let flipped = region.flippedY(containerHeight: target.pixelSize.height)
        glScissor(flipped.x, flipped.y, flipped.width, flipped.height)
        glDrawArrays(GLenum(GL_TRIANGLES), 0, vertices)
    }

    /// The frame number the pacing bar and the label show: the frame's index, or where
    /// frame T x 60 would be when time is frozen at T, so a still picture is exact.
    static func frameNumber(_ frame: DisplayLinkFrame, state: Scene.State) -> Double {
        state.frozen.map { max(0, ($0 * 60).rounded(.down)) } ?? Double(frame.index)
    }

    /// The dial's hand turns once every 4 s; y grows downwards in picture pixels.
    static func handDirection(time: Double) -> (x: Double, y: Double) {
        let angle = time.truncatingRemainder(dividingBy: 4) / 4 * 2 * Double.pi
        return (sin(angle), -cos(angle))
    }

    private func setViewport(_ canvas: Rect, target: RenderTarget) {
        let gl = canvas.flippedY(containerHeight: target.pixelSize.height)
        glViewport(gl.x, gl.y, gl.width, gl.height)
    }

    /// Copies the freshly drawn layer, still text and all, into the backdrop.
    private func keepBackdrop(width: Int32, height: Int32, bgra: Bool) {
        backdrop.allocate(width: width, height: height, bgra: bgra)
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), still.framebuffer)
        glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), backdrop.framebuffer)
        glBlitFramebuffer(0, 0, width, height, 0, 0, width, height, GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(GL_NEAREST))
    }

    /// The span view of the output `target` is on, if the span has a part for it.
    static func spanView(of target: RenderTarget, state: Scene.State) -> SpanView? {
        guard let part = state.span.part(machine: state.machine, name: target.output.name) else { return nil }
        return SpanView(part: part.frame, canvasSize: state.span.size, pictureSize: target.picture.size)
    }

    private func setUniforms(frame: DisplayLinkFrame, target: RenderTarget, layout: SceneLayout, state: Scene.State,
                             accent: RGB) {
        let gl = layout.canvas.flippedY(containerHeight: target.pixelSize.height)
        // The span animates by the time the frame is meant to reach the screen.
        let time = spanView == nil ? state.time(at: frame.timestamp) : state.spanTime(at: frame.targetTimestamp)
        // A frozen picture is fully deterministic: the pacing bar stands where frame
        // T x 60 would put it.
        let frameIndex = SceneRenderer.frameNumber(frame, state: state)
        let hand = SceneRenderer.handDirection(time: time)
        let safe = layout.safe
        block.set(0, Double(gl.x), Double(gl.y), Double(gl.width), Double(gl.height))
        block.set(4, Double(accent.r), Double(accent.g), Double(accent.b), 1)
        block.set(8, time.truncatingRemainder(dividingBy: 3600), frameIndex, target.pixelsPerPoint, layout.bandHeight)
        pacingBarX = layout.pacingBarX(frame: frameIndex, pixelsPerPoint: target.pixelsPerPoint)
        block.set(12, hand.x, hand.y, 0, pacingBarX)  // the marker count goes in below
        block.set(16, layout.dial.x, layout.dial.y, layout.dial.radius, 0)
        block.set(20, layout.tiles.x, layout.tiles.y, layout.tiles.width, layout.tiles.height)
        block.set(24, layout.rings.x, layout.rings.y, layout.rings.radius, 0)
        let bands = RingBands(time: Float(time.truncatingRemainder(dividingBy: 3600)), radius: layout.rings.radius).uniform
        block.set(FrameBlock.ringBands, bands.0, bands.1, bands.2, bands.3)
        block.set(28, layout.strip.x, layout.strip.y, layout.strip.width, layout.strip.height)
        block.set(32, Double(safe.x - layout.canvas.x), Double(safe.y - layout.canvas.y), Double(safe.width), Double(safe.height))
        // Markers: points on the surface to pixels of the picture.
        let markers = state.markers[target.output.id] ?? []
        let count = min(markers.count, SceneRenderer.maxMarkers)
        block[14] = Float(count)
        markerCount = count
        let ppp = target.pixelsPerPoint
        markerRegion = Rect(x: 0, y: 0, width: 0, height: 0)
        for (i, marker) in markers.prefix(count).enumerated() {
            let x = marker.x * ppp - Double(layout.canvas.x), y = marker.y * ppp - Double(layout.canvas.y)
            let radius = (marker.kind == .pointer ? 12 : 26) * ppp
            // drawMarkers (canvas.glsl) reaches 1.5 line widths (radius / 10) past the radius.
            let reach = radius + 1.5 * max(1, radius / 10) + 1
            let covered = layout.pixels(x - reach, y - reach, 2 * reach, 2 * reach)
            markerRegion = i == 0 ? covered : markerRegion.union(covered)
            let base = 36 + i * 4
            block.set(base, x, y, radius, marker.kind == .pointer ? 0 : 1)
        }
        block.set(76, Double(layout.gridColumns), Double(layout.gridRows), Double(max(1, arrangement.count)),
                  Double(arrangement.primaryIndex))
        spanView?.write(to: block, time: time)
        if let image = content?.image {
            let place = contentPlacement(width: image.width, height: image.height, layout: layout)
            block.set(92, place.x, place.y, place.width, place.height)
        }
        if content?.video != nil {
            let m = videoMatrix
            block.set(FrameBlock.video, m.0, m.1, m.2, m.3)
            block.set(FrameBlock.video + 4, m.4, m.5, m.6, m.7)
        }
        block.upload()
    }
}

extension Rect {
    /// The rectangle moved by `origin`.
    func offset(by origin: Point) -> Rect { Rect(x: x + origin.x, y: y + origin.y, width: width, height: height) }
}
