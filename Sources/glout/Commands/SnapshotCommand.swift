import CGLES
import Foundation
import WaylandOutputs

/// `glout snapshot`: one frame per output, drawn offscreen exactly as the output's window
/// would draw it, written to DIR/NAME.png.
enum SnapshotCommand {
    static func run(_ options: SnapshotOptions, log: Log) throws {
        let folder = URL(fileURLWithPath: options.directory)
        try FileSystem.makeFolder(options.directory, for: "--out")
        let stage = try Stage(options: options.run, log: log, input: false)
        guard !stage.display.outputs.isEmpty else { throw GloutError("there are no outputs to take a snapshot of") }
        for output in stage.display.outputs {
            let target = RenderTarget.fullscreen(on: output, proposed: nil, renderSize: try stage.renderSize(for: output),
                                                 scaleMode: options.run.scaleMode)
            let pixels = try stage.graphics.withSharedContext {
                try render(output: output, target: target, stage: stage)
            }
            let path = folder.appendingPathComponent("\(output.name).png").path
            try Canvas(width: Int(target.pixelSize.width), height: Int(target.pixelSize.height), pixels: pixels).writePNG(to: path)
            print("\(path): \(target.pixelSize), \(output.name)")
        }
    }

    /// Draws one frame into a framebuffer object of the target's size and reads it back,
    /// top row first.
    private static func render(output: Output, target: RenderTarget, stage: Stage) throws -> [UInt8] {
        var framebuffer: GLuint = 0, renderbuffer: GLuint = 0
        glGenFramebuffers(1, &framebuffer)
        glGenRenderbuffers(1, &renderbuffer)
        defer {
            glDeleteRenderbuffers(1, &renderbuffer)
            glDeleteFramebuffers(1, &framebuffer)
        }
        glBindRenderbuffer(GLenum(GL_RENDERBUFFER), renderbuffer)
        glRenderbufferStorage(GLenum(GL_RENDERBUFFER), GLenum(GL_RGBA8), target.pixelSize.width, target.pixelSize.height)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        glFramebufferRenderbuffer(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_RENDERBUFFER), renderbuffer)
        guard glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER)) == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
            throw GloutError("cannot make a \(target.pixelSize.width)x\(target.pixelSize.height) framebuffer for \(output.name)")
        }
        // The first frame a window draws: frame 0, stamped at scene time 0 (or --frozen).
        let start = MonotonicInstant(nanoseconds: stage.scene.snapshot.start)
        let frame = DisplayLinkFrame(index: 0, timestamp: start, targetTimestamp: start, duration: .nanoseconds(16_666_667))
        let renderer = try stage.makeRenderer(for: output)(target)
        if let scene = renderer as? SceneRenderer { scene.outputFramebuffer = framebuffer }
        renderer.prepare(frame, in: target)
        try renderer.render(frame, in: target)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        let width = Int(target.pixelSize.width), height = Int(target.pixelSize.height)
        var bottomUp = [UInt8](repeating: 0, count: width * height * 4)
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
        glReadPixels(0, 0, target.pixelSize.width, target.pixelSize.height, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), &bottomUp)
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
