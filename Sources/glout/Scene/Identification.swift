import CGLES
import Foundation
import WaylandOutputs

/// What tells a person in front of several screens which is which: the corner label of
/// the content view (the output's name; its mode, scale and role; the layout and a frame
/// counter) and, while --identify or the i key asks, the output's name in large type
/// across the screen. One per output, on its render thread.
final class Identification {
    private let labelPainter = TextPainter(capacity: 256, records: Identification.runsFolder != nil)
    private let overlayPainter = TextPainter(capacity: 256)
    private var overlay: Overlay?
    /// The label's still lines and its box (framebuffer pixels, top left origin), as
    /// ``arrangeLabel(for:layout:state:)`` worked them out.
    private var lines: (name: String, details: String, layout: String) = ("", "", "")
    private(set) var labelBox: Rect?
    /// The label's atlas, as arrangeLabel had it made: drawing allocates nothing.
    private var labelAtlas: GlyphAtlas?
    private var number = NumberText()
    /// GLOUT_LABEL_RUNS=DIR: the label's text runs go to DIR/NAME.json whenever it is laid
    /// out anew, for tests that check them against the screen.
    private static let runsFolder = ProcessInfo.processInfo.environment["GLOUT_LABEL_RUNS"]

    /// The label's two font sizes in points: the name, and the details below it.
    private static let nameSize = 16.0, detailSize = 12.0

    /// Pixel sizes of the label's name and details at `scale` pixels per point.
    static func labelSizes(scale: Double) -> [Int] {
        GlyphAtlas.pixelSizes(points: [nameSize, detailSize], scale: scale)
    }

    /// How an output's mode reads on its label and overlay: "1280x720 @ 60 Hz".
    static func describe(_ mode: OutputMode?) -> String {
        guard let mode else { return "no mode" }
        var text = "\(mode.size.width)x\(mode.size.height)"
        if mode.refreshMilliHertz > 0 {
            let hertz = Double(mode.refreshMilliHertz) / 1000
            text += mode.refreshMilliHertz % 1000 == 0 ? " @ \(Int(hertz)) Hz" : String(format: " @ %.2f Hz", hertz)
        }
        return text
    }

    /// "×1", "×2", "×1.5": pixels per point.
    static func describe(scale: Double) -> String {
        "×" + String(format: "%g", (scale * 100).rounded() / 100)
    }

    /// The role an output plays in `state`.
    static func role(of output: Output, in state: Scene.State) -> String {
        if state.layout == .span && state.span.part(machine: state.machine, name: output.name) != nil { return "span part" }
        return output.name == state.primary ? "primary" : "secondary"
    }

    /// Lays the label out for `target`'s output in the top left corner of the safe area,
    /// and returns its box: the region the renderer shades again under it every frame.
    func arrangeLabel(for target: RenderTarget, layout: SceneLayout, state: Scene.State) -> Rect? {
        labelBox = nil
        let scale = layout.pointSize
        labelAtlas = labelPainter.atlas(sizes: Identification.labelSizes(scale: scale))
        guard let atlas = labelAtlas else { return nil }
        let (nameFont, detailFont) = (atlas.fonts[0], atlas.fonts[1])
        let output = target.output
        let margin = Int(12 * scale), padding = Int(8 * scale)
        let room = Int(layout.safe.width) - 2 * margin - 2 * padding
        guard room > 8 * detailFont.pixelSize else { return nil }
        let details = [Identification.describe(output.currentMode), Identification.describe(scale: target.pixelsPerPoint),
                       Identification.role(of: output, in: state)].joined(separator: " · ")
        lines = (TextBatch.fitting(output.name, width: room, font: nameFont),
                 TextBatch.fitting(details, width: room, font: detailFont),
                 TextBatch.fitting(state.layout.rawValue + " · frame ", width: room, font: detailFont))
        // Room for an eleven-digit counter (--frozen 1e9 is frame 6e10): the box never has to grow.
        let counter = TextBatch.width(of: "00000000000".utf8, font: detailFont)
        let width = min(room, max(TextBatch.width(of: lines.name.utf8, font: nameFont),
                                  TextBatch.width(of: lines.details.utf8, font: detailFont),
                                  TextBatch.width(of: lines.layout.utf8, font: detailFont) + counter))
        let height = nameFont.lineHeight + 2 * detailFont.lineHeight + Int(2 * scale)
        let box = Rect(x: layout.safe.x + Int32(margin), y: layout.safe.y + Int32(margin),
                       width: Int32(width + 2 * padding), height: Int32(height + 2 * padding))
        labelBox = box
        return box
    }

    /// No label on this picture; returns nil.
    func forgetLabel() -> Rect? {
        labelBox = nil
        return nil
    }

