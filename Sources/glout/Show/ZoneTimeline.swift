import Foundation
import WaylandOutputs

/// What a show's zone plays at each instant of CLOCK_REALTIME: the playlist whose daypart
/// holds (the highest priority, the first listed on a tie; one with no daypart always
/// holds), with those of its items whose own dayparts hold, looped from the instant that
/// choice last changed (a daypart's boundary), so that every machine playing the show
/// shows the same item at the same instant. Pure, apart from a cache of the stretches of
/// time one choice lasts, shared by the outputs that show the zone.
final class ZoneTimeline: Sendable {
    let zone: Show.Zone

    /// An item of the zone: its playlist and its place there.
    struct ItemRef: Sendable, Equatable, Hashable {
        var playlist: Int
        var item: Int
    }

    /// A stretch of time with one choice: from `start` (0: as far back as glout looks)
    /// until `end`, the playlist chosen (nil: nothing, the background shows) and its items
    /// that play.
    struct Segment: Sendable, Equatable {
        var start: Double
        var end: Double
        var playlist: Int?
        var items: [Int]
        /// Where each item begins in one pass of the list, and a pass's length.
        var offsets: [Double] = []
        var length = 0.0

        fileprivate init(zone: Show.Zone, start: Double, end: Double, choice: Choice) {
            (self.start, self.end, playlist, items) = (start, end, choice.playlist, choice.items)
            guard let playlist else { return }
            for item in items {
                offsets.append(length)
                length += zone.playlists[playlist].items[item].seconds
            }
        }
    }

    /// What the zone shows at an instant.
    struct Position: Sendable, Equatable {
        var current: ItemRef
        /// Seconds since the item began.
        var local: Double
        /// When the item began (CLOCK_REALTIME): with the item, what one showing of it is.
        var began: Double
        /// The item it comes in over (nil: the background), and how much of the new one
        /// shows (1: all of it; less while it crossfades in).
        var previous: ItemRef?
        var mix: Double
        /// Which showing of its segment's loop this is, counted from the segment's start
        /// (a video numbers its frames by it), and that of the item it comes in over.
        var showing = 0
        var previousShowing = 0
    }

    /// The choice of playlist and items at an instant.
    fileprivate struct Choice: Equatable {
        var playlist: Int?
        var items: [Int]
    }

    private let segments = Locked<[Segment]>([])
    /// Whether a job works out the next stretch now.
    private let preparing = Locked(false)

    init(zone: Show.Zone) {
        self.zone = zone
    }

    /// What the zone shows at `seconds` since 1970 (nil: nothing: the background).
    func position(at seconds: Double) -> Position? {
        guard seconds.isFinite else { return nil }
        let segment = segment(at: seconds)
        guard var position = ZoneTimeline.position(in: segment, zone: zone, at: seconds) else { return nil }
        let item = zone.playlists[position.current.playlist].items[position.current.item]
        guard case .crossfade(let length) = item.transition, position.local < length else { return position }
        if position.previous == nil {
            // Only the first item after a boundary comes in over what played before it
            // (nothing: what is beneath the zone); a list of one item loops without a fade.
            guard position.began == segment.start, segment.start > 0 else { return position }
            let before = self.segment(at: segment.start - 0.000_5)
            let last = ZoneTimeline.position(in: before, zone: zone, at: segment.start - 0.000_5)
            (position.previous, position.previousShowing) = (last?.current, last?.showing ?? 0)
        }
        position.mix = max(0, position.local / length)
        return position
    }

