import CGLES

/// An RGBA8 texture with a framebuffer around it, made on first use and reallocated
/// when the size changes, on the thread's current context.
struct ColourLayer {
    private(set) var framebuffer: GLuint = 0
    private(set) var texture: GLuint = 0
    private var size: (Int32, Int32) = (0, 0)

    mutating func allocate(width: Int32, height: Int32) {
        if framebuffer == 0 {
            glGenFramebuffers(1, &framebuffer)
            glGenTextures(1, &texture)
        }
        guard size != (width, height) else { return }
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, width, height, 0, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), nil)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        glFramebufferTexture2D(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), texture, 0)
        size = (width, height)
    }

    mutating func delete() {
        guard framebuffer != 0 else { return }
        glDeleteTextures(1, &texture)
        glDeleteFramebuffers(1, &framebuffer)
        framebuffer = 0
        size = (0, 0)
    }
}
