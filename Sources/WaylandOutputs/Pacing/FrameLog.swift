/// What happened to one frame of one output.
public struct FrameSample: Sendable, Equatable {
    /// The frame's number on its output, from 0.
    public var index: UInt64
    /// Arrival of the frame callback that started this frame; nil when no callback did
    /// (the first frame, a redraw forced by a resize, or a loop paced by eglSwapBuffers).
    public var callbackArrival: MonotonicInstant?
    /// The compositor's own time in wl_callback.done: milliseconds, 32 bits, wrapping.
    public var callbackTime: UInt32?
    /// When the frame was meant to reach the screen (``DisplayLinkFrame/targetTimestamp``),
    /// and where that target came from.
    public var target: MonotonicInstant?
    public var targetSource: DisplayLinkFrame.TargetSource?
    /// When the renderer was called, and when eglSwapBuffers (the commit) returned.
    public var renderStart: MonotonicInstant
    public var commit: MonotonicInstant
    /// CPU time the render thread spent on this frame (render and swap).
    public var cpuTime: Duration
    /// When the frame reached the screen (wp_presentation_feedback.presented); nil until
    /// known, and forever where the compositor never says.
    public var presented: MonotonicInstant?
    /// The refresh period the compositor reported with `presented` (zero: unknown).
    public var presentedRefresh: Duration?
    /// The compositor's refresh counter and wp_presentation_feedback kind flags.
    public var presentedSequence: UInt64?
    public var presentationFlags: UInt32?
    /// The compositor never showed this frame (wp_presentation_feedback.discarded).
    public var discarded = false

    public init(index: UInt64, callbackArrival: MonotonicInstant? = nil, callbackTime: UInt32? = nil,
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

    public init(index: UInt64, target: MonotonicInstant, landed: MonotonicInstant, source: Source,
                targetSource: DisplayLinkFrame.TargetSource = .estimate) {
        (self.index, self.target, self.landed, self.source, self.targetSource) = (index, target, landed, source, targetSource)
    }

    /// How late the frame landed (negative: early).
    public var error: Duration { landed - target }
}

/// The recent frames of one output: all of them, or the last `capacity`.
public struct FrameLog: Sendable {
    /// How many samples are kept; nil keeps every one.
    public let capacity: Int?
    public private(set) var samples: [FrameSample] = []

    public init(capacity: Int?) {
        self.capacity = capacity
        if let capacity { samples.reserveCapacity(capacity * 2) }
    }

    public mutating func append(_ sample: FrameSample) {
        samples.append(sample)
        // Trim in chunks, so appending stays amortised O(1) and allocation-free.
        if let capacity, samples.count >= capacity * 2 {
            samples.removeFirst(samples.count - capacity)
        }
    }

    /// When each kept frame landed, where that is known: its presentation time, else the
    /// arrival of the frame callback that started the next frame (which the compositor
    /// sent when it used this one). Frames without a target, discarded frames and the
    /// last frame (nothing followed it yet) are left out.
    public var landings: [FrameLanding] {
        var result: [FrameLanding] = []
        result.reserveCapacity(samples.count)
        for (position, sample) in samples.enumerated() {
            guard let target = sample.target, !sample.discarded else { continue }
            if let presented = sample.presented {
                result.append(FrameLanding(index: sample.index, target: target, landed: presented, source: .presentation,
                                           targetSource: sample.targetSource ?? .estimate))
            } else if position + 1 < samples.count, samples[position + 1].index == sample.index + 1,
                      let arrival = samples[position + 1].callbackArrival, arrival > sample.commit {
                result.append(FrameLanding(index: sample.index, target: target, landed: arrival, source: .frameCallback,
                                           targetSource: sample.targetSource ?? .estimate))
            }
        }
        return result
    }

    /// The sample of frame `index`, if it is still kept.
    func sample(_ index: UInt64) -> FrameSample? {
        guard let first = samples.first, index >= first.index else { return nil }
        let position = Int(index - first.index)
        guard position < samples.count, samples[position].index == index else { return nil }
        return samples[position]
    }

    /// Changes the sample of frame `index`, if it is still kept.
    mutating func update(frame index: UInt64, _ change: (inout FrameSample) -> Void) {
        guard let first = samples.first, index >= first.index else { return }
        let position = Int(index - first.index)
        guard position < samples.count, samples[position].index == index else { return }
        change(&samples[position])
    }
}
