/// What happened to one frame of one output.
package struct FrameSample: Sendable, Equatable {
    /// The frame's number on its output, from 0.
    package var index: UInt64
    /// Arrival of the frame callback that started this frame; nil when no callback did
    /// (the first frame, a redraw forced by a resize, or a loop paced by eglSwapBuffers).
    package var callbackArrival: MonotonicInstant?
    /// The compositor's own time in wl_callback.done: milliseconds, 32 bits, wrapping.
    package var callbackTime: UInt32?
    /// When the frame was meant to reach the screen (``DisplayLinkFrame/targetTimestamp``),
    /// and where that target came from.
    package var target: MonotonicInstant?
    package var targetSource: DisplayLinkFrame.TargetSource?
    /// When the renderer was called, and when eglSwapBuffers (the commit) returned.
    package var renderStart: MonotonicInstant
    package var commit: MonotonicInstant
    /// CPU time the render thread spent on this frame (render and swap).
    package var cpuTime: Duration
    /// When the frame reached the screen (wp_presentation_feedback.presented); nil until
    /// known, and forever where the compositor never says.
    package var presented: MonotonicInstant?
    /// The refresh period the compositor reported with `presented` (zero: unknown).
    package var presentedRefresh: Duration?
    /// The compositor's refresh counter and wp_presentation_feedback kind flags.
    package var presentedSequence: UInt64?
    package var presentationFlags: UInt32?
    /// The compositor never showed this frame (wp_presentation_feedback.discarded).
    package var discarded = false
    /// The window rested after this frame (its renderer stood still): the time to the
    /// next is a pause, not refreshes missed.
    package var restsAfter = false

    package init(index: UInt64, callbackArrival: MonotonicInstant? = nil, callbackTime: UInt32? = nil,
                target: MonotonicInstant? = nil, renderStart: MonotonicInstant, commit: MonotonicInstant,
                cpuTime: Duration = .zero) {
        self.index = index
        self.callbackArrival = callbackArrival
        self.callbackTime = callbackTime
        self.target = target
        self.renderStart = renderStart
        self.commit = commit
        self.cpuTime = cpuTime
    }
}

/// When a frame reached the screen against when it was meant to.
public struct FrameLanding: Sendable, Equatable {
    /// What said when the frame landed.
    public enum Source: String, Sendable {
        /// wp_presentation_feedback.presented: the compositor's own time of the refresh.
        case presentation
        /// The frame callback that followed the commit: sent when the compositor used the
        /// frame, the nearest a compositor without presentation feedback tells.
        case frameCallback = "frame-callback"
    }

    public var index: UInt64
    /// ``DisplayLinkFrame/targetTimestamp`` of the frame, and where it came from.
    public var target: MonotonicInstant
    public var targetSource: DisplayLinkFrame.TargetSource
    public var landed: MonotonicInstant
    public var source: Source
    /// When the frame was committed: a report tells the frames of start-up by it.
    public var commit: MonotonicInstant
    /// Arrival of the frame callback that started the frame (nil: none did); with
    /// `commit`, how long the client took to answer the compositor's refresh.
    package var callbackArrival: MonotonicInstant?

    package init(index: UInt64, target: MonotonicInstant, landed: MonotonicInstant, source: Source,
                targetSource: DisplayLinkFrame.TargetSource = .estimate, commit: MonotonicInstant? = nil,
                callbackArrival: MonotonicInstant? = nil) {
        (self.index, self.target, self.landed, self.source, self.targetSource) = (index, target, landed, source, targetSource)
        self.commit = commit ?? target
        self.callbackArrival = callbackArrival
    }

    /// How late the frame landed (negative: early).
    public var error: Duration { landed - target }
}

/// The recent frames of one output: all of them, or the last `capacity` and the first
/// ``opening`` (the start-up a report tells apart, which a long run would otherwise trim).
package struct FrameLog: Sendable {
    /// How many samples are kept; nil keeps every one.
    package let capacity: Int?
    package private(set) var samples: [FrameSample] = []
    /// The first frames, where a capacity trims `samples`: kept whole (and updated as their
    /// feedback comes) once they have left it.
    package private(set) var opening: [FrameSample] = []
    /// How many of the first frames are kept apart: more than the first second has at 240 Hz.
    package static let openingCount = 512

    package init(capacity: Int?) {
        self.capacity = capacity
        if let capacity {
            samples.reserveCapacity(capacity * 2)
            opening.reserveCapacity(FrameLog.openingCount)
        }
    }

    package mutating func append(_ sample: FrameSample) {
        samples.append(sample)
        // Trim in chunks, so appending stays amortised O(1) and allocation-free.
        if let capacity, samples.count >= capacity * 2 {
            let trimmed = samples.count - capacity
            let kept = min(trimmed, FrameLog.openingCount - opening.count)
            if kept > 0 { opening.append(contentsOf: samples[..<kept]) }
            samples.removeFirst(trimmed)
        }
    }

    /// When each kept frame landed, where that is known: its presentation time, else the
    /// arrival of the frame callback that started the next frame (which the compositor
    /// sent when it used this one). On an output whose compositor answers presentation
    /// feedback, only presented frames count: a callback is not a presentation, and one
    /// frame timed by it among presented ones is off by its own measure. Frames without a
    /// target, discarded frames and the last frame (nothing followed it yet) are left out.
    package var landings: [FrameLanding] {
        let presents = samples.contains { $0.presented != nil } || opening.contains { $0.presented != nil }
        var result: [FrameLanding] = []
        result.reserveCapacity(opening.count + samples.count)
        for frames in [opening, samples] {
            for (position, sample) in frames.enumerated() {
                guard let target = sample.target, !sample.discarded else { continue }
                if let presented = sample.presented {
                    result.append(FrameLanding(index: sample.index, target: target, landed: presented, source: .presentation,
                                               targetSource: sample.targetSource ?? .estimate, commit: sample.commit,
                                               callbackArrival: sample.callbackArrival))
                } else if !presents, position + 1 < frames.count, frames[position + 1].index == sample.index + 1,
                          let arrival = frames[position + 1].callbackArrival, arrival > sample.commit {
                    result.append(FrameLanding(index: sample.index, target: target, landed: arrival, source: .frameCallback,
                                               targetSource: sample.targetSource ?? .estimate, commit: sample.commit,
                                               callbackArrival: sample.callbackArrival))
                }
            }
        }
        return result
    }

    /// The sample of frame `index`, if it is still kept.
    func sample(_ index: UInt64) -> FrameSample? {
        if let position = FrameLog.position(of: index, in: samples) { return samples[position] }
        return FrameLog.position(of: index, in: opening).map { opening[$0] }
    }

    /// Changes the sample of frame `index`, if it is still kept.
    mutating func update(frame index: UInt64, _ change: (inout FrameSample) -> Void) {
        if let position = FrameLog.position(of: index, in: samples) {
            change(&samples[position])
        } else if let position = FrameLog.position(of: index, in: opening) {
            change(&opening[position])
        }
    }

    /// Where frame `index` is in `frames` (consecutive indices), if there.
    private static func position(of index: UInt64, in frames: [FrameSample]) -> Int? {
        guard let first = frames.first, index >= first.index else { return nil }
        let position = Int(index - first.index)
        guard position < frames.count, frames[position].index == index else { return nil }
        return position
    }
}
