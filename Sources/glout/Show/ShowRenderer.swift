import CGLES
import WaylandOutputs

/// Draws a show (--show) on one output: the background, then each zone of the output in
/// order, showing what its timeline plays at the refresh's target time on CLOCK_REALTIME
/// (so every machine shows the same item at the same refresh), mixed over the item
/// before while it crossfades in; and tells the play log what each zone showed. Runs on
/// the output's render thread.
final class ShowRenderer: OutputRenderer {
    /// The show, which a change of its file or the control API may replace between frames.
    private let source: ShowSource
    private let scene: Scene
    private let playLog: PlayLog?
    /// Screenshots the control API waits for.
    private let screenshots: Screenshots?
    private let stall: FrameStall
    private let block = FrameBlock()
    private lazy var painter = ZonePainter(block: block)
    /// What each zone (by name) showed last, for the play log.
    private var showings: [String: Showing] = [:]
    private var output = ""
    /// The target and period of the last frame, for the refreshes missed.
    private var last: (target: MonotonicInstant, period: Duration)?
    private(set) var isAnimating = true
    /// The lines of text this output draws in its zones (and, for --landings-json, where
    /// its tickers were at each refresh).
    private let texts: ZoneTexts
    /// Whether the output rested after the last frame; the least time between frames
    /// (--fps), in nanoseconds.
    private var restsAfterLast = false
    private let slowest: Double
    /// The videos this output draws in its zones.
    private let videos = ZoneVideos()
    /// Each video frame exactly, waited for (a snapshot), rather than the newest decoded.
    var waitsForVideoFrames = false

    /// One item's time on a zone.
    private struct Showing {
        var show: ObjectIdentifier
        var item: ZoneTimeline.ItemRef
        var began: Double
        var entry: PlayLog.Entry
    }

    init(source: ShowSource, scene: Scene, playLog: PlayLog?, screenshots: Screenshots? = nil, telemetry: Telemetry? = nil,
         stall: FrameStall = FrameStall(), framesPerSecond: Double? = nil) {
        self.source = source
        texts = ZoneTexts(telemetry: telemetry)
        slowest = framesPerSecond.map { $0 > 0 ? 1e9 / $0 : 0 } ?? 0
        self.screenshots = screenshots
        self.scene = scene
        self.playLog = playLog
        self.stall = stall
    }

    deinit {
        // The output leaves or glout stops: what shows now is logged as far as it got.
        for showing in showings.values { finish(showing, at: last.map(end(after:)) ?? showing.entry.start, complete: false) }
    }

    /// What the next frame draws, worked out in ``prepare(_:in:)``: outside the turn at GL
    /// that windows may take one at a time, since a daypart's boundary can take a while.
    private struct Plan {
        var state: Scene.State
        var show: LoadedShow
        var realtime: Double
        var time: Double
        var zones: [(zone: LoadedShow.LoadedZone, position: ZoneTimeline.Position?)]
        /// The span's zones, and this output's place on the span's canvas (points), if it has one.
        var spanZones: [(zone: LoadedShow.LoadedZone, position: ZoneTimeline.Position?)]
        var spanPart: (canvas: Size, part: Rect)?
        /// The output is off at the frame's time, until then (the show's `off`): it draws black.
        var darkUntil: Double?
    }
    private var plan: Plan?

    /// A zone of this frame: where it is, what it shows, and what stands still in it.
    private struct PlacedZone {
        var zone: LoadedShow.LoadedZone
        var position: ZoneTimeline.Position?
        /// Where the zone is in the framebuffer, from its top left; and the part of it on
        /// the output (a span zone's reaches past it).
        var rect: Rect
        var visible: Rect
        var still: Still?
    }

    /// What a zone shows that stands still from frame to frame: an item that is an image,
    /// a colour or a label, a clock's text as it reads, or a video's frame (nil: a shader,
    /// a ticker or a crossfade, which move).
    private struct Still: Hashable {
        var item: ZoneTimeline.ItemRef?
        var text: String?
        /// The video frame shown, and which showing of the item it is.
        var videoFrame: Int? = nil
        var showing: Int? = nil
        /// A zone with nothing scheduled.
        static let empty = Still(item: nil, text: nil)
    }

