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

/// Draws one output's picture as a stack of layers: the control or the content view,
/// full size or letterboxed (mirror), laid out by ``SceneLayout``, or its part of the span
/// canvas (``SpanView``), or --content (an image: ``ImageLayer``; a video:
/// ``VideoLayer``, played by ``VideoPlayer``; a shader), kept between frames with what
/// moves in it (``MovingParts``) in a ``PictureCache``, with the dashboard and the label;
/// over the copy in the output, the markers and names (``OverlayLayer``). Runs on the
/// output's render thread.
final class SceneRenderer: OutputRenderer {
    private let scene: Scene
    private let programs: ScenePrograms
    private let framing: OutputFraming
    /// --content: what replaces the content view here (one piece, or a playlist's in
    /// turn), and the piece this frame shows.
    private var show: ContentRendering?
    private var content: ContentPiece?
    private var pieceIndex = 0
    /// What the control API puts on the outputs, and the generation of it shown here (0:
    /// --content's).
    private let slots: ContentSlots?
    /// Screenshots the control API waits for.
    private let screenshots: Screenshots?
    private var contentGeneration: UInt64 = 0
    /// Where on the content clock the API's video or playlist began (0: --content's, and
    /// images and shaders, which keep the scene's clock).
    private var contentOrigin = 0.0
    /// Extra time spent on every frame (--stall), to show that one slow output does not
    /// slow the others.
    private let stall: FrameStall
    private let block = FrameBlock()
    private let cache = PictureCache()
    private let parts = MovingParts()
    private let image = ImageLayer()
    private let video = VideoLayer()
    private var player = VideoPlayer()
    private let overlay = OverlayLayer()
    /// The dashboard (control view only), and the tiles it arranged for which outputs.
    private let telemetry: Telemetry?
    private var dashboard: Dashboard?
    private var arrangement: (count: Int, primaryIndex: Int) = (0, -1)
    private var arrangedFor: (UInt64, String?)?
    /// Span: this output's part.
    private var spanView: SpanView?
    /// The target of the last frame, to tell how late it landed when the next starts.
    private var lastFrame: (index: UInt64, target: MonotonicInstant)?
    /// The content view's label and the large names of --identify (made at the first
    /// frame, in the window's context).
    private lazy var identification = Identification()
    /// The first frame is drawn straight into the output's framebuffer, not through the
    /// layer, and without text: llvmpipe compiles its blit path for a new context on the
    /// first blit (30 ms or more) and the text shader for the window's format (about
    /// 5 ms), which the first frame need not wait for (BENCHMARKS.md, "Time to the first
    /// frame"). The second frame, drawn even when the picture stands still, draws the
    /// layer whole, text and all. Snapshots turn this off (before their frame): they draw
    /// one complete frame.
    var drawsFirstFrameFast = true {
        didSet { cache.direct = drawsFirstFrameFast }
    }
    /// Whether the next frame would differ from the last (see ``Scene/State/standsStill``).
    private(set) var isAnimating = true

    init(scene: Scene, programs: ScenePrograms, framing: OutputFraming = OutputFraming(), content: ContentRendering? = nil,
         slots: ContentSlots? = nil, screenshots: Screenshots? = nil, telemetry: Telemetry? = nil,
         stall: FrameStall = FrameStall()) {
        self.scene = scene
        show = content
        self.slots = slots
        self.screenshots = screenshots
        self.telemetry = telemetry
        self.programs = programs
        self.framing = framing
        self.stall = stall
    }

    deinit {
        image.delete()
        for piece in show?.pieces ?? [] { piece.video?.forget(ObjectIdentifier(self)) }
        video.delete()
        cache.delete()
    }

