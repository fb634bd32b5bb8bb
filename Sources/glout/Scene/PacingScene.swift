import CGLES
import Glibc
import WaylandOutputs

/// Where --scene pacing puts its parts in a picture: seven bands from top to bottom, the
/// frame-skip strip in the first, four rows of moving squares in the next four, the
/// flash's legend in the sixth and the pacing bar in the last. Picture pixels from the
/// top left; pure, so it is unit-tested.
struct PacingLayout: Equatable {
    var band: Double
    var margin: Int
    /// The frame-skip strip, and how many cells it has (one second of refreshes).
    var strip: Rect
    var cells: Int
    /// The first object row's top, and the squares' size.
    var rowsTop: Double
    var objectSize: Double
    /// The pacing bar's strip, across the whole picture.
    var bar: Rect
    /// Text size in pixels.
    var textSize: Int

    /// Pixels per second of the four rows of squares, top to bottom (pacing.frag).
    static let speeds = [240, 480, 960, 1920]

    static func make(width: Int32, height: Int32, pixelsPerPoint: Double, cells: Int) -> PacingLayout {
        let (w, h) = (Double(width), Double(height))
        let band = h / 7
        let margin = Int(max(8, 0.04 * w).rounded())
        let textSize = Int(max(9, min(14 * pixelsPerPoint, band * 0.22)).rounded())
        let stripTop = Int((band * 0.45).rounded()), stripHeight = max(4, Int((band * 0.4).rounded()))
        let strip = Rect(x: Int32(margin), y: Int32(stripTop), width: Int32(max(cells, Int(width) - 2 * margin)),
                         height: Int32(stripHeight))
        let barTop = Int((band * 6.4).rounded()), barHeight = max(4, Int((band * 0.4).rounded()))
        return PacingLayout(band: band, margin: margin, strip: strip, cells: cells, rowsTop: band,
                            objectSize: (band * 0.5).rounded(), bar: Rect(x: 0, y: Int32(barTop), width: width,
                                                                         height: Int32(barHeight)),
                            textSize: textSize)
    }
}

/// Counts refreshes from frame to frame, so the strip lights one cell per refresh and a
/// refresh without a frame of its own leaves a gap: the next frame's target is two
/// periods after the last one's. Pure.
struct RefreshCounter {
    private(set) var refresh: Int64 = 0
    private var lastTarget: UInt64?

    /// The refresh of a frame meant to reach the screen at `target` (ns), the refresh
    /// period being `period` (ns); and whether it is the first at or past a multiple of
    /// `flashEvery` (0: never).
    mutating func advance(target: UInt64, period: UInt64, flashEvery: Int) -> (refresh: Int64, flash: Bool) {
        let before = refresh
        if let lastTarget, period > 0, target > lastTarget {
            refresh += max(1, Int64((Double(target - lastTarget) / Double(period)).rounded()))
        }
        lastTarget = target
        let every = Int64(flashEvery)
        let flash = every > 0 && refresh > before && refresh / every > before / every
        return (refresh, flash)
    }
}

/// --scene pacing: the same test pattern on every output, drawn whole every frame from
/// the frame's target time (pacing.frag), with its legend. Reading it is in docs/usage.md,
/// "Reading the pacing scene".
final class PacingRenderer: OutputRenderer {
    private let scene: Scene
    private let program: GLuint, textProgram: GLuint
    private let flashEvery: Int
    private let stall: FrameStall
    private let block = FrameBlock()
    private lazy var painter = TextPainter(capacity: 512)
    private var counter = RefreshCounter()
    /// The legend's lines and where they go, for the layout they were made for.
    private var legend: (layout: PacingLayout, lines: [(text: String, top: Double)])?
    private var legendAtlas: GlyphAtlas?
    private(set) var isAnimating = true

    init(scene: Scene, program: GLuint, textProgram: GLuint, flashEvery: Int, stall: FrameStall = FrameStall()) {
        self.scene = scene
        self.program = program
        self.textProgram = textProgram
        self.flashEvery = flashEvery
        self.stall = stall
    }

    func prepare(_ frame: DisplayLinkFrame, in target: RenderTarget) {
        stall.wait()
    }