    private struct ZonePlace: Equatable {
        var name: String
        var rect: Rect
    }

    /// What the last frame drew: for which show, at which size, which zones where.
    private struct Layout: Equatable {
        var show: ObjectIdentifier
        var size: Size
        var zones: [ZonePlace]
    }

    private var drawnLayout: Layout?
    private var drawnStill: [String: Still] = [:]
    private var changedRegions: [Rect]?

    func changedRegions(in target: RenderTarget) -> [Rect]? { changedRegions }

    /// What `zone` shows at `position` that stands still, if it does: a video's frame is
    /// taken for the refresh `frame` here.
    private func stillPicture(of zone: LoadedShow.LoadedZone, at position: ZoneTimeline.Position?, time: Double,
                              frame: DisplayLinkFrame, frozen: Bool) -> Still? {
        guard let position else { return Still.empty }
        guard position.mix >= 1 else { return nil }
        switch zone.drawing(position.current) {
        case .image, .colour: return Still(item: position.current, text: nil)
        case .video(let video, _):
            let number = videos.frame(of: video, seconds: zone.item(position.current).seconds, showing: position.showing,
                                      local: position.local, frame: frame, frozen: frozen, waiting: waitsForVideoFrames ? 5 : 0)
            return number.map { Still(item: position.current, text: nil, videoFrame: $0, showing: position.showing) }
        case .shader: return nil
        case .text(let text, _):
            switch text.kind {
            case .label: return Still(item: position.current, text: nil)
            case .clock: return Still(item: position.current, text: text.text(at: time))
            case .ticker: return nil
            }
        }
    }

    func prepare(_ frame: DisplayLinkFrame, in target: RenderTarget) {
        stall.wait()
        let state = scene.snapshot
        let show = source.show
        let realtime = RealtimeClock.seconds(at: frame.targetTimestamp)
        // --frozen (or the f key) holds the show at that instant: a still picture.
        let time = state.frozen ?? realtime
        let (name, primary) = (target.output.name, state.primary == target.output.name)
        func positioned(_ zones: [LoadedShow.LoadedZone]) -> [(zone: LoadedShow.LoadedZone, position: ZoneTimeline.Position?)] {
            zones.map { zone in
                zone.timeline.prepare(after: time, within: 10)
                if zone.playsVideo { prepareVideo(of: zone, show: show, after: time) }
                return (zone, zone.timeline.position(at: time))
            }
        }
        let part = state.span.part(machine: state.machine, name: name).map { (canvas: state.span.size, part: $0.frame) }
        plan = Plan(state: state, show: show, realtime: realtime, time: time, zones: positioned(show.zones(for: name, primary: primary)),
                    spanZones: part == nil ? [] : positioned(show.spanZones), spanPart: part,
                    darkUntil: darkUntil(show: show, output: name, primary: primary, time: time, frozen: state.frozen != nil))
    }

    /// A video item that begins within the next second has its first frames decoded and
    /// uploaded ahead (``ShowVideos/prepare(_:from:)``): its first refresh finds them.
    private func prepareVideo(of zone: LoadedShow.LoadedZone, show: LoadedShow, after time: Double) {
        guard let next = zone.timeline.position(at: time + 1), next.began > time,
              case .video(let video, _) = zone.drawing(next.current) else { return }
        show.prepareVideo(video, from: ZoneVideos.frameNumber(video.timeline, seconds: zone.item(next.current).seconds,
                                                              showing: next.showing, local: 0))
    }

    /// Until when the output is off, if it is at `time`: from the stretch ``ShowPower``
    /// worked out for this show and role, else (a show or role it has not seen yet, or
    /// --frozen) from the show itself, with no end known.
    private func darkUntil(show: LoadedShow, output: String, primary: Bool, time: Double, frozen: Bool) -> Double? {
        guard let schedule = show.show.power(for: output, primary: primary) else { return nil }
        if !frozen, let known = source.offWindow(for: output), known.show == ObjectIdentifier(show), known.primary == primary {
            return known.window.flatMap { $0.contains(time) ? $0.end : nil }
        }
        return schedule.isOff(at: time) ? .infinity : nil
    }

