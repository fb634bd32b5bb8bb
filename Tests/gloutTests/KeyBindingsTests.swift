import XCTest
import WaylandOutputs
@testable import glout

final class KeyBindingsTests: XCTestCase {
    func test_theBindingsThroughAUSKeymap() throws {
        let keyboard = try XCTUnwrap(KeyboardState(layout: "us"))
        // evdev codes of m, space, Tab, f, q, Esc, and a key glout ignores (a).
        let expected: [(UInt32, KeyAction?)] = [(50, .toggleLayout), (57, .newAccent), (15, .nextPrimary),
                                                (33, .toggleFreeze), (16, .quit), (1, .quit), (30, nil)]
        for (code, action) in expected {
            XCTAssertEqual(KeyBindings.action(for: keyboard.describe(key: code).keysym), action, "key \(code)")
        }
        keyboard.press(key: 42, down: true)
        XCTAssertEqual(KeyBindings.action(for: keyboard.describe(key: 50).keysym), .toggleLayout, "Shift+m too")
    }

    func test_everyBindingIsInTheHelp() {
        for action in KeyAction.allCases {
            XCTAssertTrue(KeyBindings.helpText.contains(action.help.key), "\(action)")
            XCTAssertTrue(Help.run.contains(action.help.action), "\(action) missing from run --help")
        }
    }
}
