import Glibc
import WaylandOutputs

/// The bytes of one decoded frame, taken from a ``VideoFrameMemory/Pool`` and given back
/// to it when the last holder lets go (the decoder's queue, or a window that has just
/// uploaded it). A new 1280x720 BGRA frame each 42 ms would otherwise be a fresh mapping
/// of 3.7 MB each time (glout keeps glibc's mmap threshold at 256 KB), which the kernel
/// zeroes page by page: measured, a quarter of the process's time went on those page
/// faults.
// @unchecked: the bytes are written once, by the decoding thread, before the frame is
// queued (under the source's mutex), and only read after.
final class VideoFrameMemory: @unchecked Sendable {
    let bytes: UnsafeMutableRawPointer
    let count: Int
    private let pool: Pool

    fileprivate init(bytes: UnsafeMutableRawPointer, count: Int, pool: Pool) {
        (self.bytes, self.count, self.pool) = (bytes, count, pool)
    }

    deinit { pool.giveBack(bytes, count: count) }

    /// Spare blocks of one size for a video's frames: at most `spares` are kept, the rest
    /// freed. Taking and giving back allocate nothing once the pool exists (a window's
    /// render thread may be the one that lets a frame go).
    final class Pool: @unchecked Sendable {
        private let blocks: Locked<(count: Int, spare: [UnsafeMutableRawPointer])>
        private let spares: Int
        private let bytes: Int

        /// At most `spares` blocks are kept, and no more than `bytes` in all (one at least).
        init(spares: Int, bytes: Int = .max) {
            self.spares = spares
            self.bytes = bytes
            var spare: [UnsafeMutableRawPointer] = []
            spare.reserveCapacity(spares)
            blocks = Locked((0, spare))
        }

        deinit {
            blocks.withLock { blocks in
                for block in blocks.spare { free(block) }
                blocks.spare.removeAll()
            }
        }

        /// A block of `count` bytes (64-byte aligned, for SIMD), its contents undefined;
        /// nil when memory is short.
        func take(_ count: Int) -> VideoFrameMemory? {
            let reused: UnsafeMutableRawPointer? = blocks.withLock { blocks in
                if blocks.count != count {
                    // Another frame size: the spares are of no use.
                    for block in blocks.spare { free(block) }
                    blocks.spare.removeAll(keepingCapacity: true)
                    blocks.count = count
                }
                return blocks.spare.popLast()
            }
            if let reused { return VideoFrameMemory(bytes: reused, count: count, pool: self) }
            var fresh: UnsafeMutableRawPointer?
            guard count > 0, posix_memalign(&fresh, 64, count) == 0, let fresh else { return nil }
            return VideoFrameMemory(bytes: fresh, count: count, pool: self)
        }

        fileprivate func giveBack(_ block: UnsafeMutableRawPointer, count: Int) {
            let kept = blocks.withLock { blocks in
                guard blocks.count == count, blocks.spare.count < spares,
                      blocks.spare.isEmpty || (blocks.spare.count + 1) * count <= bytes else { return false }
                blocks.spare.append(block)
                return true
            }
            if !kept { free(block) }
        }

        /// Blocks kept for reuse now (for the tests).
        var spareCount: Int { blocks.withLock { $0.spare.count } }
    }
}
