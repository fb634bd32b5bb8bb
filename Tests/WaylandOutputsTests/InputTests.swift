import CXKBCommon
import XCTest
@testable import WaylandOutputs

/// Touch tracking from recorded wl_touch sequences.
final class TouchTrackerTests: XCTestCase {
    func test_interleavedFingersAreTrackedEachByItsId() {
        var touches = TouchTracker()
        touches.down(id: 3, outputID: 1, x: 10, y: 10)
        XCTAssertEqual(touches.frame()?.map(\.id), [3])
        touches.down(id: 7, outputID: 1, x: 50, y: 50)
        touches.motion(id: 3, x: 12, y: 11)
        let both = touches.frame()
        XCTAssertEqual(both?.map(\.id), [3, 7])
        XCTAssertEqual(both?.first { $0.id == 3 }.map { [$0.x, $0.y] }, [12, 11])
        touches.up(id: 3)
        touches.motion(id: 7, x: 55, y: 52)
        XCTAssertEqual(touches.frame(), [TouchPoint(id: 7, outputID: 1, x: 55, y: 52)])
        touches.up(id: 7)
        XCTAssertEqual(touches.frame(), [])
    }

    func test_aFrameWithSeveralChangesPublishesThemTogether() {
        var touches = TouchTracker()
        touches.down(id: 1, outputID: 4, x: 0, y: 0)
        touches.down(id: 2, outputID: 4, x: 1, y: 1)
        touches.down(id: 5, outputID: 9, x: 2, y: 2)
        XCTAssertEqual(touches.points, [], "nothing is published before the frame")
        XCTAssertEqual(touches.frame()?.count, 3)
        XCTAssertNil(touches.frame(), "an empty frame changes nothing")
    }

    func test_anUpOrMotionForAnUnknownIdIsIgnored() {
        var touches = TouchTracker()
        touches.down(id: 1, outputID: 1, x: 0, y: 0)
        _ = touches.frame()
        touches.up(id: 42)
        touches.motion(id: 43, x: 9, y: 9)
        XCTAssertNil(touches.frame())
        XCTAssertEqual(touches.points.map(\.id), [1])
    }

    func test_aTouchStaysWithTheOutputItWentDownOn() {
        var touches = TouchTracker()
        touches.down(id: 1, outputID: 2, x: 790, y: 10)
        _ = touches.frame()
        // Sliding past the edge of its surface: wl_touch keeps reporting it in that
        // surface's coordinates, and it stays on output 2.
        touches.motion(id: 1, x: 900, y: 10)
        XCTAssertEqual(touches.frame()?.first?.outputID, 2)
    }

    func test_cancelDropsEveryTouch() {
        var touches = TouchTracker()
        touches.down(id: 1, outputID: 1, x: 0, y: 0)
        touches.down(id: 2, outputID: 2, x: 0, y: 0)
        _ = touches.frame()
        XCTAssertEqual(touches.cancel(), [])
        XCTAssertEqual(touches.points, [])
        touches.motion(id: 1, x: 5, y: 5)
        XCTAssertNil(touches.frame(), "cancelled touches are gone for good")
    }

    func test_aReusedIdAfterUpIsANewTouch() {
        var touches = TouchTracker()
        touches.down(id: 1, outputID: 1, x: 0, y: 0)
        touches.up(id: 1)
        touches.down(id: 1, outputID: 3, x: 7, y: 7)
        XCTAssertEqual(touches.frame(), [TouchPoint(id: 1, outputID: 3, x: 7, y: 7)])
    }
}

/// Key codes through a real keymap (the system's XKB data, the "us" and "de" layouts),
/// handed over as text as a compositor's wl_keyboard.keymap is.
final class KeyboardStateTests: XCTestCase {
    // evdev key codes
    let keyM: UInt32 = 50, keyTab: UInt32 = 15, keyEsc: UInt32 = 1, keySpace: UInt32 = 57
    let keyY: UInt32 = 21

    /// The keymap of `layout` as text, and the mask of its Shift modifier.
    func keymap(layout: String) throws -> (text: String, shift: UInt32) {
        let context = try XCTUnwrap(xkb_context_new(XKB_CONTEXT_NO_FLAGS))
        defer { xkb_context_unref(context) }
        let keymap = try XCTUnwrap(layout.withCString { name in
            var names = xkb_rule_names(rules: nil, model: nil, layout: name, variant: nil, options: nil)
            return xkb_keymap_new_from_names(context, &names, XKB_KEYMAP_COMPILE_NO_FLAGS)
        })
        defer { xkb_keymap_unref(keymap) }
        let text = try XCTUnwrap(xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1))
        defer { free(text) }
        return (String(cString: text), 1 << xkb_keymap_mod_get_index(keymap, XKB_MOD_NAME_SHIFT))
    }

    func keyboard(layout: String) throws -> KeyboardState {
        try XCTUnwrap(KeyboardState(keymapText: keymap(layout: layout).text))
    }

    /// A keysym's name, e.g. "Tab".
    func name(of keysym: UInt32) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        let length = xkb_keysym_get_name(keysym, &buffer, buffer.count)
        return length > 0 ? String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?"
    }

    func test_keyCodesBecomeKeysymsAndText() throws {
        let keyboard = try keyboard(layout: "us")
        XCTAssertEqual(keyboard.describe(key: keyM).keysym, UInt32(UInt8(ascii: "m")))
        XCTAssertEqual(keyboard.describe(key: keyM).text, "m")
        XCTAssertEqual(name(of: keyboard.describe(key: keyTab).keysym), "Tab")
        XCTAssertEqual(name(of: keyboard.describe(key: keyEsc).keysym), "Escape")
        XCTAssertEqual(keyboard.describe(key: keySpace).text, " ")
    }

    func test_modifiersChangeTheKeysym() throws {
        let (text, shift) = try keymap(layout: "us")
        let keyboard = try XCTUnwrap(KeyboardState(keymapText: text))
        // As wl_keyboard.modifiers says Shift is down, then up.
        keyboard.updateModifiers(depressed: shift, latched: 0, locked: 0, group: 0)
        XCTAssertEqual(keyboard.describe(key: keyM).text, "M")
        keyboard.updateModifiers(depressed: 0, latched: 0, locked: 0, group: 0)
        XCTAssertEqual(keyboard.describe(key: keyM).text, "m")
    }

    func test_theLayoutDecidesWhatAKeyMeans() throws {
        // The key left of U is y on a US keyboard and z on a German one.
        XCTAssertEqual(try keyboard(layout: "us").describe(key: keyY).text, "y")
        XCTAssertEqual(try keyboard(layout: "de").describe(key: keyY).text, "z")
    }

    func test_aBrokenKeymapIsRefused() {
        XCTAssertNil(KeyboardState(keymapText: "xkb_keymap { nonsense"))
    }
}