    /// A frame of an output that is off: black, every zone's item ended in the play log;
    /// then the output rests (its display link draws nothing) unless it comes on within a
    /// second, when it draws each refresh so as to come on at the first one at or after
    /// the time. ``ShowPower`` wakes it half a second before.
    private func drawDark(_ frame: DisplayLinkFrame, in target: RenderTarget, realtime: Double, until: Double, state: Scene.State) {
        glDisable(GLenum(GL_SCISSOR_TEST))
        glDisable(GLenum(GL_BLEND))
        glViewport(0, 0, target.pixelSize.width, target.pixelSize.height)
        glClearColor(0, 0, 0, 1)
        glClear(GLenum(GL_COLOR_BUFFER_BIT))
        for showing in showings.values { finish(showing, at: realtime, complete: true) }
        showings = [:]
        videos.forgetAll()
        (drawnLayout, drawnStill, changedRegions) = (nil, [:], nil)
        last = (frame.targetTimestamp, frame.duration)
        isAnimating = state.frozen == nil && until - realtime <= 1
        restsAfterLast = !isAnimating
        deliverScreenshot(of: target)
    }

    private func deliverScreenshot(of target: RenderTarget) {
        if let screenshots, screenshots.isWaiting(for: target.output.name) {
            screenshots.deliver(FrameDump.read(target.framebuffer, of: target), for: target.output.name)
        }
    }

    func render(_ frame: DisplayLinkFrame, in target: RenderTarget) throws {
        if plan == nil { prepare(frame, in: target) }
        guard let plan else { return }
        self.plan = nil
        let (state, show, realtime, time) = (plan.state, plan.show, plan.realtime, plan.time)
        // Another show: the last one's lines go (in this context, which made them), and its
        // videos are let go of.
        if texts.begin(show) { videos.forgetAll() }
        output = target.output.name
        if let until = plan.darkUntil {
            return drawDark(frame, in: target, realtime: realtime, until: until, state: state)
        }
        let missed = missedRefreshes(before: frame)
        let size = target.pixelSize
        videos.startFrame()
        let zones = place(plan, frame: frame, in: target)
        let layout = Layout(show: ObjectIdentifier(show), size: size, zones: zones.map { ZonePlace(name: $0.zone.zone.name, rect: $0.rect) })
        let (whole, dirty) = redraws(zones, layout: layout, target: target)
        glDisable(GLenum(GL_SCISSOR_TEST))
        glDisable(GLenum(GL_BLEND))
        if whole {
            glViewport(0, 0, size.width, size.height)
            let background = show.show.background
            glClearColor(background.r, background.g, background.b, 1)
            glClear(GLenum(GL_COLOR_BUFFER_BIT))
        }
        var changed: [Rect] = []
        var shown = Set<String>()
        for (index, placed) in zones.enumerated() {
            let zone = placed.zone
            drawnStill[zone.zone.name] = placed.position == nil ? Still.empty : placed.still
            guard let position = placed.position else { continue }
            shown.insert(zone.zone.name)
            account(zone: zone, of: show, position: position, realtime: realtime, missed: missed)
            guard dirty[index] else { continue }
            changed.append(placed.visible)
            // Nothing outside the zone, or outside the output, is touched.
            glEnable(GLenum(GL_SCISSOR_TEST))
            drawZone(zone, position: position, placed: placed, time: time, frame: frame, target: target, state: state, show: show)
            glDisable(GLenum(GL_BLEND))
            glDisable(GLenum(GL_SCISSOR_TEST))
        }
        drawnLayout = layout
        changedRegions = whole ? nil : changed
        // Zones that show nothing now (the output's role changed, or nothing is scheduled).
        for (name, showing) in showings where !shown.contains(name) {
            finish(showing, at: realtime, complete: true)
            showings[name] = nil
        }
        videos.endFrame(frame.index)
        last = (frame.targetTimestamp, frame.duration)
        // A still show draws on while a video's frame it shows has not been decoded yet.
        isAnimating = state.frozen == nil || videos.late
        // A still output's pause until something wakes it is a rest, not refreshes missed.
        restsAfterLast = !isAnimating
        deliverScreenshot(of: target)
    }

