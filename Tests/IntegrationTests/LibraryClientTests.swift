import CGLES
import CWayland
import Foundation
@testable import WaylandOutputs
import XCTest

/// WaylandOutputs used alone, by a client that is not glout: through OutputSession as
/// README.md shows, and through OutputTracker and OutputWindow for a client that keeps its own
/// windows.
final class LibraryClientTests: IntegrationTestCase {
    final class Solid: OutputRenderer {
        let color: (Float, Float, Float)
        init(_ color: (Float, Float, Float)) { self.color = color }

        func render(_ frame: DisplayLinkFrame, in target: RenderTarget) throws {
            glClearColor(color.0, color.1, color.2, 1)
            glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        }
    }

    static func socket(of compositor: Compositor) -> String {
        compositor.folder + "/" + compositor.environment["WAYLAND_DISPLAY"]!
    }

    func test_anOutputSessionPaintsEveryOutputAndFollowsANewOne() throws {
        let sway = try Compositor.sway(["1280x720@60", "800x600@30"])
        let session = try OutputSession(.init(appID: "org.example.Solid", display: LibraryClientTests.socket(of: sway),
                                               handlesSignals: false, log: Log { _, _ in }))
        XCTAssertEqual(session.outputs.map(\.name), ["HEADLESS-1", "HEADLESS-2"])
        XCTAssertEqual(session.primary?.name, "HEADLESS-1")
        var seen: [String] = []
        session.onEvent = { event in
            if case .connected(let output) = event { seen.append("connected \(output.name)") }
            if case .firstFrame(let output, _) = event { seen.append("first frame \(output.name)") }
        }
        // The same events as a stream, read by a task of its own.
        let streamed = Locked<[String]>([])
        let reader = Task.detached { [stream = session.events()] in
            for await event in stream {
                if case .connected(let output) = event { streamed.withLock { $0.append("connected \(output.name)") } }
            }
        }
        defer { reader.cancel() }
        let colors: [String: (Float, Float, Float)] = ["HEADLESS-1": (1, 0, 0), "HEADLESS-2": (0, 0, 1), "HEADLESS-3": (0, 1, 0)]
        try session.start { output in Solid(colors[output.name] ?? (1, 1, 1)) }
        let windows = session.windows
        try waitUntil("both windows draw a while") {
            try session.dispatch(timeout: .milliseconds(50))
            return windows.values.allSatisfy { $0.statistics.frames > 20 }
        }
        let red = try sway.screenshot("HEADLESS-1"), blue = try sway.screenshot("HEADLESS-2")
        XCTAssertTrue(red.isUniform && red.pixel(0, 0) == (255, 0, 0), "\(red.pixel(0, 0))")
        XCTAssertTrue(blue.isUniform && blue.pixel(0, 0) == (0, 0, 255), "\(blue.pixel(0, 0))")
        XCTAssertTrue(seen.contains("first frame HEADLESS-1") && seen.contains("first frame HEADLESS-2"), "\(seen)")

        // An output that connects gets a window, and both the closure and the stream hear of it.
        _ = try sway.swaymsg("create_output")
        try waitUntil("a window on HEADLESS-3 that has drawn") {
            try session.dispatch(timeout: .milliseconds(50))
            return session.windows.values.contains { $0.output.name == "HEADLESS-3" && $0.statistics.frames > 0 }
        }
        try waitUntil("the stream reports HEADLESS-3") {
            try session.dispatch(timeout: .milliseconds(50))
            return streamed.withLock { $0.contains("connected HEADLESS-3") }
        }
        XCTAssertTrue(seen.contains("connected HEADLESS-3"), "\(seen)")
        try waitUntil("HEADLESS-3 is green") {
            try session.dispatch(timeout: .milliseconds(50))
            let green = try sway.screenshot("HEADLESS-3")
            return green.isUniform && green.pixel(0, 0) == (0, 255, 0)
        }

        // Closed windows give their contexts back (Mesa must not see one destroyed while
        // another draws), and leave nothing on screen.
        let graphics = try session.graphics()
        let summaries = session.closeWindows()
        XCTAssertEqual(summaries.count, 3)
        XCTAssertEqual(graphics.spareContextCount, 3)
        try session.dispatch(timeout: .zero)
        XCTAssertTrue(try sway.views().filter { $0.appID == "org.example.Solid" }.isEmpty, "closed windows stay on screen")
        // Windows opened again take those contexts (on their threads, before they draw).
        try session.start { output in Solid(colors[output.name] ?? (1, 1, 1)) }
        try waitUntil("the windows draw again") {
            try session.dispatch(timeout: .milliseconds(50))
            return session.windows.count == 3 && session.windows.values.allSatisfy { $0.statistics.frames > 0 }
        }
        XCTAssertEqual(graphics.spareContextCount, 0)
        session.closeWindows()
    }

    func test_runEndsWithTheReasonItWasGiven() throws {
        let sway = try Compositor.sway(["800x600@60"])
        let session = try OutputSession(.init(appID: "org.example.Run", display: LibraryClientTests.socket(of: sway),
                                               input: false, handlesSignals: false, log: Log { _, _ in }))
        try session.start { _ in Solid((0, 0, 0)) }
        XCTAssertEqual(try session.run(for: .milliseconds(300)), .timeLimit)
        session.onEvent = { [unowned session] event in
            if case .firstFrame = event { session.stop() }
        }
        session.closeWindows()
        try session.start { _ in Solid((0, 0, 0)) }
        XCTAssertEqual(try session.run(for: .seconds(Timing.patience)), .stopped, "stop() from an event ends run")
        session.closeWindows()
    }
}

