/// Bytes in memory glout allocates and frees itself, for C that reads them across several
/// calls or keeps a pointer to them (libpng's read from memory, libwebpdemux's demuxer
/// and animation decoder). A Swift array cannot serve there: a pointer from its
/// `withUnsafeBytes` is valid only inside that call, and an optimized build may free the
/// array after its last Swift use, while C still reads it. This memory lives until the
/// object goes; whoever hands `start` to C keeps the object (`withExtendedLifetime`, or a
/// stored property of the C object's owner) for as long as C may read it.
final class HeldBytes: @unchecked Sendable {
    let start: UnsafeMutableRawPointer
    /// The bytes filled.
    private(set) var count = 0
    let capacity: Int

    /// Room for `capacity` bytes (at least one), none filled yet.
    init(capacity: Int) {
        self.capacity = max(1, capacity)
        start = UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 16)
    }

    deinit { start.deallocate() }

    /// Marks `added` more bytes, written at `start + count`, as filled.
    func filled(_ added: Int) {
        precondition(added >= 0 && count + added <= capacity, "HeldBytes: filled past its capacity")
        count += added
    }

    /// The filled bytes: valid only while the object lives, so within `withExtendedLifetime`
    /// of it, or ``withBytes(_:)``.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: start, count: count) }
    var typed: UnsafePointer<UInt8> { UnsafePointer(start.assumingMemoryBound(to: UInt8.self)) }

    /// `body` with the filled bytes, the object kept alive until it returns.
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withExtendedLifetime(self) { try body(bytes) }
    }

    /// A copy of the filled bytes, as an array.
    var array: [UInt8] { withBytes { Array($0) } }
}
