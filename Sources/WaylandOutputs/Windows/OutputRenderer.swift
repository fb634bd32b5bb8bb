/// What a window draws with: the application's code for one output.
///
/// A window creates its renderer on its own render thread, with its GLES context
/// current, and calls it there only; the renderer is released there too, with the
/// context still current, so it can delete its GL objects in deinit.
public protocol OutputRenderer: AnyObject {
    /// Work for the frame that needs no GL call (simulation, layout, waiting for data),
    /// called just before ``render(_:in:)``. Where the driver needs windows to make their
    /// GL calls one at a time (Mesa before 23.1.6), this part still runs alongside theirs.
    func prepare(_ frame: DisplayLinkFrame, in target: RenderTarget)

    /// Draws one frame into the target's framebuffer (``RenderTarget/framebuffer``, bound
    /// when this is called), whose size is the target's pixel size. The window commits the
    /// frame when this returns.
    func render(_ frame: DisplayLinkFrame, in target: RenderTarget) throws

    /// Whether the next frame would differ from the one just drawn, asked after each
    /// frame. When it would not (a still picture), the window stops asking for frame
    /// callbacks and commits nothing, so an idle output costs no CPU, until the
    /// application asks for a frame, a new size or a new surface. Default: true.
    var isAnimating: Bool { get }

    /// The regions of the target's framebuffer the frame just drawn changed, in buffer
    /// pixels with the origin at the top left, asked after each ``render(_:in:)``; nil:
    /// every pixel may have changed (the default). Where the target holds the previous
    /// frame (``RenderTarget/holdsPreviousFrame``), a renderer that redrew only some
    /// regions names them: the window then copies and sends only those, and the
    /// compositor recomposes only those (wl_surface.damage_buffer). Naming too little
    /// leaves old pixels on screen; naming too much only costs time.
    func changedRegions(in target: RenderTarget) -> [Rect]?

    /// The draft first frame drawn without GL, where the window shows one through wl_shm
    /// buffers: writes the
    /// target's picture into `pixels` (the target's pixel size, rows top first, each pixel
    /// 0xAARRGGBB with alpha 0xFF) and returns true, or returns false, writing nothing, to
    /// draw the draft with ``render(_:in:)`` as any frame (the default). No GL call may be
    /// made here, and no context need be current. On a driver that rasterizes on the CPU,
    /// the first draw with any program waits for the program's code to be compiled (about
    /// 100 ms with an empty shader cache): a picture the CPU writes needs none.
    func drawDraft(_ frame: DisplayLinkFrame, into pixels: UnsafeMutableBufferPointer<UInt32>, in target: RenderTarget) -> Bool
}

extension OutputRenderer {
    public func prepare(_ frame: DisplayLinkFrame, in target: RenderTarget) {}
    public var isAnimating: Bool { true }
    public func changedRegions(in target: RenderTarget) -> [Rect]? { nil }
    public func drawDraft(_ frame: DisplayLinkFrame, into pixels: UnsafeMutableBufferPointer<UInt32>,
                          in target: RenderTarget) -> Bool { false }
}

/// The surface a renderer draws into.
public struct RenderTarget: Sendable, Equatable {
    /// Whether ``framebuffer`` still holds the frame drawn into it last (the window's own
    /// framebuffer object keeps its pixels until its size changes; an EGL surface's back
    /// buffer does not): a renderer may then redraw only what changed, and say what in
    /// ``OutputRenderer/changedRegions(in:)``. Set by the window for each frame; not part
    /// of the target's equality.
    public var holdsPreviousFrame = false
    /// Whether ``framebuffer`` stores its colour as B, G, R, A (the window's framebuffer
    /// object where frames go through wl_shm buffers, which hold them so): a renderer's
    /// own layers in the same order (GL_BGRA_EXT, EXT_texture_format_BGRA8888) are copied
    /// into it as plain memory on a CPU rasterizer, where RGBA ones are converted pixel by
    /// pixel. Set by the window for each frame; not part of the target's equality.
    package var storesBGRA = false
    /// GL_BGRA_EXT (EXT_texture_format_BGRA8888), the internal format and the format of a
    /// texture stored B, G, R, A (a macro of the extension's header, which Swift does not
    /// import).
    package static let bgraFormat: UInt32 = 0x80E1

    public static func == (a: RenderTarget, b: RenderTarget) -> Bool {
        a.output == b.output && a.scaling == b.scaling && a.framebuffer == b.framebuffer
    }

