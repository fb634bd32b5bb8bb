/// What an ``OutputWindow`` draws with: the application's code for one output.
///
/// A window creates its renderer on its own render thread, with its GLES context
/// current, and calls it there only; the renderer is released there too, with the
/// context still current, so it can delete its GL objects in deinit.
public protocol OutputRenderer: AnyObject {
    /// Work for the frame that needs no GL call (simulation, layout, waiting for data),
    /// called just before ``render(_:in:)``. Where ``Graphics/serializesGL`` is set,
    /// windows make their GL calls one at a time; this part still runs alongside theirs.
    func prepare(_ frame: DisplayLinkFrame, in target: RenderTarget)

    /// Draws one frame into the default framebuffer, whose size is the target's pixel
    /// size. The window commits the frame (eglSwapBuffers) when this returns.
    func render(_ frame: DisplayLinkFrame, in target: RenderTarget) throws
}

extension OutputRenderer {
    public func prepare(_ frame: DisplayLinkFrame, in target: RenderTarget) {}
}

/// The surface a renderer draws into.
public struct RenderTarget: Sendable, Equatable {
    /// The output the surface is on, as last described.
    public var output: Output
    /// The buffer and how the compositor scales it onto the output.
    public var scaling: SurfaceScaling

    /// Buffer size in pixels.
    public var pixelWidth: Int32 { scaling.bufferWidth }
    public var pixelHeight: Int32 { scaling.bufferHeight }
    /// wl_surface.set_buffer_scale for this buffer.
    public var bufferScale: Int32 { scaling.bufferScale }
    /// Where the picture goes in the buffer; the rest (bars of a fitted render size) is
    /// black.
    public var picture: PixelRect { scaling.picture }
    /// Buffer pixels per logical point: the scale for line widths and size classes.
    public var pixelsPerPoint: Double {
        guard let destination = scaling.destination, destination.width > 0 else { return Double(scaling.bufferScale) }
        return Double(scaling.bufferWidth) / Double(destination.width)
    }

    public init(output: Output, scaling: SurfaceScaling) {
        self.output = output
        self.scaling = scaling
    }

    /// A buffer of the given size at buffer scale `bufferScale`, with no viewport.
    public init(output: Output, pixelWidth: Int32, pixelHeight: Int32, bufferScale: Int32) {
        self.init(output: output, scaling: SurfaceScaling(
            bufferWidth: pixelWidth, bufferHeight: pixelHeight, bufferScale: bufferScale,
            picture: PixelRect(x: 0, y: 0, width: pixelWidth, height: pixelHeight), source: nil, destination: nil))
    }

    /// The buffer for a fullscreen surface on `output`, given the logical size the last
    /// configure proposed (0 or nil: the compositor leaves it to the client, as sway's
    /// first configure does; then the output's logical size is used), the fractional
    /// scale the compositor prefers, and the render size the application asked for.
    public static func fullscreen(on output: Output, proposed: (width: Int32, height: Int32)?,
                                  fractionalScale: UInt32? = nil, renderSize: (width: Int32, height: Int32)? = nil,
                                  scaleMode: ScaleMode = .fit) -> RenderTarget {
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
        return RenderTarget(output: output, scaling: .plan(
            logicalWidth: max(1, width), logicalHeight: max(1, height), scale: scale,
            fractionalScale: fractionalScale, renderSize: renderSize, mode: scaleMode))
    }
}
