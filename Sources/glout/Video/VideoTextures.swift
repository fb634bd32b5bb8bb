import CGLES
import WaylandOutputs

/// The textures a video's frames are drawn from, in the share group every window's
/// context joins (``Graphics``): a frame is uploaded once, by the first window that
/// shows it, and every other window that shows the file (every output of a span among
/// them) samples the same texture.
///
/// A frame goes into a slot no window shows, else into a new slot (``capacity`` at
/// most), else into the slot used longest ago; never into one a window is drawing from
/// (``choose(slots:capacity:)``). The rules GL sets for objects shared between contexts
/// are kept:
/// - an upload is followed by a fence, flushed, which a window waits for (glWaitSync)
///   before it samples the texture;
/// - each window's draws from a slot are followed by a fence of its own, flushed; a slot
///   is written again only once those fences signalled (glClientWaitSync), so no context
///   writes a texture another is still reading;
/// - a window binds the texture again (or attaches it again) for every draw, which makes
///   contents another context wrote visible in its own.
///
/// Every method makes GL calls in the calling thread's current context, which must be in
/// the share group, under one lock: the windows that draw the video take turns here,
/// for the length of an upload at most.
// @unchecked: all state is under `state`'s lock.
final class VideoTextures: @unchecked Sendable {
    /// One frame's textures: the Y and U/V planes (``VideoFrame/Form/planes``) or one
    /// BGRA texture.
    struct Binding: Equatable {
        let slot: Int
        let textures: [GLuint]
        /// The texture name a context's framebuffer attaches for a blit from BGRA.
        var bgra: GLuint? { textures.count == 1 ? textures[0] : nil }
    }

    private struct Slot {
        var textures: [GLuint] = []
        var form = VideoFrame.Form.planes
        var size = (width: 0, height: 0)
        /// The frame it holds, nil while empty.
        var number: Int?
        var lastUse: UInt64 = 0
        /// Windows between ``bind(_:reader:)`` and ``finishedReading(_:reader:)`` on it:
        /// their draws have no fence yet, so it is not written.
        var binds = 0
        var uploaded: GLsync?
        /// The fence after each window's last draw from it.
        var reads: [ObjectIdentifier: GLsync] = [:]
    }

    private struct State {
        var slots: [Slot] = []
        /// The slot each window's last frame came from.
        var showing: [ObjectIdentifier: Int] = [:]
        var uses: UInt64 = 0
        var uploads = 0
        var timedOut = false
    }

    /// Slots at most (but for one made while every slot was being drawn from): enough for
    /// each window's frame and the next of a few windows that are a frame apart (60 and
    /// 50 Hz outputs at a frame's edge), so that a new frame rarely waits for a read of
    /// the slot it goes into.
    let capacity: Int
    private let state = Locked(State())
    private let log: Log
    private let name: String

    init(capacity: Int = 4, log: Log, name: String) {
        self.capacity = max(2, capacity)
        self.log = log
        self.name = name
    }

    /// Frames uploaded so far, in all windows together (for the reports and the tests).
    var uploads: Int { state.withLock { $0.uploads } }

    /// The textures that hold `picture` for `reader` (a window's renderer) to draw from
    /// in the current context: where a slot holds it already, that slot's, else uploaded
    /// into one first. Call ``finishedReading(_:reader:)`` after the draws.
    func bind(_ picture: VideoFrame, reader: ObjectIdentifier) -> Binding {
        state.withLock { state in
            state.uses += 1
            let index = state.slots.firstIndex { $0.number == picture.number && $0.form == picture.form
                && $0.size == (picture.width, picture.height) } ?? place(picture, reader: reader, state: &state)
            state.slots[index].lastUse = state.uses
            state.slots[index].binds += 1
            state.showing[reader] = index
            // The upload's commands come before this context's draws (another context's
            // upload; in this one they are in order anyway).
            if let uploaded = state.slots[index].uploaded { glWaitSync(uploaded, 0, GL_TIMEOUT_IGNORED) }
            return Binding(slot: index, textures: state.slots[index].textures)
        }
    }

    /// `reader` drew from `binding` in the current context: a fence after those draws,
    /// flushed, guards the slot until they are done.
    func finishedReading(_ binding: Binding, reader: ObjectIdentifier) {
        state.withLock { state in
            guard binding.slot < state.slots.count, state.slots[binding.slot].textures == binding.textures else { return }
            state.slots[binding.slot].binds -= 1
            if let old = state.slots[binding.slot].reads[reader] { glDeleteSync(old) }
            state.slots[binding.slot].reads[reader] = glFenceSync(GLenum(GL_SYNC_GPU_COMMANDS_COMPLETE), 0)
            glFlush()
        }
    }

    /// `reader` shows no more (its window closed): no slot is kept for it. Its fences stay
    /// with their slots until those are written again.
    func forget(_ reader: ObjectIdentifier) {
        state.withLock { _ = $0.showing.removeValue(forKey: reader) }
    }

