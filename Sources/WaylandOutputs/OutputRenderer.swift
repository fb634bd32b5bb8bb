/// What an ``OutputWindow`` draws with: the application's code for one output.
///
/// A window creates its renderer on its own render thread, with its GLES context
/// current, and calls it there only; the renderer is released there too, with the
/// context still current, so it can delete its GL objects in deinit.
public protocol OutputRenderer: AnyObject {
    /// Draws one frame into the default framebuffer, whose size is the target's pixel
    /// size. The window commits the frame (eglSwapBuffers) when this returns.
    func render(_ frame: DisplayLinkFrame, in target: RenderTarget) throws
}

/// The surface a renderer draws into.
public struct RenderTarget: Sendable, Equatable {
    /// The output the surface is on, as last described.
    public var output: Output
    /// Buffer size in pixels: the logical size times the buffer scale.
    public var pixelWidth: Int32
    public var pixelHeight: Int32
    /// wl_surface.set_buffer_scale for this buffer.
    public var bufferScale: Int32

    public init(output: Output, pixelWidth: Int32, pixelHeight: Int32, bufferScale: Int32) {
        self.output = output
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.bufferScale = bufferScale
    }

    /// The buffer for a fullscreen surface on `output`, given the logical size the last
    /// configure proposed (0 or nil: the compositor leaves it to the client, as sway's
    /// first configure does; then the output's logical size is used).
    public static func fullscreen(on output: Output, proposed: (width: Int32, height: Int32)?) -> RenderTarget {
        let scale = max(1, output.scale)
        var width = proposed.map(\.width) ?? 0
        var height = proposed.map(\.height) ?? 0
        if width <= 0 || height <= 0 {
            width = output.logicalWidth
            height = output.logicalHeight
        }
        if width <= 0 || height <= 0, let mode = output.currentMode {
            (width, height) = output.transform.swapsAxes ? (mode.height, mode.width) : (mode.width, mode.height)
            width /= scale
            height /= scale
        }
        return RenderTarget(output: output, pixelWidth: max(1, width * scale),
                            pixelHeight: max(1, height * scale), bufferScale: scale)
    }
}