    func render(_ frame: DisplayLinkFrame, in target: RenderTarget) throws {
        let state = scene.snapshot
        isAnimating = !state.standsStill(.content, dashboard: false)
        let period = UInt64(max(1_000_000, frame.duration.inNanoseconds))
        let cells = min(240, max(2, Int((1e9 / Double(period)).rounded())))
        var (refresh, flash) = counter.advance(target: frame.targetTimestamp.nanoseconds, period: period, flashEvery: flashEvery)
        if let frozen = state.frozen {
            // A still picture: the cell of refresh T x rate, no flash.
            refresh = Int64((frozen * 1e9 / Double(period)).rounded(.down))
            flash = false
        }
        let picture = target.picture
        let layout = PacingLayout.make(width: picture.width, height: picture.height, pixelsPerPoint: target.pixelsPerPoint,
                                       cells: cells)
        glViewport(0, 0, target.pixelSize.width, target.pixelSize.height)
        glClearColor(0, 0, 0, 1)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        let gl = picture.flippedY(containerHeight: target.pixelSize.height)
        glViewport(gl.x, gl.y, gl.width, gl.height)
        block.set(.canvas, Double(gl.x), Double(gl.y), Double(gl.width), Double(gl.height))
        block.set(.timing, state.time(at: frame.targetTimestamp).truncatingRemainder(dividingBy: 3600),
                  SceneRenderer.frameNumber(frame, state: state), target.pixelsPerPoint, 0)
        block.set(.strip, Double(layout.bar.x), Double(layout.bar.y), Double(layout.bar.width), Double(layout.bar.height))
        block.set(.pacing0, Double(refresh % Int64(cells)), Double(cells), flash ? 1 : 0, layout.band)
        block.set(.pacing1, Double(layout.strip.x), Double(layout.strip.y), Double(layout.strip.width), Double(layout.strip.height))
        block.set(.pacing2, layout.rowsTop, layout.objectSize, 0, 0)
        block.upload()
        glUseProgram(program)
        glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
        if flash {
            // For a photodiode or a camera: when this flash is meant to be on the screen.
            log.debug("output \(target.output.printableName): flash at refresh \(refresh), target \(frame.targetTimestamp.nanoseconds) ns "
                      + "CLOCK_MONOTONIC")
        } else {
            drawLegend(layout, origin: picture.origin, target: target)
        }
    }

    /// What each part is, in small type beside it.
    private func drawLegend(_ layout: PacingLayout, origin: Point, target: RenderTarget) {
        // A new atlas and legend only when the layout changes: a frame allocates nothing.
        if legend?.layout != layout {
            legendAtlas = painter.atlas(sizes: [layout.textSize])
            legend = legendAtlas.map { (layout, legendLines(layout, font: $0.fonts[0])) }
        }
        guard let atlas = legendAtlas else { return }
        let font = atlas.fonts[0]
        let x = Int(origin.x) + layout.margin, y = Int(origin.y)
        for (text, top) in legend!.lines {
            painter.batch.text(text.utf8, x: x, baseline: y + Int(top.rounded()) + font.ascender, font: font, atlas: atlas,
                               Dashboard.dim)
        }
        glUseProgram(textProgram)
        painter.flush(target: target)
    }

    /// The legend for `layout`, each line cut to the picture's width.
    private func legendLines(_ layout: PacingLayout, font: GlyphAtlas.Font) -> [(text: String, top: Double)] {
        let above = Double(font.lineHeight) + 2
        var lines = [("frame-skip strip: one cell per refresh, \(layout.cells) a second", Double(layout.strip.y) - above)]
        for (row, speed) in PacingLayout.speeds.enumerated() {
            lines.append(("\(speed) px/s", layout.rowsTop + Double(row) * layout.band + 2))
        }
        lines.append((flashEvery > 0 ? "white flash every \(flashEvery) refreshes (--flash-every): for a photodiode or a camera"
                                     : "no flash (--flash-every 0)", layout.band * 5.4))
        lines.append(("pacing bar: 8 points per frame", Double(layout.bar.y) - above))
        let room = Int(layout.bar.width) - 2 * layout.margin
        return lines.map { (TextBatch.fitting($0.0, width: room, font: font), $0.1) }
    }
}
