import WaylandOutputs

/// What one output's refreshes showed of its --content video: the renderer's count.
struct VideoPlayback: Sendable {
    var source: VideoSource
    var cadence: VideoCadence
    /// Refreshes that showed an older frame than their target time called for, because
    /// the decoder had not reached it.
    var lateRefreshes: Int
}

/// `--stats-json`, per output that plays a video (docs/json.md).
struct VideoReport: Encodable {
    var file: String
    var codec: String
    var width, height: Int
    var frames_per_second: Double
    var length_s: Double
    /// Distinct frames shown.
    var frames_shown: Int
    /// Refreshes a frame was held for → how many frames were held that long.
    var refreshes_per_frame: [String: Int]
    /// Frames held longer or shorter than their cadence (refresh rate over frame rate,
    /// rounded down or up), and frames never shown although the video's rate is below the
    /// refresh rate.
    var cadence_errors: Int
    var frames_passed_over: Int
    var late_refreshes: Int
    /// Where its colours became RGB (``VideoConversion``): "swscale" or "shader".
    var conversion: String
    /// Which decoder (``VideoDecoding``): "vaapi" (given a VA-API device; FFmpeg may still
    /// decode in software a profile the GPU does not take) or "software".
    var decoder: String
    /// Time to decode a frame (the process's one decoder for the file), and with
    /// libswscale to convert it.
    var decode_ms_p50: Double?
    var decode_ms_p99: Double?
    /// Frames uploaded into the file's textures, which every output that shows it draws
    /// from (``VideoTextures``): the file's count, for all outputs together.
    var frames_uploaded: Int

    /// The share of frames held as their cadence calls for, in per cent (nil before any).
    var onCadencePercent: Double? {
        let held = refreshes_per_frame.values.reduce(0, +)
        return held > 0 ? 100 * Double(held - cadence_errors) / Double(held) : nil
    }

    /// One line for bench's table.
    var summary: String {
        let holds = refreshes_per_frame.sorted { Int($0.key) ?? 0 < Int($1.key) ?? 0 }.map { "\($0.key): \($0.value)" }
        return "\(frames_shown) frames shown, " + (onCadencePercent.map { format($0, 2) + "% on cadence" } ?? "no cadence yet")
            + " (refreshes per frame \(holds.joined(separator: ", "))), \(frames_passed_over) passed over, "
            + "\(late_refreshes) late refreshes, decoded by \(decoder), converted by \(conversion), "
            + "decode p50 \(decode_ms_p50.map { format($0, 2) } ?? "-") ms "
            + "p99 \(decode_ms_p99.map { format($0, 2) } ?? "-") ms"
    }

    init(_ playback: VideoPlayback) {
        let source = playback.source
        file = Log.printable(source.path)
        codec = source.codecName
        (width, height) = (source.width, source.height)
        frames_per_second = source.timeline.framesPerSecond
        length_s = source.timeline.length
        frames_shown = playback.cadence.shown
        refreshes_per_frame = Dictionary(uniqueKeysWithValues: playback.cadence.holds.map { (String($0.key), $0.value) })
        cadence_errors = playback.cadence.cadenceErrors
        frames_passed_over = playback.cadence.passedOver
        late_refreshes = playback.lateRefreshes
        conversion = source.conversion.rawValue
        decoder = source.decodesWithVAAPI ? "vaapi" : "software"
        let decode = source.decodeMilliseconds
        decode_ms_p50 = decode?.p50
        decode_ms_p99 = decode?.p99
        frames_uploaded = source.textures.uploads
    }
}