    /// Draws the label (after its box was shaded again) with `frame` as the counter.
    func drawLabel(frame: UInt64, layout: SceneLayout, target: RenderTarget) {
        guard let box = labelBox, let atlas = labelAtlas else { return }
        let (nameFont, detailFont) = (atlas.fonts[0], atlas.fonts[1])
        let padding = Int(8 * layout.pointSize)
        labelPainter.batch.rectangle(Float(box.x), Float(box.y), Float(box.width), Float(box.height), atlas: atlas,
                                     (0.05, 0.06, 0.08, 0.72))
        let x = Int(box.x) + padding
        var baseline = Int(box.y) + padding + nameFont.ascender
        labelPainter.batch.text(lines.name.utf8, x: x, baseline: baseline, font: nameFont, atlas: atlas, Dashboard.light,
                                record: lines.name)
        baseline += detailFont.lineHeight + Int(2 * layout.pointSize) + (nameFont.lineHeight - nameFont.ascender)
        labelPainter.batch.text(lines.details.utf8, x: x, baseline: baseline, font: detailFont, atlas: atlas, Dashboard.dim,
                                record: lines.details)
        baseline += detailFont.lineHeight
        let pen = labelPainter.batch.text(lines.layout.utf8, x: x, baseline: baseline, font: detailFont, atlas: atlas,
                                          Dashboard.dim, record: lines.layout)
        number.set(Double(frame), decimals: 0)
        labelPainter.batch.text(number.text, x: pen, baseline: baseline, font: detailFont, atlas: atlas, Dashboard.light,
                                record: labelPainter.batch.runs == nil ? nil : String(decoding: number.text, as: UTF8.self))
        labelPainter.flush(target: target)
        if let folder = Identification.runsFolder, let runs = labelPainter.batch.runs {
            // Once per layout: the still lines are what the tests check.
            labelPainter.batch.runs = []
            if let data = try? JSONEncoder().encode(runs) {
                let path = folder + "/" + target.output.name + ".json"
                if (try? data.write(to: URL(fileURLWithPath: path + ".part"))) != nil { rename(path + ".part", path) }
            }
        }
    }

    /// The output's name in large type across the middle of the screen, its mode, scale
    /// and role below, on a dark band: drawn over the finished frame.
    func drawOverlay(target: RenderTarget, state: Scene.State) {
        let key = OverlayKey(name: target.output.name, mode: target.output.currentMode, size: target.pixelSize,
                             pixelsPerPoint: target.pixelsPerPoint, role: Identification.role(of: target.output, in: state))
        if overlay?.key != key { overlay = Identification.layOutOverlay(key, painter: overlayPainter) }
        guard let overlay else { return }
        overlayPainter.batch.rectangle(0, Float(overlay.bandTop), Float(key.size.width), Float(overlay.bandHeight),
                                       atlas: overlay.atlas, (0.02, 0.03, 0.05, 0.82))
        overlayPainter.batch.text(key.name.utf8, x: overlay.name.x, baseline: overlay.name.baseline,
                                  font: overlay.atlas.fonts[0], atlas: overlay.atlas, Dashboard.light)
        overlayPainter.batch.text(overlay.details.utf8, x: overlay.detailsAt.x, baseline: overlay.detailsAt.baseline,
                                  font: overlay.atlas.fonts[1], atlas: overlay.atlas, Dashboard.dim)
        overlayPainter.flush(target: target)
    }

    /// What the names overlay shows for one output, and at what size.
    private struct OverlayKey: Equatable {
        var name: String
        var mode: OutputMode?
        var size: Size
        var pixelsPerPoint: Double
        var role: String
    }

    /// The overlay laid out for a key: made when the key changes, not every frame.
    private struct Overlay {
        var key: OverlayKey
        var atlas: GlyphAtlas
        var details: String
        var bandTop: Int
        var bandHeight: Int
        var name: (x: Int, baseline: Int)
        var detailsAt: (x: Int, baseline: Int)
    }

    private static func layOutOverlay(_ key: OverlayKey, painter: TextPainter) -> Overlay? {
        let width = Double(key.size.width), height = Double(key.size.height)
        // Large enough to read across a room, small enough to fit: DejaVu Sans averages
        // about 0.65 em per character.
        let characters = max(1, key.name.unicodeScalars.count)
        let big = Int(min(height * 0.25, width * 0.85 / (Double(characters) * 0.65), 480).rounded(.down))
        let medium = max(12, big / 5)
        guard big >= 8, let atlas = painter.atlas(sizes: [big, medium],
                                                  characters: [Array(key.name.unicodeScalars), GlyphAtlas.characters])
        else { return nil }
        let (bigFont, mediumFont) = (atlas.fonts[0], atlas.fonts[1])
        let details = [describe(key.mode), describe(scale: key.pixelsPerPoint), key.role].joined(separator: " · ")
        let nameWidth = TextBatch.width(of: key.name.utf8, font: bigFont)
        let detailText = TextBatch.fitting(details, width: Int(width * 0.9), font: mediumFont)
        let detailWidth = TextBatch.width(of: detailText.utf8, font: mediumFont)
        let bandHeight = bigFont.lineHeight + mediumFont.lineHeight * 2
        let bandTop = (Int(height) - bandHeight) / 2
        let nameBaseline = bandTop + mediumFont.lineHeight / 2 + bigFont.ascender
        return Overlay(key: key, atlas: atlas, details: detailText, bandTop: bandTop, bandHeight: bandHeight,
                       name: ((Int(width) - nameWidth) / 2, nameBaseline),
                       detailsAt: ((Int(width) - detailWidth) / 2,
                                   nameBaseline + (bigFont.lineHeight - bigFont.ascender) + mediumFont.ascender))
    }
}
