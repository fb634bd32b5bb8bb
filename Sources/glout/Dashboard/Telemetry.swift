import WaylandOutputs

/// What every output's renderer reports about itself, for the dashboard on the primary:
/// its description, the arrival times of its recent frames and how late they landed. Written by each render
/// thread once per frame, read by the primary's; fixed-size rings, so nothing is
/// allocated per frame.
final class Telemetry: Sendable {
    /// Frame times kept per output: 2 s at 166 Hz, with room to spare.
    static let capacity = 512

    struct Entry: Sendable {
        var output: Output
        var times = [UInt64](repeating: 0, count: Telemetry.capacity)
        var count = 0
        var next = 0
        /// Nanoseconds from each recent frame's target to the frame callback that followed it.
        var landings = [Int64](repeating: 0, count: Telemetry.capacity)
        var landingCount = 0
        var nextLanding = 0
    }

    private struct State: Sendable {
        var entries: [UInt32: Entry] = [:]
        /// Bumped whenever an output appears, leaves or changes its description.
        var generation: UInt64 = 0
    }

    private let state = Locked(State())
    /// What each output's refreshes showed of its --content video (kept after the
    /// window closes, for the stats).
    private let videos = Locked([UInt32: [VideoPlayback]]())

    /// An output's renderer showed another frame of one of its videos.
    func recordVideo(_ outputID: UInt32, _ playback: VideoPlayback) {
        // In place: no copy of the list each frame.
        videos.withLock { videos in
            if let at = videos[outputID]?.firstIndex(where: { $0.source === playback.source }) {
                videos[outputID]?[at] = playback
            } else {
                videos[outputID, default: []].append(playback)
            }
        }
    }

    /// What `outputID`'s refreshes showed of each video it played, in the order first shown.
    func videos(_ outputID: UInt32) -> [VideoPlayback] { videos.withLock { $0[outputID] ?? [] } }

    /// A video the control API no longer shows anywhere: its counts go with it (its
    /// decoder and frames are let go).
    func forget(video source: VideoSource) {
        videos.withLock { videos in
            for key in videos.keys { videos[key]?.removeAll { $0.source === source } }
        }
    }

    /// A value for each of an output's last refreshes, by the display link's frame index
    /// (as many as the frame log keeps): a fixed ring, written in place.
    struct FrameValues<Value: Sendable>: Sendable {
        var indices: [UInt64]
        var values: [Value?]
        var count = 0
        var next = 0

        init(capacity: Int) {
            indices = [UInt64](repeating: 0, count: capacity)
            values = [Value?](repeating: nil, count: capacity)
        }

        mutating func record(index: UInt64, value: Value) {
            indices[next] = index
            values[next] = value
            next = (next + 1) % indices.count
            count = min(count + 1, indices.count)
        }

        /// The values by index, oldest kept first (of two for one index, the later).
        var byIndex: [UInt64: Value] {
            var table: [UInt64: Value] = [:]
            for i in 0..<count {
                let at = (next - count + i + indices.count) % indices.count
                table[indices[at]] = values[at]
            }
            return table
        }
    }
    /// How many refreshes of each output the per-frame values keep (those of the frame
    /// log, for --landings-json); nil: none are kept.
    private let framesKept: Int?
    private let videoFrames = Locked([UInt32: FrameValues<Int>]())
    private let tickerTravel = Locked([UInt32: FrameValues<Double>]())

    /// - Parameter framesKept: how many refreshes of each output the video frames and
    ///   ticker travel they showed are kept for (--landings-json); nil keeps none.
    init(framesKept: Int? = nil) {
        self.framesKept = framesKept.map { max(1, $0) }
    }

    /// Refresh `index` of `outputID` showed frame `number` of its video (numbered on the
    /// unwrapped timeline: pass x frames + frame).
    func recordVideoFrame(_ outputID: UInt32, index: UInt64, number: Int) {
        guard let framesKept else { return }
        videoFrames.withLock { $0[outputID, default: FrameValues(capacity: framesKept)].record(index: index, value: number) }
    }

    /// The video frame each kept refresh of `outputID` showed, by frame index.
    func videoFrames(_ outputID: UInt32) -> [UInt64: Int] { videoFrames.withLock { $0[outputID]?.byIndex ?? [:] } }

    /// Refresh `index` of `outputID` drew a show's ticker `pixels` along from where its
    /// item began (unwrapped: the line's travel, not its place in the zone).
    func recordTickerTravel(_ outputID: UInt32, index: UInt64, pixels: Double) {
        guard let framesKept else { return }
        tickerTravel.withLock { $0[outputID, default: FrameValues(capacity: framesKept)].record(index: index, value: pixels) }
    }

    /// How far each kept refresh of `outputID` drew its ticker, by frame index (of two
    /// in a frame, the one laid out last: the top zone's, and in a crossfade from one
    /// ticker to another, the one going).
    func tickerTravel(_ outputID: UInt32) -> [UInt64: Double] { tickerTravel.withLock { $0[outputID]?.byIndex ?? [:] } }

    /// An output glout draws on (or its new description).
    func register(_ output: Output) {
        state.withLock { state in
            guard state.entries[output.id]?.output != output else { return }
            if state.entries[output.id] == nil {
                state.entries[output.id] = Entry(output: output)
            } else {
                state.entries[output.id]!.output = output
            }
            state.generation &+= 1
        }
    }

    /// A renderer draws a frame for `output` at `timestamp` (MonotonicClock ns); the last
    /// frame landed `landing` ns after its target, if known.
    func record(_ output: Output, timestamp: UInt64, landing: Int64? = nil) {
        state.withLock { state in
            guard state.entries[output.id] != nil else { return }
            Telemetry.update(&state.entries[output.id]!, timestamp: timestamp, landing: landing)
        }
    }

    private static func update(_ entry: inout Entry, timestamp: UInt64, landing: Int64?) {
        entry.times[entry.next] = timestamp
        entry.next = (entry.next + 1) % capacity
        entry.count = min(entry.count + 1, capacity)
        guard let landing else { return }
        entry.landings[entry.nextLanding] = landing
        entry.nextLanding = (entry.nextLanding + 1) % capacity
        entry.landingCount = min(entry.landingCount + 1, capacity)
    }

    /// An output's window closed.
    func forget(_ outputID: UInt32) {
        state.withLock { state in
            if state.entries.removeValue(forKey: outputID) != nil { state.generation &+= 1 }
        }
    }

    var generation: UInt64 { state.withLock { $0.generation } }

    /// Reads the entries in place, without copying them.
    func read<T>(_ body: ([UInt32: Entry]) -> T) -> T { state.withLock { body($0.entries) } }
}
