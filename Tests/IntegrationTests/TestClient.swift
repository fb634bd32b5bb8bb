import CWayland
import Foundation

/// A Wayland client of the test process's own, next to glout: its connection, and the
/// globals the compositor announced, to bind by interface name.
final class TestClient {
    private final class Globals: @unchecked Sendable {
        var announced: [String: (name: UInt32, version: UInt32)] = [:]
    }

    private final class ListenerBox: @unchecked Sendable {
        let pointer: UnsafeMutablePointer<wl_registry_listener>
        init() {
            pointer = .allocate(capacity: 1)
            pointer.initialize(to: wl_registry_listener(
                global: { data, _, name, interface, version in
                    let globals = Unmanaged<Globals>.fromOpaque(data!).takeUnretainedValue()
                    let key = String(cString: interface!)
                    if globals.announced[key] == nil { globals.announced[key] = (name, version) }
                },
                global_remove: { _, _, _ in }
            ))
        }
    }

    private static let listener = ListenerBox()
    let display: OpaquePointer
    private let registry: OpaquePointer
    private let globals = Globals()

    init(socket: String) throws {
        guard let display = wl_display_connect(socket) else { throw HarnessError("cannot connect to \(socket)") }
        self.display = display
        registry = wl_display_get_registry(display)
        wl_registry_add_listener(registry, TestClient.listener.pointer, Unmanaged.passUnretained(globals).toOpaque())
        wl_display_roundtrip(display)
    }

    /// Binds the first global of `interface` at `version`.
    func bind(_ interface: String, _ description: UnsafePointer<wl_interface>, version: UInt32 = 1) throws -> OpaquePointer {
        guard let global = globals.announced[interface],
              let proxy = wl_registry_bind(registry, global.name, description, min(version, global.version))
        else { throw HarnessError("the compositor offers no \(interface)") }
        return OpaquePointer(proxy)
    }

    /// Sends what is queued and waits until the compositor has handled it.
    func roundtrip() { wl_display_roundtrip(display) }

    deinit {
        wl_registry_destroy(registry)
        wl_display_roundtrip(display)
        wl_display_disconnect(display)
    }
}