    /// Which view an output shows, and its layout in the target.
    static func placement(of output: Output, target: RenderTarget, state: Scene.State,
                          framing: OutputFraming = OutputFraming()) -> (view: SceneView, layout: SceneLayout) {
        let own = SceneLayout.make(area: target.picture, pixelsPerPoint: target.pixelsPerPoint,
                                   overscan: framing.overscan, safeArea: framing.safeArea)
        let view = SceneRenderer.view(of: output.name, state: state)
        switch view {
        case .content:
            return (view, own)
        case .span:
            // A part of the wall is exact: no overscan or safe area moves it.
            return (.span, .make(area: target.picture, pixelsPerPoint: target.pixelsPerPoint))
        case .control where state.layout != .mirror:
            return (view, own)
        case .control:
            // The primary's picture, laid out as on the primary, letterboxed here.
            let primary = state.primaryPixelSize
            let classSize = (Double(primary.width) / state.primaryPixelsPerPoint,
                             Double(primary.height) / state.primaryPixelsPerPoint)
            return (.control, .make(area: target.picture, aspect: primary, pixelsPerPoint: target.pixelsPerPoint,
                                    classSize: classSize, overscan: framing.overscan, safeArea: framing.safeArea))
        }
    }

    /// Which view the output named shows.
    static func view(of output: String, state: Scene.State) -> SceneView {
        switch state.layout {
        case .mirror:
            return .control
        case .span where state.span.part(machine: state.machine, name: output) != nil:
            return .span
        case .span, .independent:
            return output == state.primary && state.showsControl ? .control : .content
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
        cache.outputFramebuffer = target.framebuffer
        // A cue's layout or primary from the first frame targeted at or after its instant.
        let state = scene.snapshot.resolved(at: frame.targetTimestamp)
        let (view, layout) = arrange(target: target, state: state)
        if view != .control { takeAssignedContent(frame, target: target, state: state) }
        // --content replaces the content view, and on the span the test pattern: placed
        // on the whole canvas, of which each part shows its own piece. A playlist's item
        // is the one of the refresh's target time on the content clock.
        let contentTime = max(0, state.spanTime(at: frame.targetTimestamp) - contentOrigin)
        let position = show?.piece(at: contentTime) ?? (index: 0, local: contentTime, pass: 0)
        turnPiece(to: position.index, at: contentTime)
        let custom = view == .content || view == .span ? content : nil
        let program = switch view {
        case .control: try programs.control
        case .content: try custom?.program ?? programs.content
        case .span: try custom?.program ?? programs.span
        }
        let accent = view == .control ? state.accent : state.contentAccent
        spanView = view == .span ? SceneRenderer.spanView(of: target, state: state) : nil
        let source = custom?.video
        let newVideoFrame = source.map {
            player.show($0, content: show!, frame: frame, at: position, output: target.output, frozen: state.frozen != nil,
                        consumer: ObjectIdentifier(self), waiting: drawsFirstFrameFast ? 0 : 5, telemetry: telemetry)
        } ?? false
        setUniforms(frame: frame, target: target, layout: layout, state: state, accent: accent)
        let key = PictureCache.StillKey(
            view: view, layout: layout, width: target.pixelSize.width, height: target.pixelSize.height, accent: accent,
            frozen: state.frozen, dashboard: view == .control ? telemetry?.generation ?? 0 : 0, primary: state.primary,
            layoutMode: state.layout, span: spanView, mode: target.output.currentMode,
            pixelsPerPoint: target.pixelsPerPoint, piece: pieceIndex, content: contentGeneration)
        let drawsDashboard = view == .control && dashboard != nil
        let identifies = state.identifies(at: frame.timestamp)
        // The frame after the names went away draws without them, then may rest; so
        // does the frame after the fast first one.
        let standsStill = custom != nil && show?.standsStill == true
        // A cue due soon is taken at its refresh: a still output draws on until then.
        let cueSoon = slots?.isDue(for: target.output.name, after: frame.targetTimestamp, within: 0.5) ?? false
        isAnimating = !state.standsStill(view, dashboard: drawsDashboard, image: standsStill) || identifies
            || cache.direct || cueSoon
        let redrawn = !cache.holds(key)
        if redrawn {
            try drawStill(program: program, view: view, layout: layout, state: state, target: target, dashboard: drawsDashboard)
            cache.stillDrawn(for: key)
            video.inLayer = nil
        }
        // A video's frame goes in below, when it changed or the layer was drawn anew.
        if source != nil { parts.leaveRegionsStill() }
        let drawsLive = drawsDashboard && state.live && !cache.direct
        // Only the regions drawn again go to the output, where it holds the last frame and
        // nothing over the whole of it changes.
        cache.startFrame(redrawn: redrawn, everything: identifies || overlay.identifiedInOutput, target: target)
        if drawsLive { cache.restore(dashboard!.liveRegions, target: target) }
        parts.shade(program: program, rings: parts.drawsRings ? try programs.rings : 0, view: view, layout: layout,
                    spanView: spanView, ownContent: content == nil, time: state.time(at: frame.timestamp),
                    spanTime: state.spanTime(at: frame.targetTimestamp), target: target, cache: cache, block: block)
        // Where the output's buffer holds the last frame and nothing goes over the video, a
        // new video frame is drawn straight into it, after the copy from the layer: no
        // layer and no copy of it (BENCHMARKS.md, "Video"). The layer catches up when a
        // frame needs it.
        let straight = source != nil && newVideoFrame && cache.changedRegions != nil && overlay.markerCount == 0
            && overlay.markersInOutput == nil && identification.labelBox == nil && !drawsLive
        if let source, player.picture != nil, !straight, player.shownFrame != video.inLayer {
            placeVideo(source, layout: layout, target: target, into: cache.drawingFramebuffer)
            video.inLayer = player.shownFrame
        }
        try drawText(frame: frame, layout: layout, state: state, target: target, live: drawsLive)
        try finish(layout: layout, state: state, target: target, straight: straight ? source : nil,
                   identifies: identifies, redrawn: redrawn)
    }

    /// The content the control API gave this output, from this frame on when it is new and
    /// the output shows content (the control view takes it once it gives way): what the
    /// last showed is forgotten (its textures, its video's frames). A video or playlist
    /// starts at its beginning.
    private func takeAssignedContent(_ frame: DisplayLinkFrame, target: RenderTarget, state: Scene.State) {
        guard let assignment = slots?.take(for: target.output.name, at: frame.targetTimestamp, frame: frame.index,
                                           showing: contentGeneration) else { return }
        for piece in show?.pieces ?? [] { piece.video?.forget(ObjectIdentifier(self)) }
        (show, content, pieceIndex, contentGeneration) = (assignment.rendering, nil, 0, assignment.generation)
        contentOrigin = assignment.rendering.playsFromStart ? state.spanTime(at: assignment.origin) : 0
        image.delete()
        video.forgetFrames()
        player.cut(to: nil)
    }

    /// Another playlist item, when the content clock has reached it: its video's frame is
    /// uploaded anew; and the next item's video is readied where it is another.
    private func turnPiece(to index: Int, at contentTime: Double) {
        guard let show else { return }
        if index != pieceIndex || content == nil {
            (pieceIndex, content) = (index, show.pieces[index])
            video.forgetFrames()
            player.cut(to: content?.video)
        }
        if let (next, first) = show.nextVideoStart(after: contentTime, current: index), next !== content?.video {
            next.prepare(first)
        }
    }

    /// The text drawn each frame into the picture: the dashboard's live parts, the label.
    private func drawText(frame: DisplayLinkFrame, layout: SceneLayout, state: Scene.State, target: RenderTarget,
                          live: Bool) throws {
        if live {
            glUseProgram(try programs.text)
            dashboard!.drawLive(layout: layout, state: state, target: target, now: frame.timestamp.nanoseconds)
        }
        if identification.labelBox != nil {
            glUseProgram(try programs.text)
            identification.drawLabel(frame: UInt64(SceneRenderer.frameNumber(frame, state: state)), layout: layout, target: target)
        }
    }

    /// Puts the picture in the output: the first frame is there already; the others are
    /// copied from the layer, then a video's new frame drawn `straight` there; then what
    /// goes over it, and the dump of a picture drawn anew.
    private func finish(layout: SceneLayout, state: Scene.State, target: RenderTarget, straight: VideoSource?,
                        identifies: Bool, redrawn: Bool) throws {
        if cache.direct {
            cache.endDirectFrame()
        } else {
            // The markers of the last frame are wiped by the copy of their region.
            if let markersInOutput = overlay.markersInOutput { cache.record(markersInOutput) }
            cache.present(target: target)
            if let straight { placeVideo(straight, layout: layout, target: target, into: cache.outputFramebuffer) }
        }
        try overlay.draw(identifies: identifies, identification: identification, layout: layout, state: state,
                         target: target, programs: programs, block: block, cache: cache)
        if redrawn, let dump = FrameDump.requested { dump.write(cache.outputFramebuffer, of: target) }
        if let screenshots, screenshots.isWaiting(for: target.output.name) {
            screenshots.deliver(FrameDump.read(cache.outputFramebuffer, of: target), for: target.output.name)
        }
    }

    /// Puts the video's frame to draw into `framebuffer` (the layer, or the output's) where
    /// --scale-mode puts it.
    private func placeVideo(_ source: VideoSource, layout: SceneLayout, target: RenderTarget, into framebuffer: GLuint) {
        guard let picture = player.picture, let shown = player.shownFrame else { return }
        let place = ImageLayer.placement(width: source.width, height: source.height, layout: layout, spanView: spanView,
                                         mode: show!.scaleMode)
        video.place(picture, frame: shown, of: source, reader: ObjectIdentifier(self), at: place, layout: layout,
                    target: target, into: framebuffer, program: content!.program, block: block, cache: cache)
    }

    func changedRegions(in target: RenderTarget) -> [Rect]? {
        cache.changedRegions
    }

    /// The frame number the pacing bar and the label show: the frame's index, or where
    /// frame T x 60 would be when time is frozen at T, so a still picture is exact.
    static func frameNumber(_ frame: DisplayLinkFrame, state: Scene.State) -> Double {
        state.frozen.map { max(0, ($0 * 60).rounded(.down)) } ?? Double(frame.index)
    }

    /// The span view of the output `target` is on, if the span has a part for it.
    static func spanView(of target: RenderTarget, state: Scene.State) -> SpanView? {
        guard let part = state.span.part(machine: state.machine, name: target.output.name) else { return nil }
        return SpanView(part: part.frame, canvasSize: state.span.size, pictureSize: target.picture.size)
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
    /// (``DraftFrame``); the span, custom content and snapshots draw theirs with GL.
    func drawDraft(_ frame: DisplayLinkFrame, into pixels: UnsafeMutableBufferPointer<UInt32>, in target: RenderTarget) -> Bool {
        guard drawsFirstFrameFast else { return false }
        let state = scene.snapshot
        let (view, layout) = arrange(target: target, state: state)
        guard view == .control || (view == .content && show == nil) else { return false }
        let time = state.time(at: frame.timestamp)
        let picture = DraftFrame(
            view: view, size: target.pixelSize, canvas: layout.canvas,
            accent: view == .control ? state.accent : state.contentAccent, time: time,
            pixelsPerPoint: target.pixelsPerPoint, bandHeight: layout.bandHeight,
            hand: MovingParts.handDirection(time: time), dial: layout.dial, tiles: layout.tiles,
            grid: (Double(layout.gridColumns), Double(layout.gridRows), Double(max(1, arrangement.count)),
                   Double(arrangement.primaryIndex)),
            rings: layout.rings, strip: layout.strip,
            barX: layout.pacingBarX(frame: SceneRenderer.frameNumber(frame, state: state), pixelsPerPoint: target.pixelsPerPoint))
        picture.draw(into: pixels)
        // The next frame is the whole one, drawn through the layer.
        cache.direct = false
        return true
    }

    /// Draws the whole picture once into the layer, with the dashboard's still text.
    private func drawStill(program: GLuint, view: SceneView, layout: SceneLayout, state: Scene.State,
                           target: RenderTarget, dashboard drawsDashboard: Bool) throws {
        // The content view's rings go over the picture without them, each frame; a video's
        // picture is black until its frame is placed over it (placeVideo).
        let ringsOverBackdrop = view == .content && content == nil && !cache.direct
        let custom = view != .control ? content : nil
        cache.drawStill(program: program, layout: layout, target: target, block: block, draws: custom?.video == nil,
                        ringsLeftOut: ringsOverBackdrop) {
            if let image = custom?.image { self.image.bind(image, piece: pieceIndex) }
        }
        parts.stillDrawn(view: view, layout: layout, content: content, spanView: spanView, ringsOverBackdrop: ringsOverBackdrop)
        let label = view == .content && state.label && content == nil && !cache.direct
            ? identification.arrangeLabel(for: target, layout: layout, state: state) : identification.forgetLabel()
        if let label { parts.add(label: label) }
        if drawsDashboard && !cache.direct {
            glUseProgram(try programs.text)
            dashboard!.drawStill(layout: layout, state: state, target: target)
            cache.keepBackdrop(target: target)
        }
    }

    private func setUniforms(frame: DisplayLinkFrame, target: RenderTarget, layout: SceneLayout, state: Scene.State,
                             accent: RGB) {
        let gl = layout.canvas.flippedY(containerHeight: target.pixelSize.height)
        // The span animates by the time the frame is meant to reach the screen.
        let time = spanView == nil ? state.time(at: frame.timestamp) : state.spanTime(at: frame.targetTimestamp)
        // A frozen picture is fully deterministic: the pacing bar stands where frame
        // T x 60 would put it.
        let frameIndex = SceneRenderer.frameNumber(frame, state: state)
        let hand = MovingParts.handDirection(time: time)
        let safe = layout.safe
        block.set(.canvas, Double(gl.x), Double(gl.y), Double(gl.width), Double(gl.height))
        block.set(.accent, Double(accent.r), Double(accent.g), Double(accent.b), 1)
        block.set(.timing, time.truncatingRemainder(dividingBy: 3600), frameIndex, target.pixelsPerPoint, layout.bandHeight)
        parts.pacingBarX = layout.pacingBarX(frame: frameIndex, pixelsPerPoint: target.pixelsPerPoint)
        block.set(.motion, hand.x, hand.y, 0, parts.pacingBarX)  // the marker count goes in below
        block.set(.dial, layout.dial.x, layout.dial.y, layout.dial.radius, 0)
        block.set(.tiles, layout.tiles.x, layout.tiles.y, layout.tiles.width, layout.tiles.height)
        block.set(.rings, layout.rings.x, layout.rings.y, layout.rings.radius, 0)
        let bands = RingBands(time: Float(time.truncatingRemainder(dividingBy: 3600)), radius: layout.rings.radius).uniform
        block.set(.ringBands, bands.0, bands.1, bands.2, bands.3)
        block.set(.strip, layout.strip.x, layout.strip.y, layout.strip.width, layout.strip.height)
        block.set(.safe, Double(safe.x - layout.canvas.x), Double(safe.y - layout.canvas.y), Double(safe.width),
                  Double(safe.height))
        // Markers: points on the surface to pixels of the picture.
        overlay.write(state.markers[target.output.id] ?? [], layout: layout, pixelsPerPoint: target.pixelsPerPoint,
                      to: block)
        block.set(.grid, Double(layout.gridColumns), Double(layout.gridRows), Double(max(1, arrangement.count)),
                  Double(arrangement.primaryIndex))
        spanView?.write(to: block, time: time)
        if let image = content?.image {
            ImageLayer.write(image, layout: layout, spanView: spanView, mode: show!.scaleMode, to: block)
        }
        if content?.video != nil { player.writeColourMatrix(to: block) }
        block.upload()
    }
}

extension Rect {
    /// The rectangle moved by `origin`.
    func offset(by origin: Point) -> Rect { Rect(x: x + origin.x, y: y + origin.y, width: width, height: height) }
}
