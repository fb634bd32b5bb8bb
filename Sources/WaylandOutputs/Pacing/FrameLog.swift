/// What happened to one frame of one output.
public struct FrameSample: Sendable, Equatable {
    /// The frame's number on its output, from 0.
    public var index: UInt64
    /// Arrival of the frame callback that started this frame; nil when no callback did
    /// (the first frame, a redraw forced by a resize, or a loop paced by eglSwapBuffers).
    public var callbackArrival: MonotonicInstant?
    /// The compositor's own time in wl_callback.done: milliseconds, 32 bits, wrapping.
    public var callbackTime: UInt32?
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
                renderStart: MonotonicInstant, commit: MonotonicInstant, cpuTime: Duration = .zero) {
        self.index = index
        self.callbackArrival = callbackArrival
        self.callbackTime = callbackTime
        self.renderStart = renderStart
        self.commit = commit
        self.cpuTime = cpuTime
    }
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

    /// Changes the sample of frame `index`, if it is still kept.
    mutating func update(frame index: UInt64, _ change: (inout FrameSample) -> Void) {
        guard let first = samples.first, index >= first.index else { return }
        let position = Int(index - first.index)
        guard position < samples.count, samples[position].index == index else { return }
        change(&samples[position])
    }
}
