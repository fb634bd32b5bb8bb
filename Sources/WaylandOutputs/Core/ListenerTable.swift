/// A C listener struct at an address that never moves or dies, as `*_add_listener`
/// requires. Each proxy type keeps one in an immutable static.
final class ListenerTable<Listener>: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<Listener>

    init(_ listener: Listener) {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: listener)
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
