import CWayland
import Glibc

/// What the compositor said about a frame through wp_presentation_feedback.
package enum PresentationResult: Sendable, Equatable {
    /// Shown at `time`, with the refresh period (zero: unknown), refresh counter and kind
    /// flags the compositor gave.
    case presented(time: MonotonicInstant, refresh: Duration, sequence: UInt64, flags: UInt32)
    /// Never shown.
    case discarded
    /// Shown, says the compositor, at a time no figure may be built from (its nanoseconds
    /// past 10⁹, its clock one this machine cannot read, seconds away from now, or earlier
    /// than the frame before); `reason` says which.
    case unusable(reason: String)
}

/// Requests a wp_presentation_feedback for each commit of one surface and reports the
/// answers. At most `limit` requests stay outstanding: a compositor that never answers
/// (sway 1.7 headless) would otherwise make them pile up; the oldest is dropped first.
/// Where it keeps not answering, only one commit in many asks (``FeedbackAsking``).
/// The requests' records are made once and reused: a frame allocates nothing here.
final class PresentationFeedback {
    /// One request slot; the C callbacks' user data while its proxy is outstanding.
    private final class Request: ProxyOwner {
        var proxy: OpaquePointer?
        var frame: UInt64 = 0
        unowned let owner: PresentationFeedback

        init(owner: PresentationFeedback) {
            self.owner = owner
        }
    }

    private let presentation: OpaquePointer
    /// The compositor's clock (wp_presentation.clock_id), nil where it is not a clock
    /// presentation times can be on (CLOCK_REALTIME, _MONOTONIC, _MONOTONIC_RAW,
    /// _BOOTTIME, _TAI) or this machine cannot read it.
    private let clock: clockid_t?
    /// The last time accepted, on CLOCK_MONOTONIC, and the last sequence, to refuse
    /// times that go backwards.
    private var lastPresented: UInt64?
    private var lastSequence: UInt64 = 0
    /// Values out of range the compositor sent (refresh periods, sequences).
    var onProblem: ((CompositorValues.Problem) -> Void)?
    private let limit: Int
    private var outstanding: [Request] = []
    private var spare: [Request] = []
    /// Called with each answer, on the window's thread.
    var onResult: ((UInt64, PresentationResult) -> Void)?
    /// Requests dropped unanswered because `limit` was reached.
    private(set) var dropped: UInt64 = 0
    /// Which commits ask, and how many have.
    private var asking = FeedbackAsking()
    var requested: UInt64 { asking.requested }
    /// The most requests ever outstanding at once.
    private(set) var mostOutstanding = 0
    var outstandingCount: Int { outstanding.count }

    /// `presentation` is the global wp_presentation; `clockID` what its clock_id said.
    init(queue: EventQueue, presentation: OpaquePointer, clockID: UInt32, limit: Int = 8) {
        self.presentation = queue.wrapper(of: presentation)
        self.clock = PresentationFeedback.readableClock(clockID)
        self.limit = limit
        outstanding.reserveCapacity(limit)
        spare = (0..<limit).map { _ in Request(owner: self) }
    }

    deinit { cancelAll() }

    /// Asks for feedback on the next commit of `surface` (wp_presentation.feedback).
    func request(surface: OpaquePointer, frame: UInt64) {
        guard asking.asks() else { return }
        if outstanding.count >= limit {
            recycle(outstanding.removeFirst())
            dropped += 1
            asking.dropped()
        }
        guard let request = spare.popLast() else { return }
        guard let proxy = wp_presentation_feedback(presentation, surface) else {
            spare.append(request)
            return
        }
        request.proxy = proxy
        request.frame = frame
        wp_presentation_feedback_add_listener(proxy, PresentationFeedback.listener.pointer, request.userData)
        outstanding.append(request)
        mostOutstanding = max(mostOutstanding, outstanding.count)
    }

    /// Destroys every outstanding request; no answer will arrive for them.
    func cancelAll() {
        for request in outstanding { recycle(request) }
        outstanding.removeAll(keepingCapacity: true)
    }

    /// Destroys a request's proxy and puts its record back among the spare ones.
    private func recycle(_ request: Request) {
        if let proxy = request.proxy { wp_presentation_feedback_destroy(proxy) }
        request.proxy = nil
        spare.append(request)
    }

