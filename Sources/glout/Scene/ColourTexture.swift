import CGLES
import WaylandOutputs

/// An 8-bit colour texture with a framebuffer around it, made on first use and
/// reallocated when its size or channel order changes, on the thread's current context.
/// Its channels are stored R, G, B, A, or B, G, R, A where the target it is copied into
/// stores them so (``RenderTarget/storesBGRA``): a copy between two of one order is a
/// plain memory copy on llvmpipe, one between orders converts every pixel.
struct ColourTexture {
    private(set) var framebuffer: GLuint = 0
    private(set) var texture: GLuint = 0
    private var size: (Int32, Int32) = (0, 0)
    private var bgra = false

    mutating func allocate(width: Int32, height: Int32, bgra: Bool) {
        if framebuffer == 0 {
            glGenFramebuffers(1, &framebuffer)
            glGenTextures(1, &texture)
        }
        guard size != (width, height) || self.bgra != bgra else { return }
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        Sampling.nearest.apply()
        let (stored, format) = bgra ? (GLint(RenderTarget.bgraFormat), RenderTarget.bgraFormat) : (GL_RGBA8, GLenum(GL_RGBA))
        glTexImage2D(GLenum(GL_TEXTURE_2D), 0, stored, width, height, 0, format, GLenum(GL_UNSIGNED_BYTE), nil)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        glFramebufferTexture2D(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), texture, 0)
        (size, self.bgra) = ((width, height), bgra)
    }

    mutating func delete() {
        guard framebuffer != 0 else { return }
        glDeleteTextures(1, &texture)
        glDeleteFramebuffers(1, &framebuffer)
        framebuffer = 0
        size = (0, 0)
    }
}
