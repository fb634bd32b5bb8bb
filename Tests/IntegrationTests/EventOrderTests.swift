import Foundation
import WaylandOutputs
import XCTest

/// The order OutputSession documents for its events (OutputSession, "The order of
/// events"), on the test compositor: outputs come, one of them refused a window, and the
/// primary leaves.
final class EventOrderTests: IntegrationTestCase {
    /// What a window request throws for the output named D.
    struct Refused: Error {}

    func test_connectedComesFirstThenTheWindowThenThePrimaryAndOnLeaveThePrimaryMovesBeforeDisconnected() throws {
        let compositor = try FaultyCompositor(["--output", "name=A,width=640,height=480", "--output", "name=B,width=640,height=480"])
        let session = try OutputSession(.init(appID: "org.example.Order", display: compositor.socketPath, preferredPrimary: "C",
                                               input: false, log: Log { _, _ in }))
        XCTAssertEqual(session.primary?.name, "A", "C is not there yet: the first in order is the primary")
        var events: [String] = []
        var windowAtConnected: [String: Bool] = [:]
        var windowAtDisconnected: [String: Bool] = [:]
        var failure: (any Error)?
        session.onEvent = { [unowned session] event in
            switch event {
            case .connected(let output):
                events.append("connected \(output.name)")
                windowAtConnected[output.name] = session.windows[output.id] != nil
            case .windowFailed(let output, let error):
                events.append("windowFailed \(output.name)")
                failure = error
            case .primaryChanged(let output):
                events.append("primaryChanged \(output?.name ?? "none")")
            case .disconnected(let output, let window):
                events.append("disconnected \(output.name)\(window == nil ? "" : " with its window's summary")")
                windowAtDisconnected[output.name] = session.windows[output.id] != nil
            case .changed, .firstFrame, .input:
                break
            }
        }
        try session.start(windows: { output in
            if output.name == "D" { throw Refused() }
            return .init(options: .init(surface: .init(appID: "org.example.Order"))) { _ in LibraryClientTests.Solid((0, 0.3, 0.6)) }
        })
        func dispatch(until what: @autoclosure () -> String, _ done: () -> Bool) throws {
            try waitUntil("\(what()); events so far: \(events)") {
                try session.dispatch(timeout: .milliseconds(50))
                return done()
            }
        }

        // The preferred primary connects: first the output, its window open, then the role.
        try compositor.send("add-output name=C,width=640,height=480")
        try dispatch(until: "C connects and becomes the primary") { events.count >= 2 }
        XCTAssertEqual(events, ["connected C", "primaryChanged C"])
        XCTAssertEqual(windowAtConnected["C"], true, "C's window is open when `connected` comes")
        XCTAssertEqual(session.primary?.name, "C")

        // An output whose window request fails: `connected`, then the error as thrown.
        events.removeAll()
        try compositor.send("add-output name=D,width=640,height=480")
        try dispatch(until: "D connects and its window fails") { events.count >= 2 }
        XCTAssertEqual(events, ["connected D", "windowFailed D"])
        XCTAssertTrue(failure is Refused, "windowFailed carries the error the request threw, not a string: \(String(describing: failure))")
        XCTAssertEqual(windowAtConnected["D"], false)

        // The primary leaves: its window closes, the role moves on, then `disconnected`.
        events.removeAll()
        try compositor.send("remove-output C")
        try dispatch(until: "C leaves") { events.count >= 2 }
        XCTAssertEqual(events, ["primaryChanged A", "disconnected C with its window's summary"])
        XCTAssertEqual(windowAtDisconnected["C"], false, "C's window is closed before `disconnected`")
        session.closeWindows()
    }

    func test_aRendererErrorReachesTheApplicationAsThrown() throws {
        let compositor = try FaultyCompositor(["--output", "name=A,width=640,height=480"])
        let session = try OutputSession(.init(appID: "org.example.Order", display: compositor.socketPath, input: false,
                                               log: Log { _, _ in }))
        try session.start { _ -> any OutputRenderer in throw Refused() }
        XCTAssertThrowsError(try session.run(for: .seconds(Timing.patience))) { error in
            guard case OutputSessionError.windowFailed(let output, let cause) = error else {
                return XCTFail("not a window failure: \(error)")
            }
            XCTAssertEqual(output, "A")
            XCTAssertTrue(cause is Refused, "the renderer's error as it threw it, not a string: \(cause)")
        }
        session.closeWindows()
    }
}
