import WaylandOutputs

extension ModeRequest {
    /// The grammar of --mode and --render-mode: "preferred", "current", "highest",
    /// "lowest", "1024x768" or "1024x768@60" (Hz, decimals allowed, "Hz" optional), within
    /// 16384 pixels a side (llvmpipe's largest buffer) and 1000 Hz.
    init?(_ text: String) {
        switch text {
        case "preferred": self = .preferred
        case "current": self = .current
        case "highest": self = .highest
        case "lowest": self = .lowest
        default:
            let parts = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
            let size = parts[0].split(separator: "x", omittingEmptySubsequences: false)
            guard size.count == 2, let w = Int32(size[0]), let h = Int32(size[1]), w > 0, h > 0, w <= 16384, h <= 16384
            else { return nil }
            var refresh: Int32?
            if parts.count == 2 {
                let hz = parts[1].hasSuffix("Hz") ? parts[1].dropLast(2) : parts[1]
                guard let value = Double(hz), value > 0, value <= 1000 else { return nil }
                refresh = Int32((value * 1000).rounded())
            }
            self = .size(Size(width: w, height: h), refreshMilliHertz: refresh)
        }
    }
}