    /// Deletes every texture and fence, with a context of the share group current; no
    /// window may draw from them any more.
    func delete() {
        state.withLock { state in
            for slot in state.slots {
                if !slot.textures.isEmpty { glDeleteTextures(GLsizei(slot.textures.count), slot.textures) }
                if let uploaded = slot.uploaded { glDeleteSync(uploaded) }
                for fence in slot.reads.values { glDeleteSync(fence) }
            }
            state.slots.removeAll()
            state.showing.removeAll()
        }
    }

    /// Which slot a frame goes into (``VideoTextures``), by what each slot holds: `shown`,
    /// whether a window other than the asking one shows it now, `drawing`, whether a window
    /// draws from it this moment, and when it was last used. A slot no other window shows,
    /// used longest ago; else a new one while there are fewer than `capacity`; else the
    /// one used longest ago. Never one a window draws from: then a new slot, past the
    /// capacity if need be. Nil: a new slot.
    static func choose(slots: [(shown: Bool, drawing: Bool, lastUse: UInt64)], capacity: Int) -> Int? {
        let idle = slots.indices.filter { !slots[$0].drawing }
        let free = idle.filter { !slots[$0].shown }
        if let oldest = free.min(by: { slots[$0].lastUse < slots[$1].lastUse }) { return oldest }
        if slots.count < capacity { return nil }
        return idle.min { slots[$0].lastUse < slots[$1].lastUse }
    }

    /// Uploads `picture` into the slot ``choose(slots:capacity:)`` picks, once every read of
    /// that slot is done; its index.
    private func place(_ picture: VideoFrame, reader: ObjectIdentifier, state: inout State) -> Int {
        let others = state.showing.filter { $0.key != reader }.values
        let chosen = VideoTextures.choose(
            slots: state.slots.enumerated().map { (others.contains($0.offset), $0.element.binds > 0, $0.element.lastUse) },
            capacity: capacity)
        let index = chosen ?? state.slots.count
        if chosen == nil { state.slots.append(Slot()) }
        var slot = state.slots[index]
        for fence in slot.reads.values {
            // A read's fence was flushed as it was made: it signals once that context's
            // draws are done. A second is far beyond any frame; past it, write anyway.
            if glClientWaitSync(fence, 0, 1_000_000_000) == GLenum(GL_TIMEOUT_EXPIRED), !state.timedOut {
                state.timedOut = true
                log.warning("--content \(Log.printable(name)): a window still read a video texture after 1 s; "
                            + "it was written anyway")
            }
            glDeleteSync(fence)
        }
        slot.reads.removeAll()
        if let uploaded = slot.uploaded { glDeleteSync(uploaded) }
        upload(picture, into: &slot)
        slot.number = picture.number
        slot.uploaded = glFenceSync(GLenum(GL_SYNC_GPU_COMMANDS_COMPLETE), 0)
        glFlush()
        state.slots[index] = slot
        state.uploads += 1
        return index
    }

    /// The picture's planes (Y in one channel; U and V side by side in two) or its BGRA
    /// into the slot's textures, made or specified anew for another size or form.
    private func upload(_ picture: VideoFrame, into slot: inout Slot) {
        let planes: [(width: Int, height: Int, internal: GLint, format: GLenum, pixels: UnsafeRawPointer)]
        switch picture.form {
        case .planes:
            planes = [(picture.width, picture.height, GL_R8, GLenum(GL_RED), picture.luma),
                      (picture.chromaWidth, picture.chromaHeight, GL_RG8, GLenum(GL_RG), picture.chroma)]
        case .bgra:
            planes = [(picture.width, picture.height, GLint(RenderTarget.bgraFormat), RenderTarget.bgraFormat, picture.bgra)]
        }
        let fresh = slot.textures.count != planes.count || slot.form != picture.form
            || slot.size != (picture.width, picture.height)
        if slot.textures.count != planes.count {
            if !slot.textures.isEmpty { glDeleteTextures(GLsizei(slot.textures.count), slot.textures) }
            slot.textures = [GLuint](repeating: 0, count: planes.count)
            glGenTextures(GLsizei(planes.count), &slot.textures)
        }
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        glActiveTexture(GLenum(GL_TEXTURE0))
        for (texture, plane) in zip(slot.textures, planes) {
            glBindTexture(GLenum(GL_TEXTURE_2D), texture)
            let (w, h) = (GLsizei(plane.width), GLsizei(plane.height))
            if fresh {
                // Nearest: the conversion samples at the video's own size, so Y lands on
                // its texels' centres and U and V are each shared by 2x2 pixels; linear
                // filtering there cost llvmpipe more than the rest of the frame.
                Sampling.nearest.apply()
                glTexImage2D(GLenum(GL_TEXTURE_2D), 0, plane.internal, w, h, 0, plane.format, GLenum(GL_UNSIGNED_BYTE),
                             plane.pixels)
            } else {
                glTexSubImage2D(GLenum(GL_TEXTURE_2D), 0, 0, 0, w, h, plane.format, GLenum(GL_UNSIGNED_BYTE), plane.pixels)
            }
        }
        glBindTexture(GLenum(GL_TEXTURE_2D), 0)
        slot.form = picture.form
        slot.size = (picture.width, picture.height)
    }
}
