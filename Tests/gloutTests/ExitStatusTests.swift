import XCTest
import WaylandOutputs
@testable import glout

final class ExitStatusTests: XCTestCase {
    func test_compositorProblemsMapToTheirOwnStatusesAndSayWhatFailed() {
        let lost = GloutError(WaylandError.protocolError(interface: "xdg_positioner", objectID: 23, code: 0,
                                                         message: "xdg_positioner@23: error 0: width and height must be positive"))
        XCTAssertEqual(lost.status, .compositorLost)
        XCTAssertEqual(lost.status.rawValue, 4)
        XCTAssertTrue(lost.message.contains("protocol error 0 on xdg_positioner@23"), lost.message)
        XCTAssertTrue(lost.message.contains("width and height must be positive"), lost.message)

        let hangUp = GloutError(WaylandError.connectionLost(errno: EPIPE, message: nil))
        XCTAssertEqual(hangUp.status, .compositorLost)
        XCTAssertTrue(hangUp.message.contains("the compositor closed the connection"), hangUp.message)

        let none = GloutError(WaylandError.noCompositor(socket: "/run/user/0/wayland-0"))
        XCTAssertEqual(none.status.rawValue, 3)
        XCTAssertTrue(none.message.contains("/run/user/0/wayland-0"))

        let missing = GloutError(WaylandError.missingGlobal(interface: "xdg_wm_base", required: 1, offered: nil))
        XCTAssertEqual(missing.status, .failure)
        XCTAssertTrue(missing.message.contains("does not offer xdg_wm_base (version 1 or later is required)"))
        XCTAssertEqual("\(WaylandError.missingGlobal(interface: "wl_compositor", required: 4, offered: 3))",
                       "the compositor offers wl_compositor version 3, version 4 or later is required")

        XCTAssertEqual(GloutError(UsageError(message: "bad", command: "run")).status.rawValue, 2)
    }
}
