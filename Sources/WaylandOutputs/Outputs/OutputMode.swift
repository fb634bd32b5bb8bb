/// One video mode of an output, as a wl_output.mode event describes it.
public struct OutputMode: Sendable, Hashable, CustomStringConvertible {
    /// Width and height in hardware pixels (before the output's transform).
    public var size: Size
    /// Vertical refresh in mHz (60 Hz is 60000), as the protocol sends it; 0 when the
    /// compositor does not know.
    public var refreshMilliHertz: Int32
    /// The output shows this mode now (WL_OUTPUT_MODE_CURRENT).
    public var isCurrent: Bool
    /// The output's preferred mode (WL_OUTPUT_MODE_PREFERRED).
    public var isPreferred: Bool

    public init(size: Size, refreshMilliHertz: Int32, isCurrent: Bool = false, isPreferred: Bool = false) {
        self.size = size
        self.refreshMilliHertz = refreshMilliHertz
        self.isCurrent = isCurrent
        self.isPreferred = isPreferred
    }

    /// The refresh rate in hertz, 0 when unknown.
    public var refreshRate: Double { Double(refreshMilliHertz) / 1000 }

    /// The period taken where an output gives no refresh: 60 Hz's.
    public static let assumedRefreshPeriod = Duration.nanoseconds(16_666_667)

    /// The refresh period, or nil when the refresh is unknown.
    public var refreshPeriod: Duration? {
        refreshMilliHertz > 0 ? .nanoseconds(1_000_000_000_000 / Int64(refreshMilliHertz)) : nil
    }

    /// Whether two modes are the same timing, whatever their flags.
    public func sameTiming(as other: OutputMode) -> Bool {
        size == other.size && refreshMilliHertz == other.refreshMilliHertz
    }

    /// "1280x720@60.000Hz", or "1280x720" when the refresh is unknown.
    public var description: String {
        guard refreshMilliHertz > 0 else { return "\(size)" }
        let hz = refreshMilliHertz / 1000, fraction = refreshMilliHertz % 1000
        let digits = String(fraction)
        return "\(size)@\(hz).\(String(repeating: "0", count: 3 - digits.count))\(digits)Hz"
    }
}

extension Sequence where Element == OutputMode {
    /// The listed mode that a request for `size` names: with a refresh, the
    /// closest one within half a hertz ("60" names a 59.951 Hz mode too); without one,
    /// the fastest of that size. Nil when none is listed.
    func named(_ size: Size, refreshMilliHertz: Int32?) -> OutputMode? {
        let sized = filter { $0.size == size }
        guard let refresh = refreshMilliHertz else { return sized.max { $0.refreshMilliHertz < $1.refreshMilliHertz } }
        let distance = { (mode: OutputMode) in abs(mode.refreshMilliHertz - refresh) }
        return sized.filter { distance($0) <= 500 }.min { distance($0) < distance($1) }
    }
}