    /// The item at `seconds` of `segment`, and the one before it in the same playlist.
    private static func position(in segment: Segment, zone: Show.Zone, at seconds: Double) -> Position? {
        guard let playlist = segment.playlist, !segment.items.isEmpty, segment.length > 0 else { return nil }
        let elapsed = max(0, seconds - segment.start)
        let pass = (elapsed / segment.length).rounded(.down)
        let offset = min(max(0, elapsed - pass * segment.length), segment.length)
        // The last item whose offset is at or before this one (binary search).
        var low = 0, high = segment.offsets.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if segment.offsets[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        let index = low
        let began = segment.start + pass * segment.length + segment.offsets[index]
        var previous: ItemRef?
        if index > 0 || pass > 0, segment.items.count > 1 {
            previous = ItemRef(playlist: playlist, item: segment.items[(index + segment.items.count - 1) % segment.items.count])
        }
        // Whole passes since the segment began, times the items in one, and this one's place.
        let most = Int.max / max(1, segment.items.count) - 1
        let passes = pass < Double(most) ? Int(pass) : most
        let showing = passes * segment.items.count + index
        return Position(current: ItemRef(playlist: playlist, item: segment.items[index]), local: offset - segment.offsets[index],
                        began: began, previous: previous, mix: 1, showing: showing, previousShowing: max(0, showing - 1))
    }

    /// The stretch of one choice that holds `seconds`: from the cache, else worked out.
    func segment(at seconds: Double) -> Segment {
        if let known = segments.withLock({ $0.first { $0.start <= seconds && seconds < $0.end } }) { return known }
        let segment = ZoneTimeline.segment(of: zone, at: seconds)
        segments.withLock { list in
            guard !list.contains(where: { $0.start == segment.start && $0.end == segment.end }) else { return }
            list.append(segment)
            if list.count > 8 { list.removeFirst(list.count - 8) }
        }
        return segment
    }

    /// Works out the next stretch after the one holding `seconds` ahead of time, off the
    /// caller's thread, when it begins within `within` seconds: a boundary's refresh then
    /// finds it ready. One such job at a time.
    func prepare(after seconds: Double, within: Double) {
        let current = segment(at: seconds)
        guard current.end - seconds < within, current.end < .infinity else { return }
        let next = current.end
        let start = segments.withLock { list -> Bool in
            guard !list.contains(where: { $0.start <= next && next < $0.end }) else { return false }
            return preparing.withLock { preparing in
                guard !preparing else { return false }
                preparing = true
                return true
            }
        }
        guard start else { return }
        DispatchQueue.global(qos: .utility).async { [self] in
            _ = segment(at: next)
            preparing.withLock { $0 = false }
        }
    }

    /// The dayparts of the zone's playlists and items.
    private static func dayparts(of zone: Show.Zone) -> [Daypart] {
        zone.playlists.flatMap { playlist in [playlist.when].compactMap { $0 } + playlist.items.compactMap(\.when) }
    }

    /// Which playlist and items play at `seconds`.
    private static func choice(of zone: Show.Zone, at seconds: Double) -> Choice {
        var best: (index: Int, priority: Int, items: [Int])?
        for (index, playlist) in zone.playlists.enumerated() where playlist.when?.holds(at: seconds) ?? true {
            let items = playlist.items.indices.filter { playlist.items[$0].when?.holds(at: seconds) ?? true }
            guard !items.isEmpty, best.map({ playlist.priority > $0.priority }) ?? true else { continue }
            best = (index, playlist.priority, items)
        }
        return Choice(playlist: best?.index, items: best?.items ?? [])
    }

    /// How far back one look at the days goes: more than a week.
    private static let week = 8 * 86_400.0

    /// The stretch of one choice around `seconds`: back to the instant the choice last
    /// changed (never: 0), on to the next (none within a week: a week on, then looked at
    /// again). The start depends on `seconds` and the show alone, however long ago the
    /// choice changed, so every machine agrees on it whenever it asks: between two ends of
    /// the dayparts' date ranges what holds repeats week after week, so a choice that held
    /// for 8 days there held since that stretch began, and the look goes on from its edge.
    static func segment(of zone: Show.Zone, at seconds: Double) -> Segment {
        let now = choice(of: zone, at: seconds)
        let dayparts = dayparts(of: zone)
        let made = { (start: Double, end: Double) in Segment(zone: zone, start: start, end: end, choice: now) }
        guard !dayparts.isEmpty else { return made(0, .infinity) }
        let edges = Array(Set(dayparts.flatMap(\.dateEdges))).sorted()
        func changes(from: Double, to: Double) -> [Double] {
            Array(Set(dayparts.flatMap { $0.changes(from: from, to: to) })).filter { $0 >= from && $0 <= to }.sorted()
        }
        var start = 0.0, cursor = seconds
        search: while true {
            let stretch = edges.last { $0 <= cursor }
            let from = max(stretch ?? -.infinity, cursor - week)
            for instant in changes(from: from, to: cursor).reversed() where choice(of: zone, at: instant - 0.000_5) != now {
                start = instant
                break search
            }
            guard let stretch else { break }
            if from > stretch, choice(of: zone, at: stretch - 0.000_5) != now {
                start = stretch
                break
            }
            cursor = stretch - 0.001
        }
        var end = seconds + 7 * 86_400
        for instant in changes(from: seconds, to: end) where instant > seconds && choice(of: zone, at: instant) != now {
            end = instant
            break
        }
        return made(start, end)
    }
}
