import CGLES
import WaylandOutputs

/// How one item of a show looks in its zone at one frame: a plain colour wherever its
/// picture is not (text's background, a colour, black around an image or a video), and
/// the picture (none: a colour).
struct ItemLook {
    struct Picture {
        /// Where the picture's corners go (picture pixels from the zone's top left, as
        /// u_image reads them; a negative height turns it over), and the whole pixels of
        /// the output's picture it covers (from its top left).
        var place: (x: Double, y: Double, width: Double, height: Double)
        var pixels: Rect
        var texture: GLuint
        /// show-copy (an opaque BGRA picture: 6 corners, a rectangle over its pixels); or
        /// image.frag (an image, which may be translucent, over black: 3 corners, a
        /// triangle over the whole zone, cut to its pixels).
        var program: GLuint
        var corners: Int32
    }

    var plain: RGB
    var picture: Picture?

    /// The whole pixels of the output's picture that `place` in the zone at `zone`
    /// covers, cut at the zone's edges (nil: none).
    static func pixels(_ place: (x: Double, y: Double, width: Double, height: Double), in zone: Rect) -> Rect? {
        guard place.width > 0, place.height > 0, place.x.isFinite, place.y.isFinite else { return nil }
        let left = max(0, min(Double(zone.width), place.x.rounded(.down)))
        let top = max(0, min(Double(zone.height), place.y.rounded(.down)))
        let right = max(0, min(Double(zone.width), (place.x + place.width).rounded(.up)))
        let bottom = max(0, min(Double(zone.height), (place.y + place.height).rounded(.up)))
        guard right > left, bottom > top else { return nil }
        return Rect(x: zone.x + Int32(left), y: zone.y + Int32(top), width: Int32(right - left), height: Int32(bottom - top))
    }
}

/// Paints items' looks into a show's zones on one output: a plain colour by a clear where
/// it is opaque, the picture by a rectangle that only samples (show-copy), so that
/// llvmpipe, which shades a general fragment shader at about 6 ms of CPU a 960x634 zone,
/// does nearly all of it on its linear path or by clearing. Lives on the output's render
/// thread, with a texel of each plain colour it mixed in this context.
final class ZonePainter {
    private let block: FrameBlock
    private var texels: [RGB: GLuint] = [:]

    init(block: FrameBlock) {
        self.block = block
    }

    deinit {
        for var texture in texels.values { glDeleteTextures(1, &texture) }
    }

    /// Paints `look` within `region` (the output's picture pixels from its top left, inside
    /// the zone) of the zone at `zone` (the same; `height`: the framebuffer's), whose
    /// viewport is set: opaque, or (`blended`) mixed over what is there by the blend the
    /// caller set. `copy`: show-copy.
    func paint(_ look: ItemLook, in region: Rect, zone: Rect, height: Int32, blended: Bool, copy: GLuint) {
        guard region.width > 0, region.height > 0 else { return }
        let hole = look.picture.map { $0.pixels.intersection(region) } ?? Rect(x: region.x, y: region.y, width: 0, height: 0)
        block.set(.canvas, Double(zone.x), Double(zone.y), Double(zone.width), Double(zone.height))
        glActiveTexture(GLenum(GL_TEXTURE0))
        if blended {
            // The plain colour around the picture, from one texel (a clear cannot blend).
            glBindTexture(GLenum(GL_TEXTURE_2D), texel(look.plain))
            glUseProgram(copy)
            for part in region.around(hole) {
                scissor(part, height: height)
                block.set(.image, 0, 0, Double(zone.width), Double(zone.height))
                copyArea(part, zone: zone)
                block.upload()
                glDrawArrays(GLenum(GL_TRIANGLES), 0, 6)
            }
        } else {
            scissor(region, height: height)
            glClearColor(look.plain.r, look.plain.g, look.plain.b, 1)
            glClear(GLenum(GL_COLOR_BUFFER_BIT))
        }
        guard let picture = look.picture, hole.width > 0, hole.height > 0 else { return }
        scissor(hole, height: height)
        block.set(.image, picture.place.x, picture.place.y, picture.place.width, picture.place.height)
        copyArea(hole, zone: zone)
        block.upload()
        glBindTexture(GLenum(GL_TEXTURE_2D), picture.texture)
        glUseProgram(picture.program)
        glDrawArrays(GLenum(GL_TRIANGLES), 0, picture.corners)
    }

    private func scissor(_ rect: Rect, height: Int32) {
        let gl = rect.flippedY(containerHeight: height)
        glScissor(gl.x, gl.y, gl.width, gl.height)
    }

    /// u_copyArea: `area` (the output's picture pixels) from the zone's top left.
    private func copyArea(_ area: Rect, zone: Rect) {
        block.set(.copyArea, Double(area.x - zone.x), Double(area.y - zone.y), Double(area.width), Double(area.height))
    }

    /// A 1x1 BGRA texture of `colour`, made on first use.
    private func texel(_ colour: RGB) -> GLuint {
        if let texture = texels[colour] { return texture }
        let texture = Sampling.nearest.newTexture()
        func byte(_ value: Float) -> UInt8 { UInt8((max(0, min(1, value.isFinite ? value : 0)) * 255).rounded()) }
        let bytes: [UInt8] = [byte(colour.b), byte(colour.g), byte(colour.r), 255]
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 4)
        bytes.withUnsafeBytes { pixel in
            glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GLint(RenderTarget.bgraFormat), 1, 1, 0, RenderTarget.bgraFormat,
                         GLenum(GL_UNSIGNED_BYTE), pixel.baseAddress)
        }
        // A show has a few colours; one that mixes many (none does today) keeps at most 64.
        if texels.count >= 64, var dropped = texels.first {
            glDeleteTextures(1, &dropped.value)
            texels[dropped.key] = nil
        }
        texels[colour] = texture
        return texture
    }
}

extension Rect {
    /// The part the two share (empty, at this one's origin: none).
    func intersection(_ other: Rect) -> Rect {
        let left = Swift.max(x, other.x), top = Swift.max(y, other.y)
        let right = Swift.min(maxX, other.maxX), bottom = Swift.min(maxY, other.maxY)
        guard right > left, bottom > top else { return Rect(x: x, y: y, width: 0, height: 0) }
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// This rectangle without `hole` (which lies within it, or is empty): up to four
    /// rectangles, the bands above and below it and the pieces beside it.
    func around(_ hole: Rect) -> [Rect] {
        guard hole.width > 0, hole.height > 0 else { return width > 0 && height > 0 ? [self] : [] }
        return [Rect(x: x, y: y, width: width, height: hole.y - y),
                Rect(x: x, y: hole.maxY, width: width, height: maxY - hole.maxY),
                Rect(x: x, y: hole.y, width: hole.x - x, height: hole.height),
                Rect(x: hole.maxX, y: hole.y, width: maxX - hole.maxX, height: hole.height)]
            .filter { $0.width > 0 && $0.height > 0 }
    }
}
