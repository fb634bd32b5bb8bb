import CGLES
import Foundation
import WaylandOutputs

/// `glout snapshot`: one frame per output, drawn offscreen exactly as the output's window
/// would draw it, written to DIR/NAME.png; or with --canvas the whole span canvas as one
/// picture.
enum SnapshotCommand {
    static func run(_ options: SnapshotOptions, log: Log) throws {
        if options.canvas {
            // Created first, so a path that cannot be written fails before any drawing.
            let file = try ReportFile(path: options.out, option: "--out")
            let stage = try Stage(options: options.run, command: "snapshot", log: log, input: false)
            try drawCanvas(options, stage: stage, file: file.path)
            return
        }
        let folder = URL(fileURLWithPath: options.out)
        try FileSystem.makeFolder(options.out, for: "--out")
        let stage = try Stage(options: options.run, command: "snapshot", log: log, input: false)
        guard !stage.display.outputs.isEmpty else { throw GloutError("there are no outputs to take a snapshot of") }
        for output in stage.display.outputs {
            // As the output's window would draw it: within what the driver draws.
            let target = RenderTarget.fullscreen(on: output, proposed: nil, renderSize: try stage.renderSize(for: output),
                                                 scaleMode: options.run.scaleMode)
                .fitted(maximumSide: stage.graphics.maximumBufferSide, canScale: true).target
            let pixels = try stage.graphics.withSharedContext {
                try render(output: output, target: target, stage: stage)
            }
            let path = folder.appendingPathComponent(FileSystem.fileName(forOutput: output.name, id: output.id) + ".png").path
            try Bitmap(width: Int(target.pixelSize.width), height: Int(target.pixelSize.height), pixels: pixels).writePNG(to: path)
            print("\(Log.printable(path)): \(target.pixelSize), \(output.printableName)")
        }
    }

    /// Draws one frame into a framebuffer object of the target's size and reads it back,
    /// top row first.
    private static func render(output: Output, target: RenderTarget, stage: Stage) throws -> [UInt8] {
        // Drawn into a framebuffer that stores its colour as the window's would, so that
        // every blend and copy rounds as there.
        let bgra = stage.options.framePath.goesThroughSharedMemory(on: stage.graphics)
        return try withFramebuffer(size: target.pixelSize, what: output.name, bgra: bgra) { framebuffer, storesBGRA in
            // The first frame a window draws: frame 0, stamped at scene time 0 (or --frozen).
            let start = MonotonicInstant(nanoseconds: stage.scene.snapshot.start)
            let frame = DisplayLinkFrame(index: 0, timestamp: start, targetTimestamp: start, duration: OutputMode.assumedRefreshPeriod)
            var target = target
            target.framebuffer = framebuffer
            target.storesBGRA = storesBGRA
            let renderer = try stage.makeRenderer(for: output)(target)
            if let scene = renderer as? SceneRenderer { scene.drawsFirstFrameFast = false }
            if let show = renderer as? ShowRenderer { show.waitsForVideoFrames = true }
            renderer.prepare(frame, in: target)
            try renderer.render(frame, in: target)
        }
    }

    /// Where each part of the canvas is, in canvas pixels at `density`, and the canvas's size.
    static func canvasPixels(_ canvas: SpanCanvas, density: Double) -> (size: Size, parts: [Rect]) {
        let d = SpanView.quantize(density)
        var size = canvas.pixelSize(density: d)
        let parts = canvas.parts.map { part -> Rect in
            let origin = SpanCanvas.pixelOrigin(of: part.frame, density: (d, d))
            let rect = Rect(x: origin.x, y: origin.y, width: Int32((Double(part.frame.width) * d).rounded()),
                            height: Int32((Double(part.frame.height) * d).rounded()))
            // Rounding may put a part's last pixel one past the rounded canvas.
            size = Size(width: max(size.width, rect.maxX), height: max(size.height, rect.maxY))
            return rect
        }
        return (size, parts)
    }

