import CGLES

/// How glout's 2D textures are sampled, set in one place: linear where a picture is
/// scaled or moves by fractions of a pixel, nearest where its texels land on pixels
/// (exact, and on llvmpipe far cheaper), through its mip levels where a still may be drawn
/// smaller than it is (``MipChain``); always clamped at the edges, so that a picture
/// never takes a border from its opposite side.
enum Sampling {
    case linear, nearest, mipmapped

    /// Sets the texture bound to GL_TEXTURE_2D of the active unit to sample so.
    func apply() {
        let (minify, magnify) = switch self {
        case .linear: (GL_LINEAR, GL_LINEAR)
        case .nearest: (GL_NEAREST, GL_NEAREST)
        case .mipmapped: (GL_LINEAR_MIPMAP_LINEAR, GL_LINEAR)
        }
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), minify)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), magnify)
        for parameter in [GL_TEXTURE_WRAP_S, GL_TEXTURE_WRAP_T] {
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(parameter), GL_CLAMP_TO_EDGE)
        }
    }

    /// A new texture of the current context, bound to GL_TEXTURE_2D of the active unit
    /// and sampled so; its storage is the caller's to define.
    func newTexture() -> GLuint {
        var texture: GLuint = 0
        glGenTextures(1, &texture)
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        apply()
        return texture
    }
}
