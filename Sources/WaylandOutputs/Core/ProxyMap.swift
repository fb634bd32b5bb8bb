/// A value per Wayland proxy, shared between threads: the names of the outputs behind
/// wl_output proxies (render threads see wl_surface.enter events carrying them), the
/// output of each window's wl_surface (for input).
final class ProxyMap<Value: Sendable>: Sendable {
    private let values = Locked<[UInt: Value]>([:])

    subscript(proxy: OpaquePointer) -> Value? {
        get { values.withLock { $0[key(proxy)] } }
        set { values.withLock { $0[key(proxy)] = newValue } }
    }

    private func key(_ proxy: OpaquePointer) -> UInt { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(proxy))) }
}

typealias ProxyNames = ProxyMap<String>
