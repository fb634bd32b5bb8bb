import CGLES
import CWayland
import Glibc

/// How a window's frames reach the compositor where the GPU is the CPU (llvmpipe): the
/// renderer draws into a framebuffer object of the window's own, whose pixels are read
/// into one of the window's wl_shm buffers (glReadPixels, BGRA, top row first), which the
/// window attaches and commits itself. A buffer is reused only once the compositor has
/// released it (wl_buffer.release).
///
/// Mesa's own Wayland path does the same copy, but keeps the buffers to itself: a
/// compositor that never released one would crash Mesa 22.3 at the fifth swap (it reads
/// a buffer it did not find) and hang Mesa 25 in it forever, with no way for a client
/// to see it coming. Here a frame with no free buffer waits, and the window knows it.
///
/// Only what changed is copied and damaged. The framebuffer object keeps its pixels from
/// frame to frame (``holdsFrame``), so a renderer may redraw just what changed and say
/// which regions (``OutputRenderer/changedRegions(in:)``); each buffer remembers which
/// regions it lacks of the latest frame (it was filled a frame or two before), and only
/// those are read into it, while the compositor is told of only what changed since the
/// last commit (wl_surface.damage_buffer) and recomposes only that.
///
/// Use it on the window's render thread, with the window's context current.
final class SharedMemoryFrames {
    /// One wl_shm buffer and the memory it shows.
    private final class Buffer: ProxyOwner, DamagedBuffer {
        let proxy: OpaquePointer
        let memory: UnsafeMutableRawPointer
        let byteCount: Int
        let size: Size
        /// Attached and committed, and not yet released by the compositor.
        var isBusy = false
        /// Of an old size: destroyed when the compositor releases it.
        var isRetired = false
        /// The regions in which it differs from the framebuffer object: a new buffer lacks
        /// everything, a buffer just filled nothing.
        var stale = Damage.everything
        /// Called when the compositor releases it.
        unowned let owner: SharedMemoryFrames

        init(proxy: OpaquePointer, memory: UnsafeMutableRawPointer, byteCount: Int, size: Size, owner: SharedMemoryFrames) {
            (self.proxy, self.memory, self.byteCount, self.size, self.owner) = (proxy, memory, byteCount, size, owner)
        }

        func destroy() {
            wl_buffer_destroy(proxy)
            munmap(memory, byteCount)
        }
    }

    /// Buffers of the current size at most: one on screen, one queued, one being filled.
    static let buffersPerSize = 3
    /// Buffers in all: those of older sizes the compositor still holds count too, and the
    /// oldest of them is destroyed (allowed before its release: its memory is not reused)
    /// rather than let a compositor that never releases make a window hold more. With the
    /// framebuffer object, a window's frames take at most 7 times a buffer's bytes.
    static let buffersInAll = 6

    private let shm: OpaquePointer
    private let queue: EventQueue
    private var buffers: [Buffer] = []
    /// The framebuffer object the renderer draws into, and its colour texture.
    private(set) var framebuffer: GLuint = 0
    private var texture: GLuint = 0
    private var framebufferSize = Size.zero
    /// Whether the framebuffer object holds a frame drawn at its size (it keeps its pixels
    /// until its size changes).
    private(set) var holdsFrame = false
    /// Whether the framebuffer object's colour is stored B, G, R, A (``RenderTarget/storesBGRA``).
    private(set) var storesBGRA = false
    /// What each buffer lacks, and what changed since the last commit.
    private var ledger = FrameLedger()
    /// The context the framebuffer object belongs to (framebuffer objects are not shared).
    private var context: EGLContext?
    private var released = false

    /// `shm` is the bound wl_shm; its wrapper on `queue` makes the buffers, whose release
    /// events arrive there.
    init(shm: OpaquePointer, queue: EventQueue) {
        self.shm = queue.wrapper(of: shm)
        self.queue = queue
    }

    /// Whether the GL driver can read a framebuffer the way the compositor wants it (BGRA
    /// rows, top first): GL_EXT_read_format_bgra and GL_ANGLE_pack_reverse_row_order, both
    /// in Mesa's GLES since long before 22.3.
    static func isSupported(extensions: String) -> Bool {
        extensions.contains("GL_EXT_read_format_bgra") && extensions.contains("GL_ANGLE_pack_reverse_row_order")
    }

