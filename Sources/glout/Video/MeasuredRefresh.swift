/// An output's refresh period as its frame callbacks show it, for judging a video's
/// cadence: the mode's refresh is what the compositor says, not always what it does
/// (headless wlroots says 60 Hz and ticks every 16 ms, 62.5 times a second, so a 30 fps
/// video there must hold one frame in about twelve for three refreshes, not two). Pure.
struct MeasuredRefresh {
    private var last: (index: UInt64, nanoseconds: UInt64)?
    /// The mean of the intervals between consecutive frames near the nominal period
    /// (moving, a 32nd at a time), and how many there were.
    private var mean = 0.0
    private(set) var intervals = 0
    /// Intervals counted before the measurement is used instead of the nominal period.
    static let needed = 30

    /// Frame `index` started at `nanoseconds`; `nominal` is the period the display link
    /// gives (ns). An interval over a missed refresh, or one that strays more than a
    /// quarter from the nominal period, is not counted.
    mutating func frame(index: UInt64, nanoseconds: UInt64, nominal: Double) {
        defer { last = (index, nanoseconds) }
        guard let last, index == last.index &+ 1, nanoseconds > last.nanoseconds, nominal.isFinite, nominal > 0 else { return }
        let interval = Double(nanoseconds - last.nanoseconds)
        guard abs(interval - nominal) <= nominal / 4 else { return }
        intervals += 1
        mean = intervals == 1 ? interval : mean + (interval - mean) / Double(min(intervals, 32))
    }

    /// The period to judge the cadence by (ns): the measured one once there are enough
    /// intervals, else `nominal`.
    func period(nominal: Double) -> Double { intervals >= MeasuredRefresh.needed ? mean : nominal }
}