    /// The output the surface is on, as last described.
    public var output: Output
    /// The buffer and how the compositor scales it onto the output.
    package var scaling: SurfaceScaling
    /// The framebuffer to draw into: 0 (the window's EGL surface), or the window's own
    /// framebuffer object where frames go through wl_shm buffers
    /// (where the GPU is the CPU). It is bound when the renderer is called;
    /// a renderer that draws into framebuffers of its own binds this one back.
    public var framebuffer: UInt32 = 0

    /// Buffer size in pixels.
    public var pixelSize: Size { scaling.bufferSize }
    /// wl_surface.set_buffer_scale for this buffer.
    public var bufferScale: Int32 { scaling.bufferScale }
    /// Where the picture goes in the buffer, in pixels; the rest (bars of a fitted render
    /// size) is black.
    public var picture: Rect { scaling.picture }
    /// Buffer pixels per logical point: the scale for line widths and size classes.
    public var pixelsPerPoint: Double {
        guard let destination = scaling.destination, destination.width > 0 else { return Double(scaling.bufferScale) }
        return Double(scaling.bufferSize.width) / Double(destination.width)
    }

    package init(output: Output, scaling: SurfaceScaling) {
        self.output = output
        self.scaling = scaling
    }

    /// A buffer of `pixelSize` at buffer scale `bufferScale`, with no viewport.
    package init(output: Output, pixelSize: Size, bufferScale: Int32) {
        self.init(output: output, scaling: SurfaceScaling(bufferSize: pixelSize, bufferScale: bufferScale,
                                                          picture: Rect(size: pixelSize)))
    }

    /// This target, or where its buffer is more than `maximumSide` pixels a side or
    /// ``BufferLimits/maximumPixels`` in all, the same picture drawn at the largest size that
    /// fits: scaled to the output by the compositor where it can (`canScale`, wp_viewporter),
    /// else shown smaller. The second value is the size it was fitted to, if it was.
    package func fitted(maximumSide: Int32, canScale: Bool) -> (target: RenderTarget, fittedTo: Size?) {
        guard let fitted = BufferLimits.fitted(pixelSize, maximumSide: maximumSide) else { return (self, nil) }
        let points = scaling.destination ?? Size(width: max(1, scaling.bufferSize.width / max(1, scaling.bufferScale)),
                                                 height: max(1, scaling.bufferSize.height / max(1, scaling.bufferScale)))
        var target = self
        target.scaling = canScale
            ? .plan(logicalSize: points, scale: 1, renderSize: fitted, mode: .stretch)
            : SurfaceScaling(bufferSize: fitted, bufferScale: 1, picture: Rect(size: fitted))
        return (target, fitted)
    }

    /// The buffer of a draft first frame for a buffer of `whole` pixels: half as wide
    /// and half as high, at least one pixel each way
    /// (``FullscreenSurface/Options/draftFirstFrame``).
    package static func draftSize(of whole: Size) -> Size {
        Size(width: max(1, whole.width / 2 &+ whole.width % 2), height: max(1, whole.height / 2 &+ whole.height % 2))
    }

    /// The buffer for a fullscreen surface on `output`, given the logical size the last
    /// configure proposed (empty or nil: the compositor leaves it to the client, as sway's
    /// first configure does; then the output's logical size is used), the integer buffer
    /// scale the compositor prefers for the surface (wl_surface.preferred_buffer_scale; nil:
    /// the output's scale), the fractional scale it prefers (which wins where given), and
    /// the render size the application asked for.
    package static func fullscreen(on output: Output, proposed: Size?, bufferScale: Int32? = nil,
                                  fractionalScale: UInt32? = nil, renderSize: Size? = nil,
                                  scaleMode: ScaleMode = .fit) -> RenderTarget {
        let scale = max(1, output.scale)
        var size = proposed ?? .zero
        if size.isEmpty { size = output.logicalFrame.size }
        if size.isEmpty, let mode = output.currentMode {
            let pixels = output.transform.swapsAxes ? mode.size.transposed : mode.size
            size = Size(width: pixels.width / scale, height: pixels.height / scale)
        }
        return RenderTarget(output: output, scaling: .plan(
            logicalSize: Size(width: max(1, size.width), height: max(1, size.height)), scale: max(1, bufferScale ?? scale),
            fractionalScale: fractionalScale, renderSize: renderSize, mode: scaleMode))
    }
}
