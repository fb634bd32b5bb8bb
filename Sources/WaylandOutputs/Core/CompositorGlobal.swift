/// A global the compositor offers (a wl_registry.global event): an interface at a version,
/// and the version this library binds it at (nil: it does not use it).
package struct CompositorGlobal: Sendable, Equatable {
    /// The interface name, e.g. "wp_presentation".
    package var interface: String
    /// The highest version the compositor offers.
    package var version: UInt32
    /// What the library binds: min(offered, the version it is written for, libwayland's).
    /// wl_seat is bound only once input is asked for, zwlr_output_manager_v1 only for a
    /// mode change.
    package var boundVersion: UInt32?

    package init(interface: String, version: UInt32, boundVersion: UInt32?) {
        self.interface = interface
        self.version = version
        self.boundVersion = boundVersion
    }
}
