import CWayland
import Foundation

/// A pointer device this test process drives through the wlroots virtual-pointer
/// protocol, as a second Wayland client next to glout.
final class VirtualPointer {
    private final class Globals: @unchecked Sendable {
        var manager: (name: UInt32, version: UInt32)?
    }

    private final class ListenerBox: @unchecked Sendable {
        let pointer: UnsafeMutablePointer<wl_registry_listener>
        init() {
            pointer = .allocate(capacity: 1)
            pointer.initialize(to: wl_registry_listener(
                global: { data, _, name, interface, version in
                    guard String(cString: interface!) == "zwlr_virtual_pointer_manager_v1" else { return }
                    Unmanaged<Globals>.fromOpaque(data!).takeUnretainedValue().manager = (name, version)
                },
                global_remove: { _, _, _ in }
            ))
        }
    }

    private static let listener = ListenerBox()
    private let display: OpaquePointer
    private let registry: OpaquePointer
    private let manager: OpaquePointer
    private let pointer: OpaquePointer
    private let globals = Globals()
    /// The size of the area absolute motion covers: the whole output layout.
    let width: UInt32, height: UInt32

    init(socket: String, layoutWidth: UInt32, layoutHeight: UInt32) throws {
        guard let display = wl_display_connect(socket) else { throw HarnessError("cannot connect to \(socket)") }
        self.display = display
        registry = wl_display_get_registry(display)
        wl_registry_add_listener(registry, VirtualPointer.listener.pointer, Unmanaged.passUnretained(globals).toOpaque())
        wl_display_roundtrip(display)
        guard let found = globals.manager,
              let raw = wl_registry_bind(registry, found.name, cw_zwlr_virtual_pointer_manager_v1_interface(), 1)
        else { throw HarnessError("the compositor offers no zwlr_virtual_pointer_manager_v1") }
        manager = OpaquePointer(raw)
        pointer = zwlr_virtual_pointer_manager_v1_create_virtual_pointer(manager, nil)
        width = layoutWidth
        height = layoutHeight
        wl_display_roundtrip(display)
    }

    deinit {
        zwlr_virtual_pointer_v1_destroy(pointer)
        zwlr_virtual_pointer_manager_v1_destroy(manager)
        wl_registry_destroy(registry)
        wl_display_roundtrip(display)
        wl_display_disconnect(display)
    }

    /// Moves to (x, y) in the layout's points.
    func move(toX x: UInt32, y: UInt32) {
        let time = UInt32(truncatingIfNeeded: MonotonicMilliseconds.now)
        zwlr_virtual_pointer_v1_motion_absolute(pointer, time, x, y, width, height)
        zwlr_virtual_pointer_v1_frame(pointer)
        wl_display_roundtrip(display)
    }
}

enum MonotonicMilliseconds {
    static var now: UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1000 + UInt64(ts.tv_nsec) / 1_000_000
    }
}
