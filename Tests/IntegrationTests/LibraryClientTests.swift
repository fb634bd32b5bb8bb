import CGLES
import Foundation
@testable import WaylandOutputs
import XCTest

/// WaylandOutputs used alone, as README.md shows, by a client that is not glout.
final class LibraryClientTests: IntegrationTestCase {
    final class Solid: OutputRenderer {
        let color: (Float, Float, Float)
        init(_ color: (Float, Float, Float)) { self.color = color }

        func render(_ frame: DisplayLinkFrame, in target: RenderTarget) throws {
            glClearColor(color.0, color.1, color.2, 1)
            glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        }
    }

    func test_aSecondClientPaintsEveryOutputThroughTheLibraryAlone() throws {
        let sway = try Compositor.sway(["1280x720@60", "800x600@30"])
        let socket = sway.folder + "/" + sway.environment["WAYLAND_DISPLAY"]!
        let connection = try Connection(name: socket, log: Log { _, _ in })
        let screens = Screens(connection: connection)
        try screens.start()
        XCTAssertEqual(screens.outputs.map(\.name), ["HEADLESS-1", "HEADLESS-2"])
        guard screens.outputs.count == 2 else { return }
        XCTAssertEqual(screens.primary?.name, "HEADLESS-1")
        let graphics = try Graphics(connection: connection)
        let colors: [String: (Float, Float, Float)] = ["HEADLESS-1": (1, 0, 0), "HEADLESS-2": (0, 0, 1)]
        var windows: [OutputWindow] = []
        for output in screens.outputs {
            let color = colors[output.name]!
            windows.append(try OutputWindow(output: output, screens: screens, graphics: graphics) { _ in Solid(color) })
        }
        try waitUntil("both windows draw a while") {
            try connection.dispatch(timeout: 0.05)
            return windows[0].statistics.frames > 40 && windows[1].statistics.frames > 20
        }

        let red = try sway.screenshot("HEADLESS-1"), blue = try sway.screenshot("HEADLESS-2")
        XCTAssertTrue(red.isUniform && red.pixel(0, 0) == (255, 0, 0), "\(red.pixel(0, 0))")
        XCTAssertTrue(blue.isUniform && blue.pixel(0, 0) == (0, 0, 255), "\(blue.pixel(0, 0))")
        XCTAssertGreaterThan(windows[0].statistics.frames, 40)
        XCTAssertGreaterThan(windows[1].statistics.frames, 20)
        XCTAssertLessThan(windows[1].statistics.frames, windows[0].statistics.frames)

        for window in windows { window.close() }
        try connection.roundtrip()
        XCTAssertTrue(try sway.views().filter { $0.appID == "glout" }.isEmpty, "closed windows stay on screen")
        XCTAssertNil(windows[0].failure)
        // Closed windows give their contexts back (Mesa must not see one destroyed while
        // another draws); the next window takes one of them.
        XCTAssertEqual(graphics.spareContextCount, 2)
        let again = try OutputWindow(output: screens.outputs[0], screens: screens, graphics: graphics) { _ in Solid((0, 1, 0)) }
        try waitUntil("the new window draws") {
            try connection.dispatch(timeout: 0.05)
            return again.statistics.frames > 0
        }
        XCTAssertEqual(graphics.spareContextCount, 1)
        try waitUntil("the reused context paints HEADLESS-1 green") {
            try connection.dispatch(timeout: 0.05)
            let green = try sway.screenshot("HEADLESS-1")
            return green.isUniform && green.pixel(0, 0) == (0, 255, 0)
        }
        again.close()
        XCTAssertEqual(graphics.spareContextCount, 2)
    }
}