    /// Releases the wrapper; call once, after `cancelAll`, before the queue goes.
    func release(queue: EventQueue) {
        cancelAll()
        queue.releaseWrapper(presentation)
    }

    private func finish(_ request: Request, _ result: PresentationResult) {
        let frame = request.frame
        asking.answered()
        outstanding.removeAll { $0 === request }
        recycle(request)
        onResult?(frame, result)
    }

    /// The clock id, where presentation times can be on it and this machine reads it.
    static func readableClock(_ id: UInt32) -> clockid_t? {
        let known: [clockid_t] = [CLOCK_REALTIME, CLOCK_MONOTONIC, CLOCK_MONOTONIC_RAW, CLOCK_BOOTTIME, 11 /* CLOCK_TAI */]
        let clock = clockid_t(truncatingIfNeeded: id)
        var now = timespec()
        guard id <= UInt32(Int32.max), known.contains(clock), clock_gettime(clock, &now) == 0 else { return nil }
        return clock
    }

    /// A presentation time on the compositor's clock, moved to CLOCK_MONOTONIC; nil when
    /// the clock cannot be read or the time does not fit in 64 bits of nanoseconds (the
    /// caller tells the two apart).
    private func monotonic(seconds: UInt64, nanoseconds: UInt32) -> UInt64? {
        guard let clock, seconds < UInt64.max / 1_000_000_000 - 1 else { return nil }
        let time = seconds * 1_000_000_000 + UInt64(nanoseconds)
        guard clock != CLOCK_MONOTONIC else { return time }
        // Both clocks read back to back: their offset moves by microseconds an hour.
        let offset = Int64(bitPattern: MonotonicClock.now()) &- Int64(bitPattern: MonotonicClock.read(clock))
        guard time <= UInt64(Int64.max) else { return nil }
        let (moved, overflow) = Int64(time).addingReportingOverflow(offset)
        return overflow || moved < 0 ? nil : UInt64(moved)
    }

    /// The answer for a `presented` event, every value checked (``CompositorValues``).
    private func presented(seconds: UInt64, nanoseconds: UInt32, refresh: UInt32, sequence: UInt64,
                           flags: UInt32) -> PresentationResult {
        let checked = CompositorValues.presentedTime(monotonic(seconds: seconds, nanoseconds: nanoseconds),
                                                     nanoseconds: nanoseconds, clockKnown: clock != nil,
                                                     arrivedAt: MonotonicClock.now(), previous: lastPresented)
        switch checked {
        case .failure(let reason):
            return .unusable(reason: "\(seconds) s \(nanoseconds) ns: \(reason.rawValue)")
        case .success(let time):
            lastPresented = time
            let period = CompositorValues.presentedRefresh(refresh)
            if let problem = period.problem { onProblem?(problem) }
            var counted = CompositorValues.presentedSequence(sequence, flags: flags)
            if counted > 0, counted < lastSequence {
                onProblem?(.init(event: "wp_presentation_feedback.presented sequence", value: "\(sequence) after \(lastSequence)",
                                 instead: "taking it as unknown"))
                counted = 0
            } else if counted > 0 {
                lastSequence = counted
            }
            return .presented(time: MonotonicInstant(nanoseconds: time), refresh: .nanoseconds(Int64(period.value)),
                              sequence: counted, flags: flags)
        }
    }

    private static let listener = ListenerTable(wp_presentation_feedback_listener(
        sync_output: { _, _, _ in },
        presented: { data, _, secondsHigh, secondsLow, nanoseconds, refresh, sequenceHigh, sequenceLow, flags in
            let request = owner(data, as: Request.self)
            let feedback = request.owner
            let result = feedback.presented(seconds: UInt64(secondsHigh) << 32 | UInt64(secondsLow), nanoseconds: nanoseconds,
                                            refresh: refresh, sequence: UInt64(sequenceHigh) << 32 | UInt64(sequenceLow),
                                            flags: flags)
            feedback.finish(request, result)
        },
        discarded: { data, _ in
            let request = owner(data, as: Request.self)
            request.owner.finish(request, .discarded)
        }
    ))
}
