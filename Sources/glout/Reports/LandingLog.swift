import Glibc
import WaylandOutputs

/// `--landings-json`: every output's last frames, each with its target and the moment it
/// reached the screen, in CLOCK_MONOTONIC nanoseconds, and the offset to CLOCK_REALTIME
/// (read when written) that puts them on a clock two machines share. Two glouts' files,
/// on one machine or on machines whose clocks agree, give the seam offset between their
/// outputs as the span's report gives it between one glout's (bench/wall-seam.sh;
/// docs/json.md).
struct LandingLog: Encodable {
    struct Frame: Encodable {
        var index: UInt64
        var target_ns: UInt64
        var landed_ns: UInt64
        /// When the frame callback that started the frame arrived (nil: none did), and
        /// when the frame was committed.
        var callback_ns: UInt64?
        var commit_ns: UInt64
        /// "presentation" or "frame-callback"; "presentation" or "estimate".
        var source: String
        var target: String
        /// The --content video's frame this refresh showed, numbered on the unwrapped
        /// timeline (pass x frames + frame; on the realtime clock the same number on
        /// every machine at the same instant); nil without a video.
        var video_frame: Int?
        /// How far a --show's ticker had travelled at this refresh, in pixels from where
        /// its item began (the top zone's ticker; while it crossfades from one ticker to
        /// another, the one going); nil without one.
        var ticker_px: Double?
    }

    struct Output: Encodable {
        var name: String
        var frames: [Frame]
    }

    var clock = "monotonic"
    var realtime_minus_monotonic_ns: Int64
    var outputs: [Output]

    /// One output's frames as the log has them: where each landed, and what it showed.
    struct Record {
        var name: String
        var landings: [FrameLanding]
        /// The video frame each refresh showed, and how far it drew its ticker, by frame index.
        var videoFrames: [UInt64: Int] = [:]
        var tickerTravel: [UInt64: Double] = [:]
    }

    init(_ records: [Record]) {
        var realtime = timespec()
        let monotonic = MonotonicInstant.now.nanoseconds
        clock_gettime(CLOCK_REALTIME, &realtime)
        realtime_minus_monotonic_ns = (Int64(realtime.tv_sec) &* 1_000_000_000 &+ Int64(realtime.tv_nsec))
            &- Int64(bitPattern: monotonic)
        outputs = records.sorted { $0.name < $1.name }.map { output in
            Output(name: output.name, frames: output.landings.map {
                Frame(index: $0.index, target_ns: $0.target.nanoseconds, landed_ns: $0.landed.nanoseconds,
                      callback_ns: $0.callbackArrival?.nanoseconds, commit_ns: $0.commit.nanoseconds,
                      source: $0.source.rawValue, target: $0.targetSource.rawValue, video_frame: output.videoFrames[$0.index],
                      ticker_px: output.tickerTravel[$0.index])
            })
        }
    }
}
