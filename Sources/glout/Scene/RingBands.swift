/// Where the content view's rings cover anything at a moment: the two bands around the
/// rings' centre outside which rings.frag blends nothing, so rings.vert draws only them
/// and the pixels between the rings are not shaded (BENCHMARKS.md, "Frame cost and fair
/// shares"). Pure, for the unit tests; the renderer hands the bands to the shader in
/// `u_ringBands`.
///
/// rings.frag covers a pixel at r (its distance from the centre over the radius) by
/// `smoothstep(0.35, 0.5, wave(r * 1.44 - t * 0.48)) * smoothstep(0.97, 0.13, r)`. wave
/// is above 0.35 only within 0.1906 of a whole number (6u² - 4u³ > 1.35 for u above
/// 0.6189, where u is twice the distance from the period's middle), and r runs to 0.97,
/// so x = r * 1.44 - t * 0.48 spans 1.4 periods: at most two bands, each reaching
/// `halfWidth` either side of a whole x, which keeps a margin for the shader's float time.
struct RingBands: Equatable {
    /// A band's inner and outer radius in pixels, a pixel to spare either way; a band
    /// that holds nothing has `outer <= inner`.
    struct Band: Equatable {
        var inner: Double
        var outer: Double

        var isEmpty: Bool { outer <= inner }
        static let empty = Band(inner: 0, outer: 0)
    }

    var first: Band
    var second: Band

    /// Of the wave's period, how far either side of a whole x a band reaches.
    static let halfWidth = 0.2
    /// Where the rings have faded out, as a fraction of the radius.
    static let fadedOut = 0.97

    /// The bands at scene time `time` (as the shader has it: seconds, a Float) for rings
    /// of `radius` pixels.
    init(time: Float, radius: Double) {
        let radius = max(radius, 1)
        // r = (x + t * 0.48) / 1.44 for x a whole number plus or minus halfWidth.
        let start = -Double(time) * 0.48
        let firstCentre = (start - RingBands.halfWidth).rounded(.up)
        func band(_ centre: Double) -> Band {
            let inner = min(max((centre - RingBands.halfWidth - start) / 1.44, 0), RingBands.fadedOut)
            let outer = min(max((centre + RingBands.halfWidth - start) / 1.44, 0), RingBands.fadedOut)
            return inner >= outer ? .empty : Band(inner: inner * radius - 1, outer: outer * radius + 1)
        }
        first = band(firstCentre)
        second = band(firstCentre + 1)
    }

    /// The four values of `u_ringBands`: the first band's inner and outer radius, then
    /// the second's.
    var uniform: (Double, Double, Double, Double) { (first.inner, first.outer, second.inner, second.outer) }
}