    /// Each zone of the frame where it goes, and what it shows if that stands still (nil:
    /// it moves): the output's own zones, then the span's over them, each where the canvas
    /// puts it, cut at the output's edges.
    private func place(_ plan: Plan, frame: DisplayLinkFrame, in target: RenderTarget) -> [PlacedZone] {
        let picture = target.picture
        let frozen = plan.state.frozen != nil
        let own = plan.zones.compactMap { zone, position -> PlacedZone? in
            guard let rect = zone.zone.rect.pixels(in: picture.size, pixelsPerPoint: target.pixelsPerPoint) else { return nil }
            let placed = rect.offset(by: picture.origin)
            return PlacedZone(zone: zone, position: position, rect: placed, visible: placed,
                              still: stillPicture(of: zone, at: position, time: plan.time, frame: frame, frozen: frozen))
        }
        let spanning = plan.spanZones.compactMap { zone, position -> PlacedZone? in
            guard let (canvas, part) = plan.spanPart,
                  let rect = zone.zone.rect.spanPixels(canvas: canvas, part: part, output: picture.size,
                                                       pixelsPerPoint: target.pixelsPerPoint) else { return nil }
            return PlacedZone(zone: zone, position: position, rect: rect.whole.offset(by: picture.origin),
                              visible: rect.visible.offset(by: picture.origin),
                              still: stillPicture(of: zone, at: position, time: plan.time, frame: frame, frozen: frozen))
        }
        return own + spanning
    }

    /// What the frame draws again. Where the output holds the last frame, only the zones
    /// whose picture changed, and those over them; else (a new size, another show or set
    /// of zones, a zone left empty) the whole.
    private func redraws(_ zones: [PlacedZone], layout: Layout, target: RenderTarget) -> (whole: Bool, dirty: [Bool]) {
        let whole = !target.holdsPreviousFrame || layout != drawnLayout
            || zones.contains { $0.position == nil && drawnStill[$0.zone.zone.name] != Still.empty }
            // An item coming in over nothing comes in over what is beneath the zone.
            || zones.contains { $0.position.map { $0.mix < 1 && $0.previous == nil } ?? false }
        var dirty = zones.map { whole || $0.still == nil || $0.still != drawnStill[$0.zone.zone.name] }
        for i in zones.indices where dirty[i] {
            for j in zones.indices where j > i && !dirty[j] && zones[i].visible.overlaps(zones[j].visible) { dirty[j] = true }
        }
        return (whole, dirty)
    }

