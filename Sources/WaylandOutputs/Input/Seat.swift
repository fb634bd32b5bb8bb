import CWayland
import Glibc

/// One wl_seat and the keyboard, pointer and touch it offers as its capabilities come
/// and go. Lives on the main queue; reports every event as an ``InputEvent``.
final class Seat: ProxyOwner {
    private let seat: OpaquePointer
    private let version: UInt32
    private let directory: SurfaceDirectory
    private let emit: (InputEvent) -> Void
    private let log: Log
    private var keyboard: OpaquePointer?
    private var pointer: OpaquePointer?
    private var touch: OpaquePointer?
    private var keyboardState: KeyboardState?
    private var keyboardFocus: UInt32?
    private var pointerFocus: UInt32?
    private var touches = TouchTracker()

    init(seat: OpaquePointer, version: UInt32, directory: SurfaceDirectory, log: Log,
         emit: @escaping (InputEvent) -> Void) {
        self.seat = seat
        self.log = log
        self.version = version
        self.directory = directory
        self.emit = emit
        wl_seat_add_listener(seat, Seat.seatListener.pointer, userData)
    }

    /// Releases the devices, then the seat (wl_*.release where the version has it).
    /// `report: false` when the owner is going away (its deinit): touches still down are
    /// then dropped without an event, which would reach the owner mid-deinit.
    func destroy(report: Bool = true) {
        setCapabilities(0, report: report)
        if version >= 5 { wl_seat_release(seat) } else { wl_seat_destroy(seat) }
    }

    private func setCapabilities(_ capabilities: UInt32, report: Bool = true) {
        let wantsKeyboard = capabilities & WL_SEAT_CAPABILITY_KEYBOARD.rawValue != 0
        let wantsPointer = capabilities & WL_SEAT_CAPABILITY_POINTER.rawValue != 0
        let wantsTouch = capabilities & WL_SEAT_CAPABILITY_TOUCH.rawValue != 0
        if wantsKeyboard, keyboard == nil {
            keyboard = wl_seat_get_keyboard(seat)
            wl_keyboard_add_listener(keyboard, Seat.keyboardListener.pointer, userData)
        } else if !wantsKeyboard, let keyboard {
            if version >= 3 { wl_keyboard_release(keyboard) } else { wl_keyboard_destroy(keyboard) }
            self.keyboard = nil
            keyboardState = nil
        }
        if wantsPointer, pointer == nil {
            pointer = wl_seat_get_pointer(seat)
            wl_pointer_add_listener(pointer, Seat.pointerListener.pointer, userData)
        } else if !wantsPointer, let pointer {
            if version >= 3 { wl_pointer_release(pointer) } else { wl_pointer_destroy(pointer) }
            self.pointer = nil
        }
        if wantsTouch, touch == nil {
            touch = wl_seat_get_touch(seat)
            wl_touch_add_listener(touch, Seat.touchListener.pointer, userData)
        } else if !wantsTouch, let touch {
            if version >= 3 { wl_touch_release(touch) } else { wl_touch_destroy(touch) }
            self.touch = nil
            let cancelled = touches.cancel()
            if report { emit(.touches(cancelled)) }
        }
    }

    static let seatListener = ListenerTable(wl_seat_listener()) {
        $0.capabilities = { data, _, capabilities in owner(data, as: Seat.self).setCapabilities(capabilities) }
        $0.name = { _, _, _ in }
    }

    static let keyboardListener = ListenerTable(wl_keyboard_listener()) {
        $0.keymap = { data, _, format, fd, size in
            let seat = owner(data, as: Seat.self)
            guard format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue else {
                close(fd)
                return
            }
            seat.keyboardState = KeyboardState.fromDescriptor(fd, size: size)
            seat.log.debug("keyboard: keymap of \(size) bytes " + (seat.keyboardState == nil ? "refused" : "ready"))
        }
        $0.enter = { data, _, _, surface, _ in
            let seat = owner(data, as: Seat.self)
            seat.keyboardFocus = seat.directory.output(of: surface)
        }
        $0.leave = { data, _, _, _ in owner(data, as: Seat.self).keyboardFocus = nil }
        $0.key = { data, _, _, _, key, state in
            let seat = owner(data, as: Seat.self)
            guard let keyboard = seat.keyboardState else { return }
            let (keysym, text) = keyboard.describe(key: key)
            seat.emit(.key(outputID: seat.keyboardFocus, keysym: keysym, text: text,
                           pressed: state == WL_KEYBOARD_KEY_STATE_PRESSED.rawValue))
        }
        $0.modifiers = { data, _, _, depressed, latched, locked, group in
            owner(data, as: Seat.self).keyboardState?.updateModifiers(depressed: depressed, latched: latched,
                                                                      locked: locked, group: group)
        }
        $0.repeat_info = { _, _, _, _ in }
    }

    static let pointerListener = ListenerTable(wl_pointer_listener()) {
        $0.enter = { data, _, _, surface, x, y in
            let seat = owner(data, as: Seat.self)
            seat.pointerFocus = seat.directory.output(of: surface)
            seat.emit(.pointer(outputID: seat.pointerFocus, x: wl_fixed_to_double(x), y: wl_fixed_to_double(y)))
        }
        $0.leave = { data, _, _, _ in
            let seat = owner(data, as: Seat.self)
            seat.pointerFocus = nil
            seat.emit(.pointer(outputID: nil, x: 0, y: 0))
        }
        $0.motion = { data, _, _, x, y in
            let seat = owner(data, as: Seat.self)
            seat.emit(.pointer(outputID: seat.pointerFocus, x: wl_fixed_to_double(x), y: wl_fixed_to_double(y)))
        }
        $0.button = { data, _, _, _, button, state in
            let seat = owner(data, as: Seat.self)
            seat.emit(.button(outputID: seat.pointerFocus, button: button,
                              pressed: state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue))
        }
        $0.axis = { _, _, _, _, _ in }
        $0.frame = { _, _ in }
        $0.axis_source = { _, _, _ in }
        $0.axis_stop = { _, _, _, _ in }
        $0.axis_discrete = { _, _, _, _ in }
        $0.axis_value120 = { _, _, _, _ in }
    }

    static let touchListener = ListenerTable(wl_touch_listener()) {
        $0.down = { data, _, _, _, surface, id, x, y in
            let seat = owner(data, as: Seat.self)
            // A touch on a surface that is not a window's belongs to no output; skip it.
            guard let output = seat.directory.output(of: surface) else { return }
            seat.touches.down(id: id, outputID: output, x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))
        }
        $0.up = { data, _, _, _, id in owner(data, as: Seat.self).touches.up(id: id) }
        $0.motion = { data, _, _, id, x, y in
            owner(data, as: Seat.self).touches.motion(id: id, x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))
        }
        $0.frame = { data, _ in
            let seat = owner(data, as: Seat.self)
            if let points = seat.touches.frame() { seat.emit(.touches(points)) }
        }
        $0.cancel = { data, _ in
            let seat = owner(data, as: Seat.self)
            seat.emit(.touches(seat.touches.cancel()))
        }
        $0.shape = { _, _, _, _, _ in }
        $0.orientation = { _, _, _, _ in }
    }
}
