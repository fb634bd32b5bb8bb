/// Which pixels of a buffer changed: all of them, or a few rectangles inside it (buffer
/// pixels, origin at the top left). A window keeps one for what changed since its last
/// commit (wl_surface.damage_buffer) and one per wl_shm buffer for what that buffer lacks
/// of the latest frame. Held inline: a frame allocates nothing for it.
struct Damage {
    /// Past this many rectangles, their bounding box stands for them: a few more pixels
    /// copied costs less than many small copies and requests.
    static let mostRectangles = 8

    private var items = InlineArray<8, Rect>(repeating: .zero)
    private(set) var count = 0
    private(set) var isEverything: Bool

    static var everything: Damage { Damage(everything: true) }
    static var nothing: Damage { Damage(everything: false) }

    private init(everything: Bool) {
        isEverything = everything
    }

    /// `rectangles` (nil: everything) clipped to a buffer of `bounds`; empty ones left out.
    init(_ rectangles: [Rect]?, in bounds: Size) {
        guard let rectangles else {
            self.init(everything: true)
            return
        }
        self.init(everything: false)
        for rectangle in rectangles { add(rectangle, in: bounds) }
    }

    var isEmpty: Bool { !isEverything && count == 0 }

    /// Calls `body` with each rectangle to copy or to damage in a buffer of `bounds`.
    func forEach(in bounds: Size, _ body: (Rect) -> Void) {
        if isEverything {
            body(Rect(size: bounds))
            return
        }
        for i in 0..<count { body(items[i]) }
    }

    /// The rectangles, for tests and messages (nil: everything).
    var rectangles: [Rect]? {
        isEverything ? nil : (0..<count).map { items[$0] }
    }

    mutating func formUnion(_ other: Damage, in bounds: Size) {
        guard !isEverything else { return }
        guard !other.isEverything else {
            self = .everything
            return
        }
        for i in 0..<other.count { add(other.items[i], in: bounds) }
    }

    private mutating func add(_ rectangle: Rect, in bounds: Size) {
        guard !isEverything, let clipped = Damage.clip(rectangle, to: bounds) else { return }
        for i in 0..<count where Damage.contains(items[i], clipped) { return }
        // Those the new one covers go.
        var kept = 0
        for i in 0..<count where !Damage.contains(clipped, items[i]) {
            items[kept] = items[i]
            kept += 1
        }
        count = kept
        if count == Damage.mostRectangles {
            var box = clipped
            for i in 0..<count { box = Damage.boundingBox(box, items[i]) }
            items[0] = box
            count = 1
        } else {
            items[count] = clipped
            count += 1
        }
        if count == 1, items[0] == Rect(size: bounds) { self = .everything }
    }

    /// The part of `rectangle` inside a buffer of `bounds`, nil when none is.
    static func clip(_ rectangle: Rect, to bounds: Size) -> Rect? {
        let x0 = max(0, Int64(rectangle.x)), y0 = max(0, Int64(rectangle.y))
        let x1 = min(Int64(bounds.width), Int64(rectangle.x) + Int64(max(0, rectangle.width)))
        let y1 = min(Int64(bounds.height), Int64(rectangle.y) + Int64(max(0, rectangle.height)))
        guard x1 > x0, y1 > y0 else { return nil }
        return Rect(x: Int32(x0), y: Int32(y0), width: Int32(x1 - x0), height: Int32(y1 - y0))
    }

    private static func contains(_ outer: Rect, _ inner: Rect) -> Bool {
        outer.x <= inner.x && outer.y <= inner.y && outer.maxX >= inner.maxX && outer.maxY >= inner.maxY
    }

    private static func boundingBox(_ a: Rect, _ b: Rect) -> Rect {
        let x = min(a.x, b.x), y = min(a.y, b.y)
        return Rect(x: x, y: y, width: max(a.maxX, b.maxX) - x, height: max(a.maxY, b.maxY) - y)
    }
}

/// A buffer a frame is copied into, which remembers what it lacks of the latest frame.
protocol DamagedBuffer: AnyObject {
    var stale: Damage { get set }
}

/// The bookkeeping of a window's copies into its buffers (``SharedMemoryFrames``), apart
/// from GL and Wayland: each buffer lacks what changed since it was last filled, and the
/// compositor is told what changed since the last commit.
struct FrameLedger {
    /// What changed since the last commit: everything before the first.
    private(set) var sinceCommit = Damage.everything

    /// A frame was drawn that changed `change` in a framebuffer of `size`: each of
    /// `buffers` (those of that size) lacks it now.
    mutating func drawn<Buffers: Sequence>(_ change: Damage, size: Size, buffers: Buffers)
    where Buffers.Element: DamagedBuffer {
        sinceCommit.formUnion(change, in: size)
        for buffer in buffers { buffer.stale.formUnion(change, in: size) }
    }

    /// The framebuffer was made anew: nothing of it is anywhere yet.
    mutating func reset() { sinceCommit = .everything }

    /// Fills `buffer` for a commit: `copy` is called with each region it lacks, then
    /// `damage` with each region that changed since the last commit.
    mutating func fill(_ buffer: some DamagedBuffer, size: Size, copy: (Rect) -> Void, damage: (Rect) -> Void) {
        buffer.stale.forEach(in: size, copy)
        buffer.stale = .nothing
        sinceCommit.forEach(in: size, damage)
        sinceCommit = .nothing
    }
}
