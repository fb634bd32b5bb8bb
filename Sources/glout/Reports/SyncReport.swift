import WaylandOutputs

/// How far from their targets an output's frames landed (--stats-json, per output), in
/// milliseconds: positive late, negative early. Pure.
struct LandingSummary: Encodable, Equatable {
    /// What said when frames landed: "presentation", "frame-callback", or "mixed".
    var source: String
    /// Where the targets came from: "presentation" (the refresh grid learnt from
    /// presentation times), "estimate" (frame callback plus the period), or "mixed".
    var target: String
    var frames: Int
    var mean_ms: Double
    var p50_ms: Double
    var p99_ms: Double
    var max_ms: Double
    var min_ms: Double
    /// The 99th percentile of how far off each frame landed, early or late.
    var p99_abs_ms: Double

    init?(_ landings: [FrameLanding]) {
        guard !landings.isEmpty else { return nil }
        let sources = Set(landings.map(\.source))
        source = sources.count == 1 ? sources.first!.rawValue : "mixed"
        let targets = Set(landings.map(\.targetSource))
        target = targets.count == 1 ? targets.first!.rawValue : "mixed"
        let errors = landings.map { $0.error.inSeconds * 1e3 }.sorted()
        frames = errors.count
        mean_ms = errors.reduce(0, +) / Double(errors.count)
        p50_ms = IntervalSummary.percentile(errors, 50)
        p99_ms = IntervalSummary.percentile(errors, 99)
        max_ms = errors.last!
        min_ms = errors.first!
        p99_abs_ms = IntervalSummary.percentile(errors.map(\.magnitude).sorted(), 99)
    }
}

/// Between two outputs of a span: how far apart the moments their pictures stand for are,
/// beyond what their refresh rates make inevitable. At each frame landing on either
/// output, the difference between its landing error and that of the other output's frame
/// on screen then: if both land on target it is zero, a frame one refresh late makes it a
/// refresh. (The bar on a 30 Hz output also stands still for two 60 Hz refreshes: that is
/// the period of motion every span has, not counted here.) Pure.
struct SeamOffset: Encodable, Equatable {
    var outputs: [String]
    var samples: Int
    var p50_ms: Double
    var p99_ms: Double
    var max_ms: Double

    /// A frame on screen longer than this is not compared (its output had stopped).
    static let staleAfter = Duration.seconds(1)

    init?(_ a: (name: String, landings: [FrameLanding]), _ b: (name: String, landings: [FrameLanding])) {
        let offsets = (SeamOffset.offsets(a.landings, against: b.landings)
            + SeamOffset.offsets(b.landings, against: a.landings)).sorted()
        guard !offsets.isEmpty else { return nil }
        outputs = [a.name, b.name]
        samples = offsets.count
        p50_ms = IntervalSummary.percentile(offsets, 50)
        p99_ms = IntervalSummary.percentile(offsets, 99)
        max_ms = offsets.last!
    }

    /// For each landing of `a`, |its error − the error of `b`'s frame on screen at that
    /// moment| in milliseconds.
    static func offsets(_ a: [FrameLanding], against b: [FrameLanding]) -> [Double] {
        let a = a.sorted { $0.landed < $1.landed }, b = b.sorted { $0.landed < $1.landed }
        var result: [Double] = []
        result.reserveCapacity(a.count)
        var j = -1
        for landing in a {
            while j + 1 < b.count && b[j + 1].landed <= landing.landed { j += 1 }
            guard j >= 0, landing.landed - b[j].landed <= staleAfter else { continue }
            result.append(abs((landing.error - b[j].error).inSeconds) * 1e3)
        }
        return result
    }
}

/// The span part of --stats-json: the clock, the canvas, and the seam offsets between
/// every two of this machine's outputs in it.
struct SpanReport: Encodable, Equatable {
    var clock: String
    var machine: String
    var canvas_width: Int32
    var canvas_height: Int32
    var seams: [SeamOffset]
    /// The largest p99 of `seams`, nil with fewer than two outputs in the span.
    var seam_offset_p99_ms: Double?

    init(clock: SceneClock, machine: String, canvas: SpanCanvas, landings: [(name: String, landings: [FrameLanding])]) {
        self.clock = clock.rawValue
        self.machine = machine
        (canvas_width, canvas_height) = (canvas.size.width, canvas.size.height)
        let parts = landings.filter { canvas.part(machine: machine, name: $0.name) != nil }.sorted { $0.name < $1.name }
        var seams: [SeamOffset] = []
        for i in parts.indices {
            for j in parts.indices where j > i {
                if let seam = SeamOffset(parts[i], parts[j]) { seams.append(seam) }
            }
        }
        self.seams = seams
        seam_offset_p99_ms = seams.map(\.p99_ms).max()
    }
}
