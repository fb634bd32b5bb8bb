import WaylandOutputs

/// Letterboxing: where a picture of one aspect ratio goes, whole, in an area of another.
/// Pure.
enum Letterbox {
    /// The largest rectangle with the aspect ratio of `content` that fits in `area`,
    /// centred (letterbox or pillarbox), at the origin of `area`'s coordinates. Whole
    /// pixels; when the bars cannot be split evenly the extra pixel goes to the right or
    /// bottom.
    static func aspectFit(_ content: Size, into area: Size) -> Rect {
        guard !content.isEmpty, !area.isEmpty else {
            return Rect(x: 0, y: 0, width: max(0, area.width), height: max(0, area.height))
        }
        let (cw, ch) = (Int64(content.width), Int64(content.height))
        let (width, height) = (Int64(area.width), Int64(area.height))
        // Compare cross products in 64 bits to decide which side limits, exactly.
        let wide = cw * height >= ch * width
        var fitWidth = width, fitHeight = height
        if wide {
            fitHeight = (width * ch * 2 + cw) / (cw * 2)
        } else {
            fitWidth = (height * cw * 2 + ch) / (ch * 2)
        }
        fitWidth = min(max(fitWidth, 1), width)
        fitHeight = min(max(fitHeight, 1), height)
        return Rect(x: Int32((width - fitWidth) / 2), y: Int32((height - fitHeight) / 2),
                    width: Int32(fitWidth), height: Int32(fitHeight))
    }
}
