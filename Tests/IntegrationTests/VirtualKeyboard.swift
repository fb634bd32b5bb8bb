import CTestProtocols
import CWayland
import CXKBCommon
import Foundation

/// A keyboard this test process drives through the virtual-keyboard protocol, as a second
/// Wayland client next to glout. Unlike wtype's, it lives for the whole test: make it
/// before glout starts, and glout binds it with its seat at start-up, so no key can
/// arrive before glout has the keymap.
final class VirtualKeyboard {
    /// evdev key codes (linux/input-event-codes.h).
    enum Key: UInt32 {
        case escape = 1, q = 16, tab = 15, i = 23, f = 33, m = 50, space = 57
    }

    private let client: TestClient
    private let manager: OpaquePointer
    private let seat: OpaquePointer
    private let keyboard: OpaquePointer

    init(socket: String) throws {
        client = try TestClient(socket: socket)
        manager = try client.bind("zwp_virtual_keyboard_manager_v1", ct_zwp_virtual_keyboard_manager_v1_interface())
        seat = try client.bind("wl_seat", cw_wl_seat_interface())
        keyboard = zwp_virtual_keyboard_manager_v1_create_virtual_keyboard(manager, seat)
        try sendKeymap()
        client.roundtrip()
    }

    deinit {
        zwp_virtual_keyboard_v1_destroy(keyboard)
        zwp_virtual_keyboard_manager_v1_destroy(manager)
        wl_seat_destroy(seat)
    }

    /// The US keymap, as text in an unlinked file (what wl_keyboard.keymap hands out).
    private func sendKeymap() throws {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { throw HarnessError("xkb_context_new failed") }
        defer { xkb_context_unref(context) }
        var names = xkb_rule_names(rules: nil, model: nil, layout: nil, variant: nil, options: nil)
        let layout = strdup("us")
        defer { free(layout) }
        names.layout = UnsafePointer(layout)
        guard let keymap = xkb_keymap_new_from_names(context, &names, XKB_KEYMAP_COMPILE_NO_FLAGS),
              let text = xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1)
        else { throw HarnessError("cannot compile the us keymap") }
        defer {
            free(text)
            xkb_keymap_unref(keymap)
        }
        let size = strlen(text) + 1
        var template = Array("/tmp/glout-keymap-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { throw HarnessError("mkstemp: \(String(cString: strerror(errno)))") }
        unlink(template)
        defer { close(fd) }
        guard write(fd, text, size) == size else { throw HarnessError("cannot write the keymap") }
        zwp_virtual_keyboard_v1_keymap(keyboard, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, fd, UInt32(size))
    }

    /// Presses and releases `key`.
    func type(_ key: Key) {
        let time = UInt32(truncatingIfNeeded: MonotonicMilliseconds.now)
        zwp_virtual_keyboard_v1_key(keyboard, time, key.rawValue, WL_KEYBOARD_KEY_STATE_PRESSED.rawValue)
        zwp_virtual_keyboard_v1_key(keyboard, time + 1, key.rawValue, WL_KEYBOARD_KEY_STATE_RELEASED.rawValue)
        client.roundtrip()
    }
}
