import CTestProtocols
import CWayland
import Foundation

/// A pointer device this test process drives through the wlroots virtual-pointer
/// protocol, as a second Wayland client next to glout.
final class VirtualPointer {
    private let client: TestClient
    private let manager: OpaquePointer
    private let pointer: OpaquePointer
    /// The size of the area absolute motion covers: the whole output layout.
    let width: UInt32, height: UInt32

    init(socket: String, layoutWidth: UInt32, layoutHeight: UInt32) throws {
        client = try TestClient(socket: socket)
        manager = try client.bind("zwlr_virtual_pointer_manager_v1", ct_zwlr_virtual_pointer_manager_v1_interface())
        pointer = zwlr_virtual_pointer_manager_v1_create_virtual_pointer(manager, nil)
        width = layoutWidth
        height = layoutHeight
        client.roundtrip()
    }

    deinit {
        zwlr_virtual_pointer_v1_destroy(pointer)
        zwlr_virtual_pointer_manager_v1_destroy(manager)
    }

    /// Moves to (x, y) in the layout's points.
    func move(toX x: UInt32, y: UInt32) {
        let time = UInt32(truncatingIfNeeded: MonotonicMilliseconds.now)
        zwlr_virtual_pointer_v1_motion_absolute(pointer, time, x, y, width, height)
        zwlr_virtual_pointer_v1_frame(pointer)
        client.roundtrip()
    }
}

enum MonotonicMilliseconds {
    static var now: UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1000 + UInt64(ts.tv_nsec) / 1_000_000
    }
}
