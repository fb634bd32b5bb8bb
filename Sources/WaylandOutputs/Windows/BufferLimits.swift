/// How large a window's buffer may be. A compositor may configure any size and scale
/// (the library keeps them within reason), and an output may be larger than the
/// GL driver can draw: a buffer larger than either limit is drawn at the largest size
/// that fits, its shape kept, and scaled to the output by the compositor (wp_viewporter;
/// without it, shown smaller). Pure, so every case is unit-tested.
package enum BufferLimits {
    /// The most pixels a buffer holds: 8K UHD, 7680x4320, 33.2 million, 133 MB at 4 bytes a
    /// pixel. Where frames go through wl_shm, a window keeps at most 7 such (three buffers
    /// of the current size, six in all, and its framebuffer): about 930 MB per output at
    /// the very worst.
    package static let maximumPixels: Int64 = 7680 * 4320

    /// The size to draw at instead of `size`, or nil when `size` fits: at most
    /// `maximumSide` wide and high and ``maximumPixels`` in all, the shape kept as nearly
    /// as whole pixels allow.
    package static func fitted(_ size: Size, maximumSide: Int32) -> Size? {
        let width = Int64(max(1, size.width)), height = Int64(max(1, size.height))
        let side = Int64(max(1, maximumSide))
        guard width > side || height > side || width * height > maximumPixels else { return nil }
        var factor = min(Double(side) / Double(width), Double(side) / Double(height))
        factor = min(factor, (Double(maximumPixels) / Double(width * height)).squareRoot())
        let fittedWidth = max(1, min(side, Int64((Double(width) * factor).rounded(.down))))
        let fittedHeight = max(1, min(side, Int64((Double(height) * factor).rounded(.down))))
        return Size(width: Int32(fittedWidth), height: Int32(fittedHeight))
    }
}
