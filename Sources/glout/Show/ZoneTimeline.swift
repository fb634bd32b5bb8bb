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
    }

    /// The choice of playlist and items at an instant.
    private struct Choice: Equatable {
        var playlist: Int?
        var items: [Int]
    }

    private let segments = Locked<[Segment]>([])

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
        position.mix = max(0, position.local / length)
        if position.previous == nil, position.began == segment.start, segment.start > 0 {
            // The first item after a boundary comes in over what played before it.
            let before = self.segment(at: segment.start - 0.000_5)
            position.previous = ZoneTimeline.position(in: before, zone: zone, at: segment.start - 0.000_5)?.current
        }
        return position
    }

    /// The item at `seconds` of `segment`, and the one before it in the same playlist.
    private static func position(in segment: Segment, zone: Show.Zone, at seconds: Double) -> Position? {
        guard let playlist = segment.playlist, !segment.items.isEmpty else { return nil }
        let items = zone.playlists[playlist].items
        let list = Playlist(durations: segment.items.map { items[$0].seconds })
        let at = list.position(at: seconds - segment.start)
        let began = segment.start + Double(at.pass) * list.length + list.durations[..<at.item].reduce(0, +)
        var previous: ItemRef?
        if at.item > 0 || at.pass > 0, segment.items.count > 1 {
            previous = ItemRef(playlist: playlist, item: segment.items[(at.item + segment.items.count - 1) % segment.items.count])
        }
        return Position(current: ItemRef(playlist: playlist, item: segment.items[at.item]), local: at.local, began: began,
                        previous: previous, mix: 1)
    }

    /// The stretch of one choice that holds `seconds`: from the cache, else worked out.
    func segment(at seconds: Double) -> Segment {
        if let known = segments.withLock({ $0.first { $0.start <= seconds && seconds < $0.end } }) { return known }
        let segment = ZoneTimeline.segment(of: zone, at: seconds)
        segments.withLock { list in
            list.append(segment)
            if list.count > 8 { list.removeFirst(list.count - 8) }
        }
        return segment
    }

    /// Works out the next stretch after the one holding `seconds` ahead of time, off the
    /// caller's thread, when it begins within `within` seconds: a boundary's refresh then
    /// finds it ready.
    func prepare(after seconds: Double, within: Double) {
        let current = segment(at: seconds)
        guard current.end - seconds < within, current.end < .infinity else { return }
        let next = current.end
        if segments.withLock({ $0.contains { $0.start <= next && next < $0.end } }) { return }
        DispatchQueue.global(qos: .utility).async { [self] in _ = segment(at: next) }
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

    /// The stretch of one choice around `seconds`: back to the last instant the choice
    /// changed (none within the dayparts' reach: 0, which every machine agrees on), on to
    /// the next (none: a week on, then looked at again).
    static func segment(of zone: Show.Zone, at seconds: Double) -> Segment {
        let now = choice(of: zone, at: seconds)
        let dayparts = dayparts(of: zone)
        guard !dayparts.isEmpty else { return Segment(start: 0, end: .infinity, playlist: now.playlist, items: now.items) }
        let instants = Array(Set(dayparts.flatMap { $0.changes(around: seconds) })).sorted()
        var start = 0.0, end = seconds + 7 * 86_400
        // The choice is the same from one instant of the list to the next.
        for instant in instants.reversed() where instant <= seconds {
            if choice(of: zone, at: instant - 0.000_5) != now {
                start = instant
                break
            }
        }
        for instant in instants where instant > seconds && instant < end {
            if choice(of: zone, at: instant) != now {
                end = instant
                break
            }
        }
        return Segment(start: start, end: end, playlist: now.playlist, items: now.items)
    }
}
