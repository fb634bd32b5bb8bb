import CGLES
import Foundation
import Glibc
import WaylandOutputs

/// GLOUT_DUMP_FRAMES=DIR, for tests on compositors that offer no screenshots: every time
/// an output's still picture is drawn again, the window's pixels (what glout commits)
/// are written to DIR/NAME.png.
struct FrameDump {
    /// The folder the frames go to.
    let folder: String

    /// The dump GLOUT_DUMP_FRAMES asks for, if any.
    static let requested = ProcessInfo.processInfo.environment["GLOUT_DUMP_FRAMES"].map(FrameDump.init(folder:))

    /// Writes what `framebuffer` (the output's) holds now to the folder, as NAME.png.
    func write(_ framebuffer: GLuint, of target: RenderTarget) {
        var bitmap = FrameDump.read(framebuffer, of: target)
        bitmap.flipVertically()
        // Whole or not at all: a reader never sees half a file.
        let path = folder + "/" + FileSystem.fileName(forOutput: target.output.name, id: target.output.id) + ".png"
        if (try? bitmap.writePNG(to: path + ".part")) != nil { rename(path + ".part", path) }
    }

    /// What `framebuffer` (the output's) holds now, bottom row first (glReadPixels).
    static func read(_ framebuffer: GLuint, of target: RenderTarget) -> Bitmap {
        let size = target.pixelSize, width = Int(size.width), height = Int(size.height)
        var bottomUp = [UInt8](repeating: 0, count: width * height * 4)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
        bottomUp.withUnsafeMutableBytes { pixels in
            glReadPixels(0, 0, size.width, size.height, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), pixels.baseAddress)
        }
        return Bitmap(width: width, height: height, pixels: bottomUp)
    }
}
