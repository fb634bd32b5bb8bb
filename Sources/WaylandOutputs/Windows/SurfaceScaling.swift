/// How a picture of one size is fitted onto an output of another.
public enum ScaleMode: String, Sendable, CaseIterable {
    /// The whole picture, aspect kept, black bars where the shapes differ.
    case fit
    /// The output covered, aspect kept, the picture's edges cropped.
    case fill
    /// The output covered, the picture distorted to its shape.
    case stretch
}

/// The part of a buffer a viewport shows (wp_viewport.set_source), in buffer pixels,
/// fractions allowed.
package struct ViewportSource: Sendable, Hashable {
    package var x: Double
    package var y: Double
    package var width: Double
    package var height: Double

    package init(x: Double, y: Double, width: Double, height: Double) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }

    /// A window of `width` x `height` centred on `picture`, in wl_fixed_t's steps (1/256)
    /// and inside a buffer of `size`, as the protocol requires (a source outside the
    /// buffer is a protocol error): where the picture sits half a pixel off the buffer's
    /// centre (an odd margin), the window moves by less than that to stay inside.
    static func centred(on picture: Rect, width: Double, height: Double, in size: Size) -> ViewportSource {
        func axis(_ start: Int32, _ length: Int32, _ window: Double, _ buffer: Int32) -> (Double, Double) {
            let steps = min(Int64(window * 256), Int64(buffer) * 256)
            let centred = ((Double(start) + Double(length) / 2 - window / 2) * 256).rounded()
            let at = min(max(0, Int64(centred)), Int64(buffer) * 256 - steps)
            return (Double(at) / 256, Double(steps) / 256)
        }
        let (x, w) = axis(picture.x, picture.width, width, size.width)
        let (y, h) = axis(picture.y, picture.height, height, size.height)
        return ViewportSource(x: x, y: y, width: w, height: h)
    }
}

/// The buffer a fullscreen surface needs and what wp_viewporter must do with it, for an
/// output of a given logical size and scale, and a render size the application may
/// want instead of the output's own. Pure, so every case is unit-tested.
package struct SurfaceScaling: Sendable, Hashable {
    /// The buffer, in pixels.
    package var bufferSize: Size
    /// wl_surface.set_buffer_scale (1 whenever a viewport scales the buffer).
    package var bufferScale: Int32
    /// Where the picture goes in the buffer, in pixels; outside it the buffer is black (fit).
    package var picture: Rect
    /// wp_viewport.set_source (nil: the whole buffer, or no viewport).
    package var source: ViewportSource?
    /// wp_viewport.set_destination in logical points (nil: no viewport needed).
    package var destination: Size?

    package init(bufferSize: Size, bufferScale: Int32, picture: Rect, source: ViewportSource? = nil,
                destination: Size? = nil) {
        self.bufferSize = bufferSize
        self.bufferScale = bufferScale
        self.picture = picture
        self.source = source
        self.destination = destination
    }

    /// Whether the compositor has to scale the buffer (a wp_viewport is needed).
    package var needsViewport: Bool { destination != nil }

    /// - Parameters:
    ///   - logicalSize: the surface's size in points (the configure, or the output's).
    ///   - scale: the integer output scale (wl_output.scale).
    ///   - fractionalScale: wp_fractional_scale_v1's preferred scale in 120ths, if any.
    ///   - renderSize: the pixels the application wants to draw, if not the output's.
    ///   - mode: how a render size of another shape fits the output.
    package static func plan(logicalSize: Size, scale: Int32, fractionalScale: UInt32? = nil,
                            renderSize: Size? = nil, mode: ScaleMode = .fit) -> SurfaceScaling {
        let lw = max(1, logicalSize.width), lh = max(1, logicalSize.height)
        let logical = Size(width: lw, height: lh)
        let own = devicePixels(logical, scale: scale, fractionalScale: fractionalScale)
        // No render size, or one that is the output's own pixels: nothing to scale.
        guard let render = renderSize, !render.isEmpty, render != own.bufferSize else { return own }
        let (rw, rh) = (render.width, render.height)
        let whole = Rect(size: render)
        switch mode {
        case .stretch:
            return SurfaceScaling(bufferSize: render, bufferScale: 1, picture: whole, destination: logical)
        case .fill:
            // The buffer is the centred window of the output's shape; the picture is drawn
            // at its full size around it, its edges falling outside. (A viewport source
            // with an offset would do the same, but wlroots 0.15's pixman renderer ignores
            // source offsets, showing the top of the picture instead of its centre.)
            let wideOutput = Int64(lw) * Int64(rh) >= Int64(lh) * Int64(rw)
            let bw = wideOutput ? rw : max(1, Int32((Double(rh) * Double(lw) / Double(lh)).rounded()))
            let bh = wideOutput ? max(1, Int32((Double(rw) * Double(lh) / Double(lw)).rounded())) : rh
            let picture = Rect(x: -(rw - bw) / 2, y: -(rh - bh) / 2, width: rw, height: rh)
            return SurfaceScaling(bufferSize: Size(width: bw, height: bh), bufferScale: 1, picture: picture,
                                  destination: logical)
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
            let picture = Rect(x: (bw - rw) / 2, y: (bh - rh) / 2, width: rw, height: rh)
            let exact = Double(bw) == exactWidth && Double(bh) == exactHeight
            return SurfaceScaling(bufferSize: Size(width: bw, height: bh), bufferScale: 1, picture: picture,
                                  source: exact ? nil : .centred(on: picture, width: exactWidth, height: exactHeight,
                                                                 in: Size(width: bw, height: bh)),
                                  destination: logical)
        }
    }

    /// A buffer of exactly the output's device pixels: the logical size times the integer
    /// scale (buffer scale), or times a fractional scale and scaled back to points.
    private static func devicePixels(_ logical: Size, scale: Int32, fractionalScale: UInt32?) -> SurfaceScaling {
        if let fractional = fractionalScale, fractional > 0, fractional != 120 * UInt32(max(1, scale)) {
            let size = Size(width: fractionalPixels(logical.width, fractional), height: fractionalPixels(logical.height, fractional))
            return SurfaceScaling(bufferSize: size, bufferScale: 1, picture: Rect(size: size), destination: logical)
        }
        let s = max(1, scale)
        return SurfaceScaling(bufferSize: logical * s, bufferScale: s, picture: Rect(size: logical * s))
    }

    /// Points times a wp_fractional_scale_v1 scale (in 120ths), rounded half away from
    /// zero as the protocol asks.
    package static func fractionalPixels(_ points: Int32, _ scale120: UInt32) -> Int32 {
        Int32((Int64(points) * Int64(scale120) + 60) / 120)
    }
}