    /// Makes the framebuffer object exist at `size` (GL objects of the current context) and
    /// binds it for the renderer. Returns its name.
    @discardableResult
    func prepare(size: Size) throws -> GLuint {
        if framebuffer == 0 {
            glGenFramebuffers(1, &framebuffer)
            glGenTextures(1, &texture)
            context = eglGetCurrentContext()
        }
        if framebufferSize != size {
            // B, G, R, A, as the wl_shm buffer holds them: read back as a plain copy where
            // RGBA took llvmpipe a conversion of every pixel (BENCHMARKS.md, "Frame cost and
            // fair shares"). RGBA where the driver cannot draw into BGRA.
            var status = GLenum(0)
            for attempt in 0..<2 {
                let bgra = attempt == 0
                let (stored, format) = bgra ? (GLint(RenderTarget.bgraFormat), RenderTarget.bgraFormat)
                    : (GL_RGBA8, GLenum(GL_RGBA))
                glBindTexture(GLenum(GL_TEXTURE_2D), texture)
                glTexImage2D(GLenum(GL_TEXTURE_2D), 0, stored, size.width, size.height, 0, format, GLenum(GL_UNSIGNED_BYTE),
                             nil)
                glBindTexture(GLenum(GL_TEXTURE_2D), 0)
                glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
                glFramebufferTexture2D(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), texture, 0)
                status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
                storesBGRA = bgra
                if status == GLenum(GL_FRAMEBUFFER_COMPLETE) { break }
            }
            guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
                throw EGLError("the window's framebuffer of \(size) (status 0x\(String(status, radix: 16)))", code: EGL_BAD_ALLOC)
            }
            framebufferSize = size
            holdsFrame = false
            ledger.reset()
        }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        return framebuffer
    }

    /// Whether a buffer of `size` can be filled now: a free one exists, or one more may be
    /// made.
    func hasFreeBuffer(size: Size) -> Bool {
        var current = 0
        for buffer in buffers where !buffer.isRetired && buffer.size == size {
            if !buffer.isBusy { return true }
            current += 1
        }
        return current < SharedMemoryFrames.buffersPerSize
    }

    /// Reads the framebuffer into a free buffer and commits it on `surface` (attach, damage,
    /// commit). `changed` is what the frame just drawn changed in the framebuffer (buffer
    /// pixels, origin at the top left; nil: everything). Returns false, committing nothing,
    /// when every buffer is still the compositor's: call again once one is released (the
    /// window's queue dispatches it).
    func commit(on surface: OpaquePointer, size: Size, changed: [Rect]? = nil) throws -> Bool {
        ledger.drawn(Damage(holdsFrame ? changed : nil, in: size), size: size, buffers: buffers.lazy.filter { $0.size == size })
        holdsFrame = true
        guard let buffer = try freeBuffer(size: size) else { return false }
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), framebuffer)
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 4)
        glPixelStorei(GLenum(GL_PACK_ROW_LENGTH), size.width)
        glPixelStorei(SharedMemoryFrames.packReverseRowOrder, 1)
        let stride = Int(size.width) * 4
        let memory = buffer.memory
        wl_surface_attach(surface, buffer.proxy, 0, 0)
        ledger.fill(buffer, size: size, copy: { region in
            // Rows top first: the region's top row goes to its place in the buffer.
            let gl = region.flippedY(containerHeight: size.height)
            glReadPixels(gl.x, gl.y, gl.width, gl.height, RenderTarget.bgraFormat, GLenum(GL_UNSIGNED_BYTE),
                         memory + Int(region.y) * stride + Int(region.x) * 4)
        }, damage: { region in
            wl_surface_damage_buffer(surface, region.x, region.y, region.width, region.height)
        })
        glPixelStorei(SharedMemoryFrames.packReverseRowOrder, 0)
        glPixelStorei(GLenum(GL_PACK_ROW_LENGTH), 0)
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), 0)
        wl_surface_commit(surface)
        // Out now, as eglSwapBuffers sends it: not at the event loop's next flush.
        queue.connection.flush()
        buffer.isBusy = true
        return true
    }

    /// Lets `draw` write a frame of `size` straight into a free buffer (rows top first,
    /// 0xAARRGGBB) and commits it whole on `surface`, with no GL call; the framebuffer
    /// object is left as it was, so the next frame read from it is copied whole. Returns
    /// nil when `draw` wrote nothing (it returned false), false when every buffer is still
    /// the compositor's, true once committed.
    func commit(on surface: OpaquePointer, size: Size,
                drawnBy draw: (UnsafeMutableBufferPointer<UInt32>) -> Bool) throws -> Bool? {
        guard let buffer = try freeBuffer(size: size) else { return false }
        let count = Int(size.width) * Int(size.height)
        let pixels = UnsafeMutableBufferPointer(start: buffer.memory.bindMemory(to: UInt32.self, capacity: count), count: count)
        guard draw(pixels) else { return nil }
        // What the buffer holds now is not the framebuffer's: a later frame of this size
        // copies into it whole.
        buffer.stale = .everything
        ledger.reset()
        holdsFrame = false
        wl_surface_attach(surface, buffer.proxy, 0, 0)
        wl_surface_damage_buffer(surface, 0, 0, size.width, size.height)
        wl_surface_commit(surface)
        queue.connection.flush()
        buffer.isBusy = true
        return true
    }

    /// Destroys the buffers, and the framebuffer object where the context that made it is
    /// current (elsewhere its GL objects go with that context). Calling it again does nothing.
    func release() {
        guard !released else { return }
        released = true
        for buffer in buffers { buffer.destroy() }
        buffers.removeAll()
        if framebuffer != 0, let context, eglGetCurrentContext() == context {
            glDeleteFramebuffers(1, &framebuffer)
            glDeleteTextures(1, &texture)
        }
        framebuffer = 0
        texture = 0
        queue.releaseWrapper(shm)
    }

    deinit { release() }

    /// A buffer of `size` the compositor does not hold: a free one, else a new one while
    /// fewer than ``buffersPerSize`` exist. Buffers of another size are retired (destroyed
    /// now if free, when released if not).
    private func freeBuffer(size: Size) throws -> Buffer? {
        for buffer in buffers where buffer.size != size && !buffer.isRetired {
            buffer.isRetired = true
        }
        buffers.removeAll { buffer in
            guard buffer.isRetired, !buffer.isBusy else { return false }
            buffer.destroy()
            return true
        }
        // No array is made here: this runs every frame.
        var current = 0
        for buffer in buffers where !buffer.isRetired {
            if !buffer.isBusy { return buffer }
            current += 1
        }
        guard current < SharedMemoryFrames.buffersPerSize else { return nil }
        while buffers.count >= SharedMemoryFrames.buffersInAll, let oldest = buffers.firstIndex(where: \.isRetired) {
            buffers.remove(at: oldest).destroy()
        }
        let buffer = try makeBuffer(size: size)
        buffers.append(buffer)
        return buffer
    }

    /// A wl_shm buffer of `size`, ARGB8888 (BGRA bytes), in memory of its own (memfd).
    private func makeBuffer(size: Size) throws -> Buffer {
        let stride = Int(size.width) * 4
        let byteCount = stride * Int(size.height)
        let fd = cw_memfd_create("wayland-outputs-frame")
        guard fd >= 0 else { throw EGLError("memfd_create for a \(size) buffer (\(String(cString: strerror(errno))))", code: EGL_BAD_ALLOC) }
        defer { close(fd) }
        guard ftruncate(fd, off_t(byteCount)) == 0,
              let memory = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), memory != MAP_FAILED
        else { throw EGLError("\(byteCount >> 20) MiB for a \(size) buffer (\(String(cString: strerror(errno))))", code: EGL_BAD_ALLOC) }
        let pool = wl_shm_create_pool(shm, fd, Int32(byteCount))
        let proxy = wl_shm_pool_create_buffer(pool, 0, size.width, size.height, Int32(stride), WL_SHM_FORMAT_ARGB8888.rawValue)
        wl_shm_pool_destroy(pool)
        guard let proxy else {
            munmap(memory, byteCount)
            throw EGLError("wl_shm_pool.create_buffer (\(size))", code: EGL_BAD_ALLOC)
        }
        let buffer = Buffer(proxy: proxy, memory: memory, byteCount: byteCount, size: size, owner: self)
        wl_buffer_add_listener(proxy, SharedMemoryFrames.bufferListener.pointer, buffer.userData)
        return buffer
    }

    private func released(_ buffer: Buffer) {
        buffer.isBusy = false
        if buffer.isRetired {
            buffer.destroy()
            buffers.removeAll { $0 === buffer }
        }
    }

    /// GL_PACK_REVERSE_ROW_ORDER_ANGLE, which the header defines as a macro of the extension.
    private static let packReverseRowOrder = GLenum(0x93A4)

    static let bufferListener = ListenerTable(wl_buffer_listener()) {
        $0.release = { data, _ in
            let buffer = owner(data, as: Buffer.self)
            buffer.owner.released(buffer)
        }
    }
}
