import XCTest
@testable import WaylandOutputs

/// The output state machine fed with event sequences recorded from sway 1.7 and weston 10.
final class OutputStateTests: XCTestCase {
    /// What sway 1.7 sends for a headless 1280x720@60 output bound at wl_output v4 with xdg-output v3.
    let swayHeadless: [OutputProtocolEvent] = [
        .geometry(physicalWidth: 0, physicalHeight: 0, subpixel: 0, make: "headless", model: "headless", transform: 0),
        .mode(flags: 1, width: 1280, height: 720, refresh: 60000),
        .scale(1),
        .name("HEADLESS-1"),
        .description("Headless output 1"),
        .done,
        .logicalPosition(x: 0, y: 0),
        .logicalSize(width: 1280, height: 720),
        .xdgName("HEADLESS-1"),
        .xdgDescription("Headless output 1"),
        .done,
    ]

    func feed(_ events: [OutputProtocolEvent], into state: inout OutputState) -> [Output] {
        events.compactMap { state.apply($0) }
    }

    func test_publishesOnlyWhenXdgGeometryHasArrived() {
        var state = OutputState(id: 38)
        state.expectXdgOutput(version: 3)
        let published = feed(swayHeadless, into: &state)
        XCTAssertEqual(published.count, 1, "the first done lacks the logical size and must not publish")
        let output = published[0]
        XCTAssertEqual(output.name, "HEADLESS-1")
        XCTAssertEqual(output.make, "headless")
        XCTAssertEqual(output.logicalFrame.size, Size(width: 1280, height: 720))
        XCTAssertEqual(output.currentMode, OutputMode(size: Size(width: 1280, height: 720), refreshMilliHertz: 60000, isCurrent: true))
    }

    func test_doneTwiceWithoutChangesPublishesOnce() {
        var state = OutputState(id: 1)
        state.expectXdgOutput(version: 3)
        var published = feed(swayHeadless, into: &state)
        published += feed([.done, .done], into: &state)
        XCTAssertEqual(published.count, 1)
    }

    func test_changeIsPublishedWholeOnDone() {
        var state = OutputState(id: 1)
        state.expectXdgOutput(version: 3)
        _ = feed(swayHeadless, into: &state)
        // A mode switch to 1024x768 and scale 2: nothing is published until done.
        XCTAssertNil(state.apply(.mode(flags: 1, width: 1024, height: 768, refresh: 60000)))
        XCTAssertNil(state.apply(.scale(2)))
        XCTAssertNil(state.apply(.logicalSize(width: 512, height: 384)))
        XCTAssertEqual(state.published?.scale, 1, "half a change must not be visible")
        let changed = state.apply(.done)
        XCTAssertEqual(changed?.scale, 2)
        XCTAssertEqual(changed?.logicalFrame.width, 512)
        XCTAssertEqual(changed?.currentMode?.size.width, 1024)
        XCTAssertEqual(changed?.modes.filter(\.isCurrent).count, 1, "the old mode loses its current flag")
        XCTAssertEqual(changed?.modes.count, 2)
    }

    func test_xdgOutputBoundAfterWlOutputWaitsForItsGeometry() {
        var state = OutputState(id: 5)
        // wl_output is described completely first, with no xdg-output yet expected...
        let wlOnly = Array(swayHeadless.prefix(6))
        // ...then the application learns of xdg-output and attaches one before any done.
        state.expectXdgOutput(version: 3)
        XCTAssertTrue(feed(wlOnly, into: &state).isEmpty)
        let later = feed([.logicalPosition(x: 1280, y: 0), .logicalSize(width: 800, height: 600), .done], into: &state)
        XCTAssertEqual(later.count, 1)
        XCTAssertEqual(later.first?.logicalFrame.x, 1280)
    }

    func test_xdgOutputVersion2CompletesOnItsOwnDone() {
        var state = OutputState(id: 7)
        state.expectXdgOutput(version: 2)
        let events: [OutputProtocolEvent] = [
            .geometry(physicalWidth: 600, physicalHeight: 340, subpixel: 1, make: "Acme", model: "X1", transform: 1),
            .mode(flags: 0, width: 1920, height: 1080, refresh: 60000),
            .mode(flags: 3, width: 2560, height: 1440, refresh: 59951),
            .scale(2),
            .done,
            .logicalPosition(x: 0, y: 0), .logicalSize(width: 720, height: 1280), .xdgName("DP-1"),
            .xdgDescription("Acme X1"),
        ]
        XCTAssertTrue(feed(events, into: &state).isEmpty, "xdg v2 data waits for xdg done")
        let output = state.apply(.xdgDone)
        XCTAssertEqual(output?.name, "DP-1", "xdg name is used when wl_output has none (v3)")
        XCTAssertEqual(output?.description, "Acme X1")
        XCTAssertEqual(output?.transform, .rotated90)
        XCTAssertEqual(output?.preferredMode?.size.width, 2560)
        XCTAssertEqual(output?.modes.count, 2)
        XCTAssertEqual(output?.pixelSize.width, 1440)
    }

    func test_withoutXdgOutputTheLogicalSizeDerivesFromModeTransformAndScale() {
        var state = OutputState(id: 9)
        let output = feed([
            .geometry(physicalWidth: 0, physicalHeight: 0, subpixel: 0, make: "weston", model: "headless", transform: 3),
            .mode(flags: 3, width: 1280, height: 720, refresh: 60000),
            .scale(2),
            .done,
        ], into: &state).first
        XCTAssertEqual(output?.logicalFrame.size, Size(width: 360, height: 640))
        XCTAssertEqual(output?.name, "wl_output-9", "an output without any name gets one from its global")
    }

    func test_wlOutputNameWinsOverXdgName() {
        var state = OutputState(id: 2)
        state.expectXdgOutput(version: 3)
        let output = feed([.name("HDMI-A-1"), .xdgName("something else"), .logicalSize(width: 10, height: 10), .done],
                          into: &state).first
        XCTAssertEqual(output?.name, "HDMI-A-1")
    }
}
