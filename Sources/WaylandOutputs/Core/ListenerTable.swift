import CWayland

/// A C listener struct at an address that never moves or dies, as `*_add_listener`
/// requires. Each proxy type keeps one in an immutable static.
///
/// Listeners of the core protocol (wl_surface, wl_pointer, ...) come from the system's
/// wayland-client-protocol.h, which gains members when libwayland adds events (1.22 added
/// three). They are built with ``init(_:_:)``: a zeroed struct whose handlers are set by
/// name, so the table compiles against any libwayland, and ``coveredVersion(of:)`` says up
/// to which version every event has a handler (the tests hold it to the version bound).
/// The other protocols' headers are committed (scripts/generate-protocols), so their
/// memberwise initializers name every event and a missing handler fails to compile.
// @unchecked: the table is filled once in init and only read after, by libwayland.
final class ListenerTable<Listener>: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<Listener>

    init(_ listener: Listener) {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: listener)
    }

    /// `empty` is the struct zeroed (`wl_pointer_listener()`); `fill` sets its handlers.
    convenience init(_ empty: Listener, _ fill: (inout Listener) -> Void) {
        var listener = empty
        fill(&listener)
        self.init(listener)
    }

    /// The highest version of `interface` all of whose events have a handler here: a
    /// proxy bound at that version or lower never meets a NULL handler, which libwayland
    /// aborts on. An event's version is the number its wl_message signature starts with.
    func coveredVersion(of interface: UnsafePointer<wl_interface>) -> UInt32 {
        let slots = MemoryLayout<Listener>.size / MemoryLayout<UnsafeRawPointer?>.stride
        let handlers = UnsafeRawPointer(pointer).assumingMemoryBound(to: UnsafeRawPointer?.self)
        var covered = UInt32(bitPattern: interface.pointee.version)
        for index in 0..<Int(interface.pointee.event_count) {
            let since = ListenerTable.since(interface.pointee.events[index])
            if index >= slots || handlers[index] == nil { covered = min(covered, since - 1) }
        }
        return covered
    }

    private static func since(_ message: wl_message) -> UInt32 {
        var version: UInt32 = 0
        var character = message.signature!
        while character.pointee >= 0x30 && character.pointee <= 0x39 {
            version = version * 10 + UInt32(character.pointee - 0x30)
            character += 1
        }
        return max(1, version)
    }
}

/// The Swift object a C callback's `data` argument points at.
@inline(__always)
func owner<T: AnyObject>(_ data: UnsafeMutableRawPointer?, as type: T.Type) -> T {
    Unmanaged<T>.fromOpaque(data!).takeUnretainedValue()
}

/// An object that owns proxies and receives their events through C callbacks.
protocol ProxyOwner: AnyObject {}

extension ProxyOwner {
    /// This object as C user data; it must outlive every proxy it is given to.
    var userData: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
}
