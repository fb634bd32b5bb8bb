import CXKBCommon
import Glibc

/// A keymap and its state (libxkbcommon), turning wl_keyboard key codes into keysyms and
/// text with the compositor's layout and the current modifiers.
final class KeyboardState {
    private let context: OpaquePointer
    private let keymap: OpaquePointer
    private let state: OpaquePointer

    /// A keymap compiled from text (what wl_keyboard.keymap sends, XKB_KEYMAP_FORMAT_TEXT_V1).
    init?(keymapText: String) {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { return nil }
        guard let keymap = xkb_keymap_new_from_string(context, keymapText, XKB_KEYMAP_FORMAT_TEXT_V1,
                                                      XKB_KEYMAP_COMPILE_NO_FLAGS) else {
            xkb_context_unref(context)
            return nil
        }
        guard let state = xkb_state_new(keymap) else {
            xkb_keymap_unref(keymap)
            xkb_context_unref(context)
            return nil
        }
        (self.context, self.keymap, self.state) = (context, keymap, state)
    }

    deinit {
        xkb_state_unref(state)
        xkb_keymap_unref(keymap)
        xkb_context_unref(context)
    }

    /// Reads the keymap wl_keyboard.keymap hands over as a file descriptor.
    static func fromDescriptor(_ fd: Int32, size: UInt32) -> KeyboardState? {
        defer { close(fd) }
        // A keymap is tens of kilobytes; a size past 16 MiB is not one.
        guard size > 0, size <= 16 << 20, let map = mmap(nil, Int(size), PROT_READ, MAP_PRIVATE, fd, 0), map != MAP_FAILED
        else { return nil }
        defer { munmap(map, Int(size)) }
        let text = String(decoding: UnsafeRawBufferPointer(start: map, count: Int(size)).prefix { $0 != 0 }, as: UTF8.self)
        return KeyboardState(keymapText: text)
    }

    /// The keysym and text of a wl_keyboard key code (evdev code; XKB adds 8).
    func describe(key: UInt32) -> (keysym: UInt32, text: String) {
        let code = xkb_keycode_t(key &+ 8)
        let keysym = xkb_state_key_get_one_sym(state, code)
        var buffer = [CChar](repeating: 0, count: 16)
        let length = xkb_state_key_get_utf8(state, code, &buffer, buffer.count)
        let text = length > 0 ? String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        return (keysym, text)
    }

    /// Applies wl_keyboard.modifiers.
    func updateModifiers(depressed: UInt32, latched: UInt32, locked: UInt32, group: UInt32) {
        xkb_state_update_mask(state, depressed, latched, locked, 0, 0, group)
    }
}