/// A window its client closes late, after its output disconnected and outside the event
/// callback: the output's wl_output lives until then, so its render thread can still use
/// it (here: a new surface asks to be fullscreen on it). Run under AddressSanitizer by
/// scripts/sanitize address.
final class LateCloseTests: IntegrationTestCase {
    func test_aWindowClosedSecondsAfterItsOutputLeftIsSafe() throws {
        let rig = try HotplugRig(outputs: 2)
        let (first, second) = (rig.name(1), rig.name(2))
        let connection = try Connection(name: LibraryClientTests.socket(of: rig.compositor), log: Log { _, _ in })
        let tracker = OutputTracker(connection: connection)
        var disconnected: [String] = []
        tracker.onEvent = { event in
            if case .disconnected(let output) = event { disconnected.append(output.name) }
        }
        try tracker.start()
        let graphics = try Graphics(connection: connection)
        var windows: [String: OutputWindow] = [:]
        for output in tracker.outputs {
            windows[output.name] = try OutputWindow(output: output, tracker: tracker, graphics: graphics,
                                                    options: .init(appID: "org.example.Late")) { _ in
                LibraryClientTests.Solid((0, 0.5, 0))
            }
        }
        func dispatch(until condition: @autoclosure () -> String, _ done: () -> Bool) throws {
            try waitUntil(condition()) {
                try connection.dispatch(timeout: .milliseconds(50))
                return done()
            }
        }
        try dispatch(until: "both windows draw") { windows.values.allSatisfy { $0.statistics.frames > 0 } }

        try rig.unplug(second)
        try dispatch(until: "\(second) disconnects") { disconnected == [second] }
        XCTAssertEqual(tracker.outputsHeldAfterDisconnect, 1, "the window still holds \(second)'s wl_output")
        // The window is not closed; its thread makes a new surface, fullscreen on the gone output.
        let late = try XCTUnwrap(windows[second])
        late.recreateSurface()
        try dispatch(until: "a new surface for \(second)") { late.statistics.surfaces >= 2 }
        // The window lives on for a second after its output left (the premise of the test,
        // a time and not a condition), dispatching as an application would.
        let lateBy = Date().addingTimeInterval(1)
        try dispatch(until: "the window has lived on for a second") { Date() >= lateBy }
        late.close()
        try connection.roundtrip()
        XCTAssertEqual(tracker.outputsHeldAfterDisconnect, 0, "the wl_output is released with the window")
        XCTAssertNil(late.failure.map { "\($0)" })
        XCTAssertNoThrow(try connection.check())
        // The other output never noticed.
        let drawn = windows[first]!.statistics.frames
        // sway 1.10 moves the gone output's workspace, and with it the first window, onto
        // a hidden workspace; as OutputSession does, a suspended window gets a new surface,
        // which sway shows.
        var reclaimed = false
        try dispatch(until: "\(first) keeps drawing") {
            let statistics = windows[first]!.statistics
            if statistics.isSuspended && !reclaimed {
                reclaimed = true
                windows[first]!.recreateSurface()
            }
            return statistics.frames > drawn + 10
        }
        windows[first]!.close()
        XCTAssertNil(windows[first]!.failure.map { "\($0)" })
    }
}

/// A protocol error reaches the application as an error that names the interface, the
/// object and the code, and stops the windows. Three windows' threads read the socket
/// beside the main thread; whichever reads the end of the stream after the error must not
/// hide it (EventQueue).
final class ProtocolErrorTests: IntegrationTestCase {
    func test_aProtocolErrorNamesInterfaceObjectAndCode() throws {
        let sway = try Compositor.sway(["800x600@60", "640x480@60", "320x240@60"])
        let session = try OutputSession(.init(appID: "org.example.Error", display: LibraryClientTests.socket(of: sway),
                                               input: false, handlesSignals: false, log: Log { _, _ in }))
        try session.start { _ in LibraryClientTests.Solid((0, 1, 0)) }
        try waitUntil("three windows draw") {
            try session.dispatch(timeout: .milliseconds(50))
            return session.windows.count == 3 && session.windows.values.allSatisfy { $0.statistics.frames > 0 }
        }
        let windows = Array(session.windows.values)
        // An xdg_positioner of size 0x0 is a protocol error (invalid_input = 0); the
        // positioner is left alive so the error can name it.
        let positioner = xdg_wm_base_create_positioner(try XCTUnwrap(session.tracker.registry.wmBase))
        xdg_positioner_set_size(positioner, 0, 0)
        session.connection.flush()
        var caught: (any Error)?
        try waitUntil("the protocol error arrives") {
            do { try session.run(for: .milliseconds(100)) } catch { caught = error }
            return caught != nil
        }
        guard case let .protocolError(interface, objectID, code, message)? = caught as? WaylandError else {
            return XCTFail("expected a protocol error, got \(String(describing: caught))")
        }
        XCTAssertEqual(interface, "xdg_positioner")
        XCTAssertGreaterThan(objectID, 1)
        XCTAssertEqual(code, 0)
        XCTAssertTrue("\(caught!)".contains("protocol error 0 on xdg_positioner@\(objectID)"), "\(caught!)")
        XCTAssertTrue(message?.contains("xdg_positioner@\(objectID)") ?? false, "libwayland's text: \(String(describing: message))")
        // The windows' threads stop by themselves instead of drawing on a dead connection.
        try waitUntil("the windows' threads stop on the broken connection") {
            windows.allSatisfy { $0.failure != nil }
        }
        for window in windows { window.close() }
    }
}
