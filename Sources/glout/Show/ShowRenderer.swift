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
    /// What each zone (by name) showed last, for the play log.
    private var showings: [String: Showing] = [:]
    private var output = ""
    /// The target and period of the last frame, for the refreshes missed.
    private var last: (target: MonotonicInstant, period: Duration)?
    private(set) var isAnimating = true
    /// The lines of text this output drew, by item, of the show they belong to; and the
    /// fonts they are in, by size.
    private var lines: [TextKey: TextLine] = [:]
    private var linesOf: ObjectIdentifier?
    private var faces: [String: FontFace] = [:]
    /// Whether the output rested after the last frame; the least time between frames
    /// (--fps), in nanoseconds.
    private var restsAfterLast = false
    private let slowest: Double

    private struct TextKey: Hashable {
        var zone: String
        var item: ZoneTimeline.ItemRef
    }

    /// One item's time on a zone.
    private struct Showing {
        var show: ObjectIdentifier
        var item: ZoneTimeline.ItemRef
        var began: Double
        var entry: PlayLog.Entry
    }

    init(source: ShowSource, scene: Scene, playLog: PlayLog?, screenshots: Screenshots? = nil, stall: FrameStall = FrameStall(),
         framesPerSecond: Double? = nil) {
        self.source = source
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
    }
    private var plan: Plan?

    func prepare(_ frame: DisplayLinkFrame, in target: RenderTarget) {
        stall.wait()
        let state = scene.snapshot
        let show = source.show
        let realtime = RealtimeClock.seconds(at: frame.targetTimestamp)
        // --frozen (or the f key) holds the show at that instant: a still picture.
        let time = state.frozen ?? realtime
        let zones = show.zones(for: target.output.name, primary: state.primary == target.output.name).map { zone in
            zone.timeline.prepare(after: time, within: 10)
            return (zone, zone.timeline.position(at: time))
        }
        plan = Plan(state: state, show: show, realtime: realtime, time: time, zones: zones)
    }

    func render(_ frame: DisplayLinkFrame, in target: RenderTarget) throws {
        if plan == nil { prepare(frame, in: target) }
        guard let plan else { return }
        self.plan = nil
        let (state, show, realtime, time) = (plan.state, plan.show, plan.realtime, plan.time)
        if linesOf != ObjectIdentifier(show) {
            // Another show: the last one's lines go (in this context, which made them).
            lines = [:]
            linesOf = ObjectIdentifier(show)
        }
        output = target.output.name
        let missed = missedRefreshes(before: frame)
        let size = target.pixelSize
        glDisable(GLenum(GL_SCISSOR_TEST))
        glDisable(GLenum(GL_BLEND))
        glViewport(0, 0, size.width, size.height)
        let background = show.show.background
        glClearColor(background.r, background.g, background.b, 1)
        glClear(GLenum(GL_COLOR_BUFFER_BIT))
        let picture = target.picture
        var shown = Set<String>()
        for (zone, position) in plan.zones {
            guard var rect = zone.zone.rect.pixels(in: picture.size, pixelsPerPoint: target.pixelsPerPoint) else { continue }
            rect = rect.offset(by: picture.origin)
            guard let position else { continue }
            let gl = rect.flippedY(containerHeight: size.height)
            glViewport(gl.x, gl.y, gl.width, gl.height)
            if position.mix < 1 {
                if let previous = position.previous {
                    draw(zone.drawing(previous), key: TextKey(zone: zone.zone.name, item: previous),
                         local: position.local + zone.item(previous).seconds, time: time, frame: frame, target: target,
                         rect: rect, gl: gl, state: state)
                }
                glEnable(GLenum(GL_BLEND))
                glBlendColor(0, 0, 0, Float(position.mix))
                glBlendFunc(GLenum(GL_CONSTANT_ALPHA), GLenum(GL_ONE_MINUS_CONSTANT_ALPHA))
            }
            draw(zone.drawing(position.current), key: TextKey(zone: zone.zone.name, item: position.current),
                 local: position.local, time: time, frame: frame, target: target, rect: rect, gl: gl, state: state)
            glDisable(GLenum(GL_BLEND))
            shown.insert(zone.zone.name)
            account(zone: zone, of: show, position: position, realtime: realtime, missed: missed)
        }
        // Zones that show nothing now (the output's role changed, or nothing is scheduled).
        for (name, showing) in showings where !shown.contains(name) {
            finish(showing, at: realtime, complete: true)
            showings[name] = nil
        }
        last = (frame.targetTimestamp, frame.duration)
        isAnimating = state.frozen == nil
        // A still output's pause until something wakes it is a rest, not refreshes missed.
        restsAfterLast = !isAnimating
        if let screenshots, screenshots.isWaiting(for: target.output.name) {
            screenshots.deliver(FrameDump.read(target.framebuffer, of: target), for: target.output.name)
        }
    }

    /// Draws one item into the zone at `rect` (picture pixels from the top left; `gl`: the
    /// same in the framebuffer, whose viewport it is).
    private func draw(_ drawing: LoadedShow.Drawing, key: TextKey, local: Double, time: Double, frame: DisplayLinkFrame,
                      target: RenderTarget, rect: Rect, gl: Rect, state: Scene.State) {
        let program: GLuint
        block.set(.canvas, Double(gl.x), Double(gl.y), Double(gl.width), Double(gl.height))
        block.set(.accent, Double(state.contentAccent.r), Double(state.contentAccent.g), Double(state.contentAccent.b), 1)
        block.set(.timing, local.truncatingRemainder(dividingBy: 3600), Double(frame.index), target.pixelsPerPoint, 0)
        block.set(.safe, 0, 0, Double(rect.width), Double(rect.height))
        glActiveTexture(GLenum(GL_TEXTURE0))
        switch drawing {
        case .image(let image, let fit, let imageProgram):
            let place = ContentImage.placement(width: image.width, height: image.height, in: rect.size, mode: fit)
            block.set(.image, place.x, place.y, place.width, place.height)
            glBindTexture(GLenum(GL_TEXTURE_2D), image.texture?.name ?? 0)
            program = imageProgram
        case .colour(let texture, let imageProgram):
            block.set(.image, 0, 0, Double(rect.width), Double(rect.height))
            glBindTexture(GLenum(GL_TEXTURE_2D), texture.name)
            program = imageProgram
        case .shader(let shader):
            program = shader
        case .text(let text, let font, let textProgram):
            placeText(text, font: font, key: key, local: local, time: time, rect: rect, pixelsPerPoint: target.pixelsPerPoint)
            program = textProgram
        }
        block.upload()
        glUseProgram(program)
        glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
    }

    /// Makes the line of `text` as it reads at `time`, binds it, and places it in the zone:
    /// a label or clock aligned on whole pixels, a ticker where its speed has brought it
    /// `local` seconds into the item, to the fraction of a pixel.
    private func placeText(_ text: TextItem, font: String, key: TextKey, local: Double, time: Double, rect: Rect,
                           pixelsPerPoint: Double) {
        let line = lines[key] ?? TextLine()
        lines[key] = line
        let pixelSize = Int(max(4, min(1024, (text.size * pixelsPerPoint).rounded())))
        line.update(text.text(at: time), font: font, pixelSize: pixelSize, faces: &faces)
        let (width, height) = (Double(line.width), Double(line.height))
        let zone = (width: Double(rect.width), height: Double(rect.height))
        let y = ((zone.height - height) / 2).rounded()
        let margin = (Double(pixelSize) / 4).rounded()
        let x: Double
        switch (text.kind, text.alignment) {
        case (.ticker(_, let speed), _):
            x = TextItem.tickerX(elapsed: local, pixelsPerSecond: speed * pixelsPerPoint, lineWidth: width, zoneWidth: zone.width)
        case (_, .left): x = margin
        case (_, .center): x = ((zone.width - width) / 2).rounded()
        case (_, .right): x = zone.width - width - margin
        }
        block.set(.image, x, y, width, height)
        block.set(.textColour, Double(text.colour.r), Double(text.colour.g), Double(text.colour.b), 1)
        block.set(.textBackground, Double(text.background.r), Double(text.background.g), Double(text.background.b), 1)
        glBindTexture(GLenum(GL_TEXTURE_2D), line.texture)
    }

    /// Refreshes between the last frame's target and this one's that got no frame: at
    /// the rate the output draws (a refresh, or --fps's interval), after no rest.
    private func missedRefreshes(before frame: DisplayLinkFrame) -> Int {
        guard let last, !restsAfterLast, frame.targetTimestamp > last.target else { return 0 }
        let refresh = Double(last.period.components.seconds) * 1e9 + Double(last.period.components.attoseconds) * 1e-9
        let period = max(refresh, slowest)
        guard period > 0 else { return 0 }
        let refreshes = (Double((frame.targetTimestamp - last.target).inNanoseconds) / period).rounded()
        return refreshes.isFinite && refreshes > 1 ? Int(min(refreshes, 1e9)) - 1 : 0
    }

    /// The refresh after the last frame's target, on CLOCK_REALTIME.
    private func end(after last: (target: MonotonicInstant, period: Duration)) -> Double {
        RealtimeClock.seconds(at: last.target) + Double(last.period.components.seconds)
            + Double(last.period.components.attoseconds) * 1e-18
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