/// A window its client closes late, after its output disconnected and outside the event
/// callback: the output's wl_output lives until then, so its render thread can still use
/// it (here: a new surface asks to be fullscreen on it). Run under AddressSanitizer by
/// scripts/sanitize address.
final class LateCloseTests: IntegrationTestCase {
    func test_aWindowClosedSecondsAfterItsOutputLeftIsSafe() throws {
        let parent = try Compositor.sway(["1600x600@60"])
        let child = try Compositor.nested(inside: parent, outputs: 2)
        let socket = child.folder + "/" + child.environment["WAYLAND_DISPLAY"]!
        let connection = try Connection(name: socket, log: Log { _, _ in })
        let screens = Screens(connection: connection)
        var disconnected: [String] = []
        screens.onEvent = { event in
            if case .disconnected(let output) = event { disconnected.append(output.name) }
        }
        try screens.start()
        let graphics = try Graphics(connection: connection)
        var windows: [String: OutputWindow] = [:]
        for output in screens.outputs {
            windows[output.name] = try OutputWindow(output: output, screens: screens, graphics: graphics) { _ in
                LibraryClientTests.Solid((0, 0.5, 0))
            }
        }
        func dispatch(until deadline: Double, _ done: () -> Bool) throws {
            let end = Date().addingTimeInterval(deadline)
            while !done() && Date() < end { try connection.dispatch(timeout: 0.05) }
        }
        try dispatch(until: 20) { windows.values.allSatisfy { $0.statistics.frames > 0 } }
        XCTAssertTrue(windows.values.allSatisfy { $0.statistics.frames > 0 }, "both windows draw")

        try HotplugTests.unplug("WL-2", parent: parent)
        try dispatch(until: 20) { disconnected == ["WL-2"] }
        XCTAssertEqual(disconnected, ["WL-2"])
        XCTAssertEqual(screens.outputsHeldAfterDisconnect, 1, "the window still holds WL-2's wl_output")
        // The window is not closed; its thread makes a new surface, fullscreen on the gone output.
        let late = try XCTUnwrap(windows["WL-2"])
        late.recreateSurface()
        try dispatch(until: 20) { late.statistics.surfaces >= 2 }
        XCTAssertGreaterThanOrEqual(late.statistics.surfaces, 2, "no new surface")
        try dispatch(until: 1) { false }
        late.close()
        try connection.roundtrip()
        XCTAssertEqual(screens.outputsHeldAfterDisconnect, 0, "the wl_output is released with the window")
        XCTAssertNil(late.failure.map { "\($0)" })
        XCTAssertNoThrow(try connection.check())
        // The other output never noticed.
        let drawn = windows["WL-1"]!.statistics.frames
        try dispatch(until: 20) { windows["WL-1"]!.statistics.frames > drawn + 10 }
        XCTAssertGreaterThan(windows["WL-1"]!.statistics.frames, drawn + 10)
        windows["WL-1"]!.close()
        XCTAssertNil(windows["WL-1"]!.failure.map { "\($0)" })
    }
}

/// A protocol error reaches the application as an error that names the interface, the
/// object and the code, and stops the windows.
final class ProtocolErrorTests: IntegrationTestCase {
    func test_aProtocolErrorNamesInterfaceObjectAndCode() throws {
        let sway = try Compositor.sway(["800x600@60"])
        let socket = sway.folder + "/" + sway.environment["WAYLAND_DISPLAY"]!
        let connection = try Connection(name: socket, log: Log { _, _ in })
        let screens = Screens(connection: connection)
        try screens.start()
        let graphics = try Graphics(connection: connection)
        let window = try OutputWindow(output: screens.outputs[0], screens: screens, graphics: graphics) { _ in
            LibraryClientTests.Solid((0, 1, 0))
        }
        let deadline = Date().addingTimeInterval(3)
        while Date() < deadline && window.statistics.frames == 0 { try connection.dispatch(timeout: 0.1) }
        // An xdg_positioner of size 0x0 is a protocol error (invalid_input = 0).
        screens.sendInvalidRequestForTesting()
        var caught: (any Error)?
        let stop = Date().addingTimeInterval(3)
        while caught == nil && Date() < stop {
            do { try connection.dispatch(timeout: 0.1) } catch { caught = error }
        }
        guard case let .protocolError(interface, objectID, code, message)? = caught as? WaylandError else {
            return XCTFail("expected a protocol error, got \(String(describing: caught))")
        }
        XCTAssertEqual(interface, "xdg_positioner")
        XCTAssertGreaterThan(objectID, 1)
        XCTAssertEqual(code, 0)
        XCTAssertTrue("\(caught!)".contains("protocol error 0 on xdg_positioner@\(objectID)"), "\(caught!)")
        XCTAssertTrue(message?.contains("xdg_positioner@\(objectID)") ?? false, "libwayland's text: \(String(describing: message))")
        // The window's thread stops instead of drawing on a dead connection.
        window.close()
        XCTAssertNotNil(window.failure)
    }
}