    /// --canvas: the backdrop of the whole canvas, then every part drawn as its output
    /// draws it (same shader, same canvas pixels, its row of cells), the canvas no screen
    /// shows dimmed.
    private static func drawCanvas(_ options: SnapshotOptions, stage: Stage, file: String) throws {
        let state = stage.scene.snapshot
        let canvas = state.span
        guard !canvas.parts.isEmpty else {
            throw GloutError("the span has no outputs to draw" + (options.run.showsControl
                ? " (the primary shows the control view; --control none puts it in the span)" : ""))
        }
        let local = Dictionary(stage.display.outputs.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let scales = canvas.parts.filter { $0.machine == state.machine }.compactMap { local[$0.name].map { Double($0.scale) } }
        let density = SpanView.quantize(options.canvasScale ?? scales.max() ?? 1)
        let (size, rects) = canvasPixels(canvas, density: density)
        let time = state.spanTime(at: MonotonicInstant(nanoseconds: state.start))
        let pixels = try stage.graphics.withSharedContext {
            var limit: [GLint] = [0, 0]
            glGetIntegerv(GLenum(GL_MAX_VIEWPORT_DIMS), &limit)
            var renderbuffer: GLint = 0
            glGetIntegerv(GLenum(GL_MAX_RENDERBUFFER_SIZE), &renderbuffer)
            let most = min(Int32(renderbuffer), limit[0], limit[1])
            guard size.width <= most, size.height <= most, Int64(size.width) * Int64(size.height) <= 1 << 28 else {
                throw GloutError("the canvas is \(size.width)x\(size.height) pixels at \(density) pixels per point; "
                                 + "this GL draws at most \(most)x\(most) (and glout 268 megapixels): pass a smaller --canvas-scale")
            }
            return try withFramebuffer(size: size, what: "the canvas") { _, _ in
                let block = FrameBlock()
                glUseProgram(try stage.programs.span)
                let whole = Rect(size: size)
                draw(SpanView(part: Rect(size: canvas.size), canvasSize: canvas.size, pictureSize: size, density: density,
                              cells: false), at: whole, in: size, block: block, time: time)
                for (part, rect) in zip(canvas.parts, rects) {
                    draw(SpanView(part: part.frame, canvasSize: canvas.size, pictureSize: rect.size, density: density),
                         at: rect, in: size, block: block, time: time)
                }
            }
        }
        var picture = Bitmap(width: Int(size.width), height: Int(size.height), pixels: pixels)
        picture.dim(outside: rects)
        try picture.writePNG(to: file)
        print("\(file): \(size.width)x\(size.height) pixels, canvas \(canvas.size.width)x\(canvas.size.height) points "
              + "at \(density) pixels per point")
        for (part, rect) in zip(canvas.parts, rects) { print("  \(part.machine) \(part.name) \(rect)") }
    }

    /// One span picture into `rect` (top left origin) of a framebuffer of `size`.
    private static func draw(_ view: SpanView, at rect: Rect, in size: Size, block: FrameBlock, time: Double) {
        let gl = rect.flippedY(containerHeight: size.height)
        glViewport(gl.x, gl.y, gl.width, gl.height)
        block.set(.canvas, Double(gl.x), Double(gl.y), Double(gl.width), Double(gl.height))
        view.write(to: block, time: time)
        block.upload()
        glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
    }

    /// Makes a framebuffer object of `size` in the current context, B, G, R, A where `bgra`
    /// asks and the driver can, lets `body` draw into it (told whether it stores BGRA), and
    /// reads it back: RGBA, top row first, opaque.
    private static func withFramebuffer(size: Size, what: String, bgra: Bool = false,
                                        _ body: (GLuint, Bool) throws -> Void) throws -> [UInt8] {
        var framebuffer: GLuint = 0, renderbuffer: GLuint = 0, texture: GLuint = 0
        glGenFramebuffers(1, &framebuffer)
        defer {
            if renderbuffer != 0 { glDeleteRenderbuffers(1, &renderbuffer) }
            if texture != 0 { glDeleteTextures(1, &texture) }
            glDeleteFramebuffers(1, &framebuffer)
        }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        var storesBGRA = false
        if bgra {
            glGenTextures(1, &texture)
            glBindTexture(GLenum(GL_TEXTURE_2D), texture)
            glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GLint(RenderTarget.bgraFormat), size.width, size.height, 0, RenderTarget.bgraFormat,
                         GLenum(GL_UNSIGNED_BYTE), nil)
            glFramebufferTexture2D(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), texture, 0)
            storesBGRA = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER)) == GLenum(GL_FRAMEBUFFER_COMPLETE)
        }
        if !storesBGRA {
            glGenRenderbuffers(1, &renderbuffer)
            glBindRenderbuffer(GLenum(GL_RENDERBUFFER), renderbuffer)
            glRenderbufferStorage(GLenum(GL_RENDERBUFFER), GLenum(GL_RGBA8), size.width, size.height)
            glFramebufferRenderbuffer(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_RENDERBUFFER), renderbuffer)
        }
        guard glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER)) == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
            throw GloutError("cannot make a \(size.width)x\(size.height) framebuffer for \(what)")
        }
        try body(framebuffer, storesBGRA)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        let width = Int(size.width), height = Int(size.height)
        var bottomUp = [UInt8](repeating: 0, count: width * height * 4)
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
        glReadPixels(0, 0, size.width, size.height, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), &bottomUp)
        // The window's buffer is opaque (XRGB): alpha is meaningless, made 255.
        var picture = Bitmap(width: width, height: height, pixels: bottomUp)
        picture.flipVertically()
        return picture.pixels
    }
}