    /// Draws the zone's item, and while it crossfades in the one before it, within the
    /// zone's visible part. Where both are plain colours and pictures (no shader) and the
    /// new one does not come in over what is beneath the zone, the zone is cleared to their
    /// plain colours, mixed as the crossfade has them, and only the box around their
    /// pictures is painted again (``ZonePainter``); else each item over the whole visible
    /// part, a shader by its own pass.
    private func drawZone(_ zone: LoadedShow.LoadedZone, position: ZoneTimeline.Position, placed: PlacedZone, time: Double,
                          frame: DisplayLinkFrame, target: RenderTarget, state: Scene.State, show: LoadedShow) {
        let (rect, height) = (placed.rect, target.pixelSize.height)
        let gl = rect.flippedY(containerHeight: height)
        glViewport(gl.x, gl.y, gl.width, gl.height)
        let fading = position.mix < 1
        let previous = fading ? position.previous : nil
        var bindings: [(video: VideoSource, binding: VideoTextures.Binding)] = []
        defer { for taken in bindings { videos.finishedDrawing(taken.video, binding: taken.binding) } }
        func look(_ item: ZoneTimeline.ItemRef, local: Double, showing: Int) -> ItemLook? {
            self.look(of: zone, item: item, local: local, showing: showing, time: time, frame: frame, target: target, rect: rect,
                      state: state, show: show, bindings: &bindings)
        }
        let current = look(position.current, local: position.local, showing: position.showing)
        // The item before: nil where there is none; a nil look, a shader.
        let before = previous.map { look($0, local: position.local + zone.item($0).seconds, showing: position.previousShowing) }
        var region = placed.visible
        if let current, !fading || (before.map { $0 != nil } ?? false) {
            var plain = current.plain
            var pictures = [current.picture?.pixels]
            if case .some(.some(let before)) = before {
                let mix = Float(position.mix)
                plain = RGB(r: before.plain.r + (plain.r - before.plain.r) * mix, g: before.plain.g + (plain.g - before.plain.g) * mix,
                            b: before.plain.b + (plain.b - before.plain.b) * mix)
                pictures.append(before.picture?.pixels)
            }
            let visible = placed.visible.flippedY(containerHeight: height)
            glScissor(visible.x, visible.y, visible.width, visible.height)
            glClearColor(plain.r, plain.g, plain.b, 1)
            glClear(GLenum(GL_COLOR_BUFFER_BIT))
            let box = pictures.compactMap { $0 }.reduce(nil) { (box: Rect?, next: Rect) in box?.union(next) ?? next }
            region = box?.intersection(placed.visible) ?? Rect(x: rect.x, y: rect.y, width: 0, height: 0)
        }
        if fading {
            if let previous, let before {
                if let before {
                    painter.paint(before, in: region, zone: rect, height: height, blended: false, copy: show.copyProgram)
                } else {
                    drawShader(zone.drawing(previous), local: position.local + zone.item(previous).seconds, in: region, zone: rect,
                               frame: frame, target: target, state: state)
                }
            }
            glEnable(GLenum(GL_BLEND))
            glBlendColor(0, 0, 0, Float(position.mix))
            glBlendFunc(GLenum(GL_CONSTANT_ALPHA), GLenum(GL_ONE_MINUS_CONSTANT_ALPHA))
        }
        if let current {
            painter.paint(current, in: region, zone: rect, height: height, blended: fading, copy: show.copyProgram)
        } else {
            drawShader(zone.drawing(position.current), local: position.local, in: region, zone: rect, frame: frame, target: target,
                       state: state)
        }
        glDisable(GLenum(GL_BLEND))
    }

    /// How `item` of `zone` looks `local` seconds into showing `showing` of it (nil: a
    /// shader): a video's frame is taken for the refresh, and its binding kept in
    /// `bindings` until the zone is drawn.
    private func look(of zone: LoadedShow.LoadedZone, item: ZoneTimeline.ItemRef, local: Double, showing: Int, time: Double,
                      frame: DisplayLinkFrame, target: RenderTarget, rect: Rect, state: Scene.State, show: LoadedShow,
                      bindings: inout [(video: VideoSource, binding: VideoTextures.Binding)]) -> ItemLook? {
        let black = RGB(r: 0, g: 0, b: 0)
        switch zone.drawing(item) {
        case .shader: return nil
        case .colour(let colour): return ItemLook(plain: colour, picture: nil)
        case .image(let image, let fit, let program):
            // image.frag draws black around the picture.
            let place = ContentImage.placement(width: image.width, height: image.height, in: rect.size, mode: fit)
            return ItemLook(plain: black, picture: ItemLook.pixels(place, in: rect).map {
                ItemLook.Picture(place: place, pixels: $0, texture: image.texture?.name ?? 0, program: program, corners: 3)
            })
        case .video(let video, let fit):
            let place = ContentImage.placement(width: video.width, height: video.height, in: rect.size, mode: fit)
            // Taken in ``place(_:frame:in:)`` for an item that shows alone (then this finds it), here for one mixed.
            _ = videos.frame(of: video, seconds: zone.item(item).seconds, showing: showing, local: local, frame: frame,
                             frozen: state.frozen != nil, waiting: waitsForVideoFrames ? 5 : 0)
            guard let binding = videos.bind(video) else { return ItemLook(plain: black, picture: nil) }
            bindings.append((video, binding))
            guard let texture = binding.bgra, let pixels = ItemLook.pixels(place, in: rect) else {
                return ItemLook(plain: black, picture: nil)
            }
            // A video frame's rows are bottom first (as a blit into a framebuffer wants
            // them): placed upside down, it samples upright.
            return ItemLook(plain: black, picture: ItemLook.Picture(place: (place.x, place.y + place.height, place.width, -place.height),
                                                                    pixels: pixels, texture: texture, program: show.copyProgram,
                                                                    corners: 6))
        case .text(let text, let font):
            let (line, place) = texts.layOut(text, font: font, key: ZoneTexts.Key(zone: zone.zone.name, item: item), local: local,
                                             time: time, rect: rect, frame: frame, target: target)
            return ItemLook(plain: text.background, picture: ItemLook.pixels(place, in: rect).map {
                ItemLook.Picture(place: place, pixels: $0, texture: line.texture, program: show.copyProgram, corners: 6)
            })
        }
    }

