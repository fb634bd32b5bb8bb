import Foundation
import WaylandOutputs

/// A show (--show FILE, docs/shows.md): for each output, zones stacked in order, each
/// playing the playlist its dayparts choose. Plain values, checked by ``ShowParser``;
/// what plays when is ``ZoneTimeline``'s, drawing it ``ShowRenderer``'s.
struct Show: Sendable, Equatable {
    /// The file, as the user named it (for messages).
    var path: String
    /// Drawn where no zone is, and in a zone with nothing scheduled.
    var background = RGB(r: 0, g: 0, b: 0)
    /// The outputs' zones, by which outputs they are for.
    var outputs: [OutputZones]
    /// Zones on the span's canvas (every output, of every machine of a --wall), drawn over
    /// each output's own zones where they cover it; rects in points or percent of the canvas.
    var span: [Zone] = []

    /// The zones of the outputs `selector` names, and when those outputs are off.
    struct OutputZones: Sendable, Equatable {
        var selector: OutputSelector
        var zones: [Zone]
        /// While one of these holds the outputs are off (none: always on).
        var off: PowerSchedule? = nil
    }

    /// Which outputs a set of zones is for. An output takes the zones of its own name, else
    /// of its role (primary or secondaries), else those of "*".
    enum OutputSelector: Sendable, Equatable, Hashable {
        case name(String)
        case primary
        case secondaries
        case every
    }

    /// A rectangle of an output that plays a playlist.
    struct Zone: Sendable, Equatable {
        var name: String
        var rect: ZoneRect
        /// What it may play: the one whose daypart holds now, of the highest priority.
        var playlists: [ShowPlaylist]
        /// Whether the file gave one playlist as the zone's `items` (for the JSON paths of errors).
        var itemsAtTop = false

        /// The JSON path of item `item` of playlist `playlist`, under the zone's path `at`.
        func path(at: String, playlist: Int, item: Int) -> String {
            itemsAtTop ? "\(at).items[\(item)]" : "\(at).playlists[\(playlist)].items[\(item)]"
        }
    }

    /// Items played in order and looped, while the daypart holds (nil: always).
    struct ShowPlaylist: Sendable, Equatable {
        var name: String
        var when: Daypart?
        var priority: Int
        var items: [ShowItem]
    }

    /// One thing a zone shows, for `seconds`, and how it comes in.
    struct ShowItem: Sendable, Equatable {
        var source: ItemSource
        /// 0: a video's own length, not known until its file is read (``LoadedShow``).
        var seconds: Double
        var transition: Transition
        /// Where an image or a video goes in its zone.
        var fit: ScaleMode
        /// When it plays (nil: whenever its playlist does).
        var when: Daypart?
        /// What the play log calls it: the file, or the colour.
        var name: String
    }

    enum ItemSource: Sendable, Equatable {
        /// A still image file (PNG, JPEG, WebP, or a still FFmpeg reads).
        case image(String)
        /// A video file FFmpeg reads, from its first frame; an item with no seconds of its
        /// own lasts the video's length (``ShowItem/seconds`` 0 until the file is read).
        case video(String)
        /// A GLSL ES 3.00 fragment shader file, as --content takes.
        case shader(String)
        /// A solid colour.
        case color(RGB)
        /// A label, a clock or a ticker.
        case text(TextItem)

        /// The file it reads, if any.
        var file: String? {
            switch self {
            case .image(let path), .video(let path), .shader(let path): path
            case .color, .text: nil
            }
        }
    }

    enum Transition: Sendable, Equatable {
        /// The item replaces the last at its first refresh.
        case cut
        /// The item is mixed over the last, from none to all over these seconds.
        case crossfade(Double)
    }

    /// The zones for the output named: its own, else its role's, else every output's
    /// (none: the output shows the background).
    func zones(for output: String, primary: Bool) -> [Zone] {
        entry(for: output, primary: primary)?.zones ?? []
    }

    /// When the output named is off, by the same choice as its zones (nil: never).
    func power(for output: String, primary: Bool) -> PowerSchedule? {
        entry(for: output, primary: primary)?.off
    }

    private func entry(for output: String, primary: Bool) -> OutputZones? {
        for selector in [OutputSelector.name(output), primary ? .primary : .secondaries, .every] {
            if let entry = outputs.first(where: { $0.selector == selector }) { return entry }
        }
        return nil
    }

    /// The files the show's items name, each once, in order.
    var files: [ItemSource] {
        var seen = Set<String>(), files: [ItemSource] = []
        for zones in outputs.map(\.zones) + [span] {
            for zone in zones {
                for playlist in zone.playlists {
                    for item in playlist.items {
                        if let path = item.source.file, seen.insert(path).inserted { files.append(item.source) }
                    }
                }
            }
        }
        return files
    }
}

/// A zone's place on its output: each side in points or percent of the output.
struct ZoneRect: Sendable, Equatable {
    enum Length: Sendable, Equatable {
        case points(Double)
        case percent(Double)

        func pixels(of whole: Int32, pixelsPerPoint: Double) -> Double {
            switch self {
            case .points(let points): points * pixelsPerPoint
            case .percent(let percent): Double(whole) * percent / 100
            }
        }
    }

    var x = Length.percent(0)
    var y = Length.percent(0)
    var width = Length.percent(100)
    var height = Length.percent(100)

    /// The zone's pixels in a picture of `size` (from its top left), rounded to whole
    /// pixels and kept inside it; nil where nothing of it is left.
    func pixels(in size: Size, pixelsPerPoint: Double) -> Rect? {
        let left = x.pixels(of: size.width, pixelsPerPoint: pixelsPerPoint)
        let top = y.pixels(of: size.height, pixelsPerPoint: pixelsPerPoint)
        let right = left + width.pixels(of: size.width, pixelsPerPoint: pixelsPerPoint)
        let bottom = top + height.pixels(of: size.height, pixelsPerPoint: pixelsPerPoint)
        func clamp(_ value: Double, _ limit: Int32) -> Int32 { Int32(min(max(0, value.rounded()), Double(limit))) }
        let (x0, y0) = (clamp(left, size.width), clamp(top, size.height))
        let (x1, y1) = (clamp(right, size.width), clamp(bottom, size.height))
        guard x1 > x0, y1 > y0 else { return nil }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

extension ZoneRect {
    /// A span zone on one output: the zone placed on the canvas (`canvas`, points), moved
    /// by the output's place in it (`part`, points from the canvas's top left) and scaled
    /// by the output's pixels per point. The whole zone in the output's pixels (it may
    /// reach past the output, so that its content lines up across outputs), and the part
    /// of it within `output` pixels; nil where none of it falls on the output.
    func spanPixels(canvas: Size, part: Rect, output: Size, pixelsPerPoint: Double) -> (whole: Rect, visible: Rect)? {
        guard let zone = pixels(in: canvas, pixelsPerPoint: 1) else { return nil }
        func scaled(_ points: Int32) -> Int32 { Int32(clamping: Int64((Double(points) * pixelsPerPoint).rounded())) }
        let (left, top) = (scaled(zone.x - part.x), scaled(zone.y - part.y))
        let (right, bottom) = (scaled(zone.maxX - part.x), scaled(zone.maxY - part.y))
        let whole = Rect(x: left, y: top, width: right - left, height: bottom - top)
        let (x0, y0) = (max(0, left), max(0, top))
        let (x1, y1) = (min(output.width, right), min(output.height, bottom))
        guard x1 > x0, y1 > y0, !whole.size.isEmpty else { return nil }
        return (whole, Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
    }
}
