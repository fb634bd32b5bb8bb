import CGLES

/// A GLES 3 context in the share group of a ``Graphics``, for one thread at a time (an
/// EGLContext). ``OutputWindow`` makes one per render thread; a loop of your own makes
/// one with ``Graphics/makeContext()``.
///
/// When it is released it goes back to its `Graphics` for the next window instead of
/// being destroyed (see ``Graphics/makeContext()``): release it on the thread that last
/// used it, or once that thread has made it not current.
// @unchecked: an EGLContext is a raw pointer; it is made current on one thread at a time,
// as EGL requires, and handed between threads only through Graphics' lock.
package final class RenderContext: @unchecked Sendable {
    let context: EGLContext
    private let graphics: Graphics

    init(_ context: EGLContext, graphics: Graphics) {
        self.context = context
        self.graphics = graphics
    }

    deinit { graphics.returnContext(context) }

    /// Makes this context current on the calling thread with no surface
    /// (EGL_KHR_surfaceless_context), as deleting GL objects needs it.
    package func makeCurrentWithoutSurface() throws {
        guard graphics.serialized({ eglMakeCurrent(graphics.display, nil, nil, context) }) == EGL_TRUE else {
            throw EGLError("eglMakeCurrent (no surface)")
        }
    }
}