    /// Draws a shader item over the zone at `zone` (the output's picture pixels from its top
    /// left, the viewport), within `region`.
    private func drawShader(_ drawing: LoadedShow.Drawing, local: Double, in region: Rect, zone: Rect, frame: DisplayLinkFrame,
                            target: RenderTarget, state: Scene.State) {
        guard case .shader(let program) = drawing else { return }
        let gl = zone.flippedY(containerHeight: target.pixelSize.height)
        let scissor = region.flippedY(containerHeight: target.pixelSize.height)
        glScissor(scissor.x, scissor.y, scissor.width, scissor.height)
        block.set(.canvas, Double(gl.x), Double(gl.y), Double(gl.width), Double(gl.height))
        block.set(.accent, Double(state.contentAccent.r), Double(state.contentAccent.g), Double(state.contentAccent.b), 1)
        block.set(.timing, local.truncatingRemainder(dividingBy: 3600), Double(frame.index), target.pixelsPerPoint, 0)
        block.set(.safe, 0, 0, Double(zone.width), Double(zone.height))
        block.upload()
        glUseProgram(program)
        glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
    }

    /// Refreshes between the last frame's target and this one's that got no frame: at
    /// the rate the output draws (a refresh, or --fps's interval), after no rest.
    private func missedRefreshes(before frame: DisplayLinkFrame) -> Int {
        guard let last, !restsAfterLast, frame.targetTimestamp > last.target else { return 0 }
        let period = max(Double(last.period.inNanoseconds), slowest)
        guard period > 0 else { return 0 }
        let refreshes = (Double((frame.targetTimestamp - last.target).inNanoseconds) / period).rounded()
        return refreshes.isFinite && refreshes > 1 ? Int(min(refreshes, 1e9)) - 1 : 0
    }

    /// The refresh after the last frame's target, on CLOCK_REALTIME.
    private func end(after last: (target: MonotonicInstant, period: Duration)) -> Double {
        RealtimeClock.seconds(at: last.target) + last.period.inSeconds
    }

    /// Counts this frame for the item the zone shows, and logs the one it replaced.
    private func account(zone: LoadedShow.LoadedZone, of show: LoadedShow, position: ZoneTimeline.Position, realtime: Double,
                         missed: Int) {
        let name = zone.zone.name
        if var showing = showings[name], showing.show == ObjectIdentifier(show), showing.item == position.current,
           showing.began == position.began {
            showing.entry.frames += 1
            showing.entry.missed += missed
            showings[name] = showing
            return
        }
        if var before = showings[name] {
            // The refreshes missed before this item's first frame were the last item's.
            before.entry.missed += missed
            finish(before, at: realtime, complete: true)
        }
        let item = zone.item(position.current)
        let entry = PlayLog.Entry(output: output, zone: name, playlist: zone.zone.playlists[position.current.playlist].name,
                                  item: item.name, start: realtime, end: realtime, frames: 1, missed: 0)
        showings[name] = Showing(show: ObjectIdentifier(show), item: position.current, began: position.began, entry: entry)
    }

    private func finish(_ showing: Showing, at end: Double, complete: Bool) {
        var entry = showing.entry
        entry.end = end
        entry.complete = complete
        playLog?.record(entry)
    }
}

private extension Rect {
    /// Whether the two share a pixel.
    func overlaps(_ other: Rect) -> Bool {
        x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
    }
}
