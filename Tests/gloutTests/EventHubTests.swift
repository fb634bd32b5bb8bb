import Foundation
import WaylandOutputs
import XCTest
@testable import glout

/// GET /api/v1/events: its route and query, and the hub that fans events out to streams
/// without ever waiting for a client.
final class EventHubTests: XCTestCase {
    /// What `stream` writes next, waiting for it (nil: the stream ended).
    private static func next(_ stream: EventStream) -> String? {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let count = buffer.withUnsafeMutableBytes { stream.read(into: $0) }
        return count.map { String(decoding: buffer[..<$0], as: UTF8.self) }
    }

    private func next(_ stream: EventStream) -> String? { EventHubTests.next(stream) }

    /// What `stream` writes until it holds `count` events (at most 10 s).
    private func read(_ stream: EventStream, events count: Int) -> String {
        let deadline = Date().addingTimeInterval(10)
        var text = ""
        while events(text).count < count, Date() < deadline, let more = next(stream) { text += more }
        return text
    }

    /// The events in a piece of the stream: (name, data).
    private func events(_ text: String) -> [(String, [String: Any])] {
        text.components(separatedBy: "\n\n").dropLast().compactMap { block in
            let lines = block.split(separator: "\n")
            guard let name = lines.first(where: { $0.hasPrefix("event: ") })?.dropFirst(7),
                  let data = lines.first(where: { $0.hasPrefix("data: ") })?.dropFirst(6),
                  let object = try? JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any] else { return nil }
            return (String(name), object)
        }
    }

    func test_theEventsRouteTakesAThresholdOfMissedRefreshes() throws {
        XCTAssertEqual(try ControlRoutes.command(method: "GET", path: "/api/v1/events", body: []), .events(missedThreshold: 1))
        XCTAssertEqual(try ControlRoutes.command(method: "GET", path: "/api/v1/events", query: ["missed": "12"], body: []),
                       .events(missedThreshold: 12))
        for bad in ["0", "-3", "+3", "x", "", "1000001", "99999999999999999999"] {
            XCTAssertThrowsError(try ControlRoutes.command(method: "GET", path: "/api/v1/events", query: ["missed": bad], body: []),
                                 "missed=\(bad)") { XCTAssertEqual(($0 as? ControlError)?.status, 400) }
        }
        XCTAssertThrowsError(try ControlRoutes.command(method: "POST", path: "/api/v1/events", body: [])) {
            XCTAssertEqual(($0 as? ControlError)?.status, 405)
        }
    }

    func test_anOSCSubscriptionIsSecondsAndAThreshold() throws {
        XCTAssertNil(try OSCRoutes.subscription(path: "/glout/status", arguments: []))
        XCTAssertEqual(try OSCRoutes.subscription(path: "/glout/events", arguments: [.integer(30)])?.seconds, 30)
        XCTAssertEqual(try OSCRoutes.subscription(path: "/glout/events", arguments: [.integer(30)])?.missedThreshold, 1)
        XCTAssertEqual(try OSCRoutes.subscription(path: "/glout/events", arguments: [.integer(0)])?.seconds, 0)
        XCTAssertEqual(try OSCRoutes.subscription(path: "/glout/events", arguments: [.integer(5), .integer(12)])?.missedThreshold, 12)
        for bad: [OSCArgument] in [[], [.integer(-1)], [.integer(3601)], [.string("30")], [.real(30)], [.integer(5), .integer(0)],
                                   [.integer(1), .integer(2), .integer(3)]] {
            XCTAssertThrowsError(try OSCRoutes.subscription(path: "/glout/events", arguments: bad), "\(bad)") {
                XCTAssertEqual(($0 as? ControlError)?.status, 400)
            }
        }
    }

    func test_anEventGoesOverOSCAsItsNameAndJSON() throws {
        let event = EventHub.Event(id: 7, name: "content-started", data: #"{"file":"a.png","output":"DP-1"}"#)
        let datagram = OSCSubscriptions.encode(event)
        let message = try OSCServer.decode(datagram[...])
        XCTAssertEqual(message.path, "/glout/event")
        XCTAssertEqual(message.arguments, [.string("content-started"), .string(#"{"file":"a.png","output":"DP-1"}"#)])
        let huge = EventHub.Event(id: 8, name: "warning", data: String(repeating: "x", count: 70_000))
        XCTAssertEqual(OSCSubscriptions.encode(huge), [], "more than a datagram holds is not sent")
    }

    func test_aStreamBeginsThenCarriesEachEventInOrderWithItsTime() throws {
        let hub = EventHub()
        let stream = try XCTUnwrap(hub.subscribe(missedThreshold: 1))
        XCTAssertEqual(next(stream), "retry: 2000\n: glout events\n\n")
        hub.publish("output-connected") { ["name": "DP-1"] }
        hub.publish("content-started") { ["output": "DP-1", "file": "a \"b\"\nc.png"] }
        let text = read(stream, events: 2)
        let received = events(text)
        XCTAssertEqual(received.map(\.0), ["output-connected", "content-started"])
        XCTAssertEqual(received[1].1["file"] as? String, "a \"b\"\nc.png", "a line break in the data stays in one data: line")
        XCTAssertEqual(received[0].1["at"] as? Double ?? 0, Date().timeIntervalSince1970, accuracy: 5)
        XCTAssertTrue(text.hasPrefix("id: 1\nevent: output-connected\ndata: {"), text)
        XCTAssertTrue(text.contains("id: 2\nevent: content-started\n"), text)
    }

    func test_nothingIsMadeWithoutAStream() {
        let hub = EventHub()
        var made = false
        hub.publish("content-started") { made = true; return [:] }
        XCTAssertFalse(made, "an event's data is made only when a stream is open")
    }

    func test_aSlowClientLosesTheOldestAndIsToldHowMany() throws {
        let hub = EventHub()
        let stream = try XCTUnwrap(hub.subscribe(missedThreshold: 1))
        _ = next(stream)
        for n in 0..<(EventHub.queueLimit + 10) { hub.publish("warning") { ["message": "\(n)"] } }
        let received = events(read(stream, events: EventHub.queueLimit + 1))
        XCTAssertEqual(received.first?.0, "events-dropped")
        XCTAssertEqual(received.first?.1["dropped"] as? Int, 10)
        XCTAssertEqual(received.dropFirst().first?.1["message"] as? String, "10", "the oldest went")
        XCTAssertEqual(received.last?.1["message"] as? String, "\(EventHub.queueLimit + 9)")
    }

    func test_refreshesMissedGoOnlyToStreamsWhoseThresholdTheyReach() throws {
        let hub = EventHub()
        let every = try XCTUnwrap(hub.subscribe(missedThreshold: 1))
        let some = try XCTUnwrap(hub.subscribe(missedThreshold: 5))
        _ = (next(every), next(some))
        hub.publish("refreshes-missed", missed: 2) { ["missed": 2] }
        hub.publish("refreshes-missed", missed: 7) { ["missed": 7] }
        hub.publish("output-changed") { ["name": "DP-1"] }
        let (a, b) = (read(every, events: 3), read(some, events: 2))
        XCTAssertEqual(events(a).map { $0.1["missed"] as? Int }, [2, 7, nil])
        XCTAssertEqual(events(b).map(\.0), ["refreshes-missed", "output-changed"])
        XCTAssertEqual(events(b).first?.1["missed"] as? Int, 7)
    }

    func test_streamsAreLimitedAndEndWhenTheHubCloses() throws {
        let hub = EventHub()
        var streams = (0..<EventHub.maximumStreams).compactMap { _ in hub.subscribe(missedThreshold: 1) }
        XCTAssertEqual(streams.count, EventHub.maximumStreams)
        XCTAssertNil(hub.subscribe(missedThreshold: 1), "one stream more than the most")
        streams.removeLast()
        let another = try XCTUnwrap(hub.subscribe(missedThreshold: 1), "a stream gone makes room")
        _ = next(another)
        // A reader waiting for an event ends when the hub closes.
        let ended = DispatchSemaphore(value: 0)
        Thread { [another] in
            while EventHubTests.next(another) != nil {}
            ended.signal()
        }.start()
        hub.close(waiting: 0)
        XCTAssertEqual(ended.wait(timeout: .now() + 10), .success, "the waiting reader ended")
        XCTAssertNil(hub.subscribe(missedThreshold: 1), "no stream after the hub closed")
    }

    func test_aLogTapPublishesWarningsAndErrorsAndPassesEveryLineOn() throws {
        let hub = EventHub()
        let stream = try XCTUnwrap(hub.subscribe(missedThreshold: 1))
        _ = next(stream)
        let written = Locked<[String]>([])
        let log = hub.tapping(Log { _, message in written.withLock { $0.append(message) } })
        log.info("an output appeared")
        log.warning("the compositor kept every buffer")
        log.error("the shader did not compile")
        let text = read(stream, events: 2)
        XCTAssertEqual(events(text).map(\.0), ["warning", "error"])
        XCTAssertEqual(events(text).map { $0.1["message"] as? String }, ["the compositor kept every buffer", "the shader did not compile"])
        XCTAssertEqual(written.withLock { $0 }, ["an output appeared", "the compositor kept every buffer", "the shader did not compile"])
    }
}
