import Foundation
import WaylandOutputs

/// What `GET /api/v1/events` streams: what happens to the outputs and their content, as
/// server-sent events. Whoever publishes (the session's thread, a render thread, any
/// thread that logs a warning) never waits for a client: each stream has a queue of at
/// most ``queueLimit`` events, and a client too slow to take them loses the oldest, which
/// an `events-dropped` event then counts.
final class EventHub: @unchecked Sendable {
    /// One event: its number (the stream's `id:`, in the order published), name and JSON.
    struct Event: Sendable, Equatable {
        /// 0: not numbered (events-dropped, which a stream makes of its own).
        var id: UInt64
        var name: String
        var data: String
        /// For refreshes-missed, the refreshes it counts (0 for the others).
        var missed = 0
    }

    /// Streams open at once, at most: each holds a connection and its thread.
    static let maximumStreams = 16
    static let queueLimit = 256
    /// How often a stream without events says it is there (a comment line), under the
    /// HTTP server's 10 s idle limit and soon enough to notice a client gone.
    static let keepAliveSeconds = 5.0

    private struct Subscriber {
        var events: [Event] = []
        var dropped = 0
        /// refreshes-missed events counting fewer refreshes are not sent to this stream.
        var missedThreshold: Int
    }

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var nextID: UInt64 = 0
    private var nextKey = 0
    private var subscribers: [Int: Subscriber] = [:]
    private var closed = false
    private var lastPulse = MonotonicInstant(nanoseconds: 0)
    private var pulse: (@Sendable () -> Void)?

    /// Whether a stream is open: publishers skip making an event's data when none is.
    var hasStreams: Bool { condition.withLock { !subscribers.isEmpty } }

    /// Has `work` run about once a second while a stream is open, on a stream's thread
    /// (the check for refreshes missed); nil: nothing.
    func onPulse(_ work: (@Sendable () -> Void)?) {
        condition.withLock { pulse = work }
    }

    /// Sends event `name` to every open stream, with `data` (a JSON object, made only when
    /// a stream is open, outside the hub's lock) and the realtime seconds it happened at.
    /// `missed`: the refreshes a refreshes-missed event counts, against each stream's threshold.
    func publish(_ name: String, missed: Int = 0, _ data: () -> [String: Any]) {
        guard hasStreams else { return }
        var object = data()
        object["at"] = RealtimeClock.seconds(at: .now)
        let text = EventHub.encode(object)
        condition.withLock {
            guard !closed else { return }
            nextID += 1
            for key in subscribers.keys where missed == 0 || missed >= subscribers[key]!.missedThreshold {
                subscribers[key]!.events.append(Event(id: nextID, name: name, data: text, missed: missed))
                if subscribers[key]!.events.count > EventHub.queueLimit {
                    subscribers[key]!.events.removeFirst()
                    subscribers[key]!.dropped += 1
                }
            }
            condition.broadcast()
        }
    }

    /// A log that also publishes its warnings and errors (as `warning` and `error` events).
    func tapping(_ log: Log) -> Log {
        Log { [self] level, message in
            log.write(level, message)
            guard level >= .warning else { return }
            publish(level == .error ? "error" : "warning") { ["message": message] }
        }
    }

    /// A new stream, or nil when ``maximumStreams`` are open or the hub has closed.
    func subscribe(missedThreshold: Int) -> EventStream? {
        condition.withLock {
            guard !closed, subscribers.count < EventHub.maximumStreams else { return nil }
            nextKey += 1
            subscribers[nextKey] = Subscriber(missedThreshold: missedThreshold)
            return EventStream(hub: self, key: nextKey)
        }
    }

    fileprivate func unsubscribe(_ key: Int) {
        condition.withLock {
            subscribers.removeValue(forKey: key)
            condition.broadcast()
        }
    }

    /// Ends every stream and takes no more (glout stopping), then waits up to `seconds`
    /// for the streams to be gone: each response sent whole, before the server closes
    /// their connections (a client that reads nothing holds its stream that long).
    func close(waiting seconds: Double = 5) {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.withLock {
            closed = true
            condition.broadcast()
            while !subscribers.isEmpty, condition.wait(until: deadline) {}
        }
    }

    /// The stream's events and how many it lost, waiting up to `seconds` for one; nil once
    /// the hub has closed.
    fileprivate func take(_ key: Int, waiting seconds: Double) -> (events: [Event], dropped: Int)? {
        let deadline = Date(timeIntervalSinceNow: seconds)
        let (taken, due): ((events: [Event], dropped: Int)?, (@Sendable () -> Void)?) = condition.withLock {
            while !closed, let own = subscribers[key], own.events.isEmpty, own.dropped == 0 {
                if !condition.wait(until: deadline) { break }
            }
            let now = MonotonicInstant.now
            var due: (@Sendable () -> Void)?
            if (now - lastPulse).inSeconds >= 1 {
                lastPulse = now
                due = pulse
            }
            guard !closed, let own = subscribers[key] else { return (nil, nil) }
            subscribers[key]!.events = []
            subscribers[key]!.dropped = 0
            return ((own.events, own.dropped), due)
        }
        due?()
        return taken
    }

    /// One line of JSON.
    static func encode(_ object: [String: Any]) -> String {
        String(decoding: JSONText.encode(object), as: UTF8.self)
    }

    /// An event as the stream writes it (JSON holds no line break: one `data:` line).
    static func text(of event: Event) -> String {
        (event.id == 0 ? "" : "id: \(event.id)\n") + "event: \(event.name)\ndata: \(event.data)\n\n"
    }
}

/// One client's stream of events, read by the HTTP server into the response as it goes
/// (on the connection's own thread, which may wait here for the next event).
final class EventStream: @unchecked Sendable {
    private let hub: EventHub
    private let key: Int
    // The connection's thread alone reads and writes these.
    private var pending: [UInt8] = Array("retry: 2000\n: glout events\n\n".utf8)
    private var sent = 0
    private var lastWrite = MonotonicInstant.now

    fileprivate init(hub: EventHub, key: Int) {
        (self.hub, self.key) = (hub, key)
    }

    deinit { hub.unsubscribe(key) }

    /// The stream's next events, waiting up to `seconds` for one (none: none came); nil
    /// once the hub has closed. Events lost to a full queue come first as one
    /// events-dropped event.
    func next(waiting seconds: Double) -> [EventHub.Event]? {
        guard let (events, dropped) = hub.take(key, waiting: seconds) else { return nil }
        guard dropped > 0 else { return events }
        let data = EventHub.encode(["dropped": dropped, "at": RealtimeClock.seconds(at: .now)])
        return [EventHub.Event(id: 0, name: "events-dropped", data: data)] + events
    }

    /// Fills `buffer` with up to `capacity` bytes of the stream, waiting for events (a
    /// comment line every ``EventHub/keepAliveSeconds`` without one); nil when it ends.
    /// Never returns 0 bytes: libmicrohttpd would ask again at once, a busy loop.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        while sent == pending.count {
            guard let events = next(waiting: 1) else { return nil }
            var text = ""
            for event in events { text += EventHub.text(of: event) }
            if text.isEmpty, (MonotonicInstant.now - lastWrite).inSeconds >= EventHub.keepAliveSeconds {
                text = ": keep-alive\n\n"
            }
            (pending, sent) = (Array(text.utf8), 0)
        }
        let count = min(buffer.count, pending.count - sent)
        pending.withUnsafeBytes { bytes in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[sent..<sent + count]))
        }
        sent += count
        lastWrite = .now
        return count
    }
}
