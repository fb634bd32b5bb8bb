/// How a picture of one size is fitted onto an output of another.
public enum ScaleMode: String, Sendable, CaseIterable {
    /// The whole picture, aspect kept, black bars where the shapes differ.
    case fit
    /// The output covered, aspect kept, the picture's edges cropped.
    case fill
    /// The output covered, the picture distorted to its shape.
    case stretch
}

/// The buffer a fullscreen surface needs and what wp_viewporter must do with it, for an
/// output of a given logical size and scale, and a render size the application may
/// want instead of the output's own. Pure, so every case is unit-tested.
public struct SurfaceScaling: Sendable, Equatable {
    /// The buffer, in pixels.
    public var bufferWidth: Int32
    public var bufferHeight: Int32
    /// wl_surface.set_buffer_scale (1 whenever a viewport scales the buffer).
    public var bufferScale: Int32
    /// Where the picture goes in the buffer; outside it the buffer is black (fit).
    public var picture: PixelRect
    /// wp_viewport.set_source in buffer pixels (nil: the whole buffer, or no viewport).
    public var source: (x: Double, y: Double, width: Double, height: Double)?
    /// wp_viewport.set_destination in logical points (nil: no viewport needed).
    public var destination: (width: Int32, height: Int32)?

    /// Compared field by field, without building anything: the render loop compares
    /// plans on every pass.
    public static func == (a: SurfaceScaling, b: SurfaceScaling) -> Bool {
        guard a.bufferWidth == b.bufferWidth, a.bufferHeight == b.bufferHeight, a.bufferScale == b.bufferScale,
              a.picture == b.picture else { return false }
        switch (a.source, b.source) {
        case (nil, nil): break
        case let (x?, y?): guard x == y else { return false }
        default: return false
        }
        switch (a.destination, b.destination) {
        case (nil, nil): return true
        case let (x?, y?): return x == y
        default: return false
        }
    }

    /// Whether the compositor has to scale the buffer (a wp_viewport is needed).
    public var needsViewport: Bool { destination != nil }

    /// - Parameters:
    ///   - logicalWidth, logicalHeight: the surface's size in points (the configure, or
    ///     the output's logical size).
    ///   - scale: the integer output scale (wl_output.scale).
    ///   - fractionalScale: wp_fractional_scale_v1's preferred scale in 120ths, if any.
    ///   - renderSize: the pixels the application wants to draw, if not the output's.
    ///   - mode: how a render size of another shape fits the output.
    public static func plan(logicalWidth: Int32, logicalHeight: Int32, scale: Int32, fractionalScale: UInt32? = nil,
                            renderSize: (width: Int32, height: Int32)? = nil, mode: ScaleMode = .fit) -> SurfaceScaling {
        let lw = max(1, logicalWidth), lh = max(1, logicalHeight)
        let own = devicePixels(logicalWidth: lw, logicalHeight: lh, scale: scale, fractionalScale: fractionalScale)
        // No render size, or one that is the output's own pixels: nothing to scale.
        guard let render = renderSize, render.width > 0, render.height > 0,
              render.width != own.bufferWidth || render.height != own.bufferHeight else { return own }
        let (rw, rh) = (render.width, render.height)
        let whole = PixelRect(x: 0, y: 0, width: rw, height: rh)
        switch mode {
        case .stretch:
            return SurfaceScaling(bufferWidth: rw, bufferHeight: rh, bufferScale: 1, picture: whole,
                                  source: nil, destination: (lw, lh))
        case .fill:
            // The buffer is the centred window of the output's shape; the picture is drawn
            // at its full size around it, its edges falling outside. (A viewport source
            // with an offset would do the same, but wlroots 0.15's pixman renderer ignores
            // source offsets, showing the top of the picture instead of its centre.)
            let wideOutput = Int64(lw) * Int64(rh) >= Int64(lh) * Int64(rw)
            let bw = wideOutput ? rw : max(1, Int32((Double(rh) * Double(lw) / Double(lh)).rounded()))
            let bh = wideOutput ? max(1, Int32((Double(rw) * Double(lh) / Double(lw)).rounded())) : rh
            let picture = PixelRect(x: -(rw - bw) / 2, y: -(rh - bh) / 2, width: rw, height: rh)
            return SurfaceScaling(bufferWidth: bw, bufferHeight: bh, bufferScale: 1, picture: picture,
                                  source: nil, destination: (lw, lh))
        case .fit:
            // Widen (or heighten) the buffer to the output's shape with black bars, so one
            // uniform scale fills the output: the picture keeps its aspect and its pixels.
            // The exact shape is rarely a whole number of pixels: the buffer is rounded
            // up and the viewport's source picks the exact window out of it, so the bars
            // come out exactly as wide on the output as the shapes say.
            let wideOutput = Int64(lw) * Int64(rh) >= Int64(lh) * Int64(rw)
            let exactWidth = wideOutput ? Double(rh) * Double(lw) / Double(lh) : Double(rw)
            let exactHeight = wideOutput ? Double(rh) : Double(rw) * Double(lh) / Double(lw)
            let bw = max(rw, Int32(exactWidth.rounded(.up))), bh = max(rh, Int32(exactHeight.rounded(.up)))
            let picture = PixelRect(x: (bw - rw) / 2, y: (bh - rh) / 2, width: rw, height: rh)
            // Centre the exact window on the picture.
            let sx = Double(picture.x) + Double(rw) / 2 - exactWidth / 2
            let sy = Double(picture.y) + Double(rh) / 2 - exactHeight / 2
            let exact = Double(bw) == exactWidth && Double(bh) == exactHeight
            return SurfaceScaling(bufferWidth: bw, bufferHeight: bh, bufferScale: 1, picture: picture,
                                  source: exact ? nil : (sx, sy, exactWidth, exactHeight), destination: (lw, lh))
        }
    }

    /// A buffer of exactly the output's device pixels: the logical size times the integer
    /// scale (buffer scale), or times a fractional scale and scaled back to points.
    private static func devicePixels(logicalWidth lw: Int32, logicalHeight lh: Int32, scale: Int32,
                                     fractionalScale: UInt32?) -> SurfaceScaling {
        if let fractional = fractionalScale, fractional > 0, fractional != 120 * UInt32(max(1, scale)) {
            let w = fractionalPixels(lw, fractional), h = fractionalPixels(lh, fractional)
            return SurfaceScaling(bufferWidth: w, bufferHeight: h, bufferScale: 1,
                                  picture: PixelRect(x: 0, y: 0, width: w, height: h),
                                  source: nil, destination: (lw, lh))
        }
        let s = max(1, scale)
        return SurfaceScaling(bufferWidth: lw * s, bufferHeight: lh * s, bufferScale: s,
                              picture: PixelRect(x: 0, y: 0, width: lw * s, height: lh * s),
                              source: nil, destination: nil)
    }

    /// Points times a wp_fractional_scale_v1 scale (in 120ths), rounded half away from
    /// zero as the protocol asks.
    public static func fractionalPixels(_ points: Int32, _ scale120: UInt32) -> Int32 {
        Int32((Int64(points) * Int64(scale120) + 60) / 120)
    }
}
