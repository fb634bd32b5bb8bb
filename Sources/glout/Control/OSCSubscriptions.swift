import CLo
import Dispatch
import Foundation
import Glibc
import WaylandOutputs

/// OSC senders that asked for events (/glout/events ,i SECONDS): each gets every event of
/// GET /api/v1/events as /glout/event ,ss (its name, its JSON) at the address it asked
/// from, until its seconds run out (it asks again to stay) or it asks with 0. While anyone
/// listens, one thread of its own takes the events from the hub and sends them.
final class OSCSubscriptions: @unchecked Sendable {
    /// Senders listening at once, at most.
    static let maximum = 16
    static let longest = 3600
    static let eventAddress = "/glout/event"

    private struct Subscriber {
        var sender: OSCServer.Sender
        var until: MonotonicInstant
        var missedThreshold: Int
    }

    private struct State {
        var subscribers: [[UInt8]: Subscriber] = [:]
        var forwarding = false
        var stopped = false
    }

    private let hub: EventHub
    private let socket: Int32
    private let state = Locked(State())
    /// The forwarding threads, waited for as OSC stops.
    private let forwarders = DispatchGroup()

    /// Sends on `socket`, OSC's own, which must outlive ``stop()``.
    init(hub: EventHub, socket: Int32) {
        (self.hub, self.socket) = (hub, socket)
    }

    /// `sender` gets the events for `seconds` from now (0: no more), refreshes-missed only
    /// for `missedThreshold` refreshes or more.
    func subscribe(_ sender: OSCServer.Sender, seconds: Int, missedThreshold: Int) -> ControlReply {
        let until = MonotonicInstant(nanoseconds: MonotonicInstant.now.nanoseconds &+ UInt64(seconds) * 1_000_000_000)
        let outcome: (reply: ControlReply, starts: Bool) = state.withLock { state in
            guard !state.stopped else { return (.error(ControlError(503, "glout is stopping")), false) }
            guard seconds > 0 else {
                state.subscribers[sender.key] = nil
                return (.json(["subscribed_s": 0]), false)
            }
            guard state.subscribers[sender.key] != nil || state.subscribers.count < OSCSubscriptions.maximum else {
                return (.error(ControlError(503, "\(OSCSubscriptions.maximum) senders listen already, the most glout serves")), false)
            }
            state.subscribers[sender.key] = Subscriber(sender: sender, until: until, missedThreshold: missedThreshold)
            let starts = !state.forwarding
            state.forwarding = true
            return (.json(["subscribed_s": seconds, "address": OSCSubscriptions.eventAddress]), starts)
        }
        if outcome.starts, !startForwarding() {
            state.withLock { $0.subscribers[sender.key] = nil }
            return .error(ControlError(503, "\(EventHub.maximumStreams) event streams are open already, the most glout serves"))
        }
        return outcome.reply
    }

    /// Sends no more and waits for the forwarding thread to end (within a second).
    func stop() {
        state.withLock { $0.stopped = true }
        forwarders.wait()
    }

    /// Starts the thread that sends the events; false when the hub has no stream to give.
    private func startForwarding() -> Bool {
        // Every event from now on; each sender's own threshold is applied as it is sent.
        guard let stream = hub.subscribe(missedThreshold: 1) else {
            state.withLock { $0.forwarding = false }
            return false
        }
        forwarders.enter()
        // Weak, as OSCServer's: the thread's closure outlives stop().
        let forwarders = forwarders
        let thread = Thread { [weak self] in
            self?.forward(stream)
            forwarders.leave()
        }
        thread.name = "glout OSC events"
        thread.start()
        return true
    }

    private func forward(_ stream: EventStream) {
        while true {
            let events = stream.next(waiting: 1)
            let now = MonotonicInstant.now
            let listeners: [Subscriber]? = state.withLock { state in
                state.subscribers = state.subscribers.filter { $0.value.until > now }
                guard events != nil, !state.stopped, !state.subscribers.isEmpty else {
                    state.forwarding = false
                    return nil
                }
                return Array(state.subscribers.values)
            }
            guard let listeners, let events else { return }
            for event in events {
                let datagram = OSCSubscriptions.encode(event)
                guard !datagram.isEmpty else { continue }
                for listener in listeners where event.missed == 0 || event.missed >= listener.missedThreshold {
                    listener.sender.send(datagram, on: socket)
                }
            }
        }
    }

    /// /glout/event ,ss (name, JSON) as bytes, by liblo; empty when it does not fit a datagram.
    static func encode(_ event: EventHub.Event) -> [UInt8] {
        guard let message = lo_message_new() else { return [] }
        defer { lo_message_free(message) }
        lo_message_add_string(message, event.name)
        lo_message_add_string(message, event.data)
        var size = 0
        guard let data = lo_message_serialise(message, eventAddress, nil, &size) else { return [] }
        defer { free(data) }
        guard size <= OSCServer.datagramLimit else { return [] }
        return Array(UnsafeRawBufferPointer(start: data, count: size))
    }
}
