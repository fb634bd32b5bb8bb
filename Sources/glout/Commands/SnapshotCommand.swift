import CGLES
import Foundation
import WaylandOutputs

/// `glout snapshot`: one frame per output, drawn offscreen exactly as the output's window
/// would draw it, written to DIR/NAME.png.
enum SnapshotCommand {
    static func run(_ options: SnapshotOptions, log: Log) throws {
        let folder = URL(fileURLWithPath: options.directory)
        try FileSystem.makeFolder(options.directory, for: "--out")
        let session = try Session(options: options.run, log: log)
        guard !session.chosenOutputs.isEmpty else { throw GloutError("there are no outputs to take a snapshot of") }
        for output in session.chosenOutputs {
            let target = RenderTarget.fullscreen(on: output, proposed: nil, renderSize: try session.renderSize(for: output),
                                                 scaleMode: options.run.scaleMode)
            let pixels = try session.graphics.withSharedContext {
                try render(output: output, target: target, session: session)
            }
            let path = folder.appendingPathComponent("\(output.name).png").path
            try Canvas(width: Int(target.pixelWidth), height: Int(target.pixelHeight), pixels: pixels).writePNG(to: path)
            print("\(path): \(target.pixelWidth)x\(target.pixelHeight), \(output.name)")
        }
    }

    /// Draws one frame into a framebuffer object of the target's size and reads it back,
    /// top row first.
    private static func render(output: Output, target: RenderTarget, session: Session) throws -> [UInt8] {
        var framebuffer: GLuint = 0, renderbuffer: GLuint = 0
        glGenFramebuffers(1, &framebuffer)
        glGenRenderbuffers(1, &renderbuffer)
        defer {
            glDeleteRenderbuffers(1, &renderbuffer)
            glDeleteFramebuffers(1, &framebuffer)
        }
        glBindRenderbuffer(GLenum(GL_RENDERBUFFER), renderbuffer)
        glRenderbufferStorage(GLenum(GL_RENDERBUFFER), GLenum(GL_RGBA8), target.pixelWidth, target.pixelHeight)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        glFramebufferRenderbuffer(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_RENDERBUFFER), renderbuffer)
        guard glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER)) == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
            throw GloutError("cannot make a \(target.pixelWidth)x\(target.pixelHeight) framebuffer for \(output.name)")
        }
        // The first frame a window draws: frame 0, stamped at scene time 0 (or --frozen).
        let frame = DisplayLinkFrame(index: 0, timestamp: session.scene.snapshot.start,
                                     targetTimestamp: session.scene.snapshot.start, duration: 16_666_667)
        let renderer = try session.makeRenderer(for: output)(target)
        if let scene = renderer as? SceneRenderer { scene.outputFramebuffer = framebuffer }
        renderer.prepare(frame, in: target)
        try renderer.render(frame, in: target)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        let width = Int(target.pixelWidth), height = Int(target.pixelHeight)
        var bottomUp = [UInt8](repeating: 0, count: width * height * 4)
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
        glReadPixels(0, 0, target.pixelWidth, target.pixelHeight, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), &bottomUp)
        var topDown = [UInt8](repeating: 0, count: width * height * 4)
        let row = width * 4
        for y in 0..<height {
            topDown.replaceSubrange(y * row..<(y + 1) * row, with: bottomUp[(height - 1 - y) * row..<(height - y) * row])
        }
        // The window's buffer is opaque (XRGB): alpha is meaningless, make it 255.
        for i in stride(from: 3, to: topDown.count, by: 4) { topDown[i] = 255 }
        return topDown
    }
}
