import CFFmpeg

/// Where a video's frames come from, in order, one step at a time: FFmpeg's demuxer and
/// decoder (``VideoDecoder``), or libwebp's animation decoder (``WebPAnimation``). Each
/// frame is handed over as an AVFrame, which ``FrameConverter`` makes into what the
/// outputs draw. Used on one thread at a time (the opening thread, then
/// ``VideoSource``'s decoding thread).
protocol FrameDecoder: AnyObject {
    var width: Int { get }
    var height: Int { get }
    /// The codec, as reports name it ("h264", "webp").
    var codecName: String { get }
    /// Whether a VA-API device decodes it (``VideoDecoding``).
    var decodesWithVAAPI: Bool { get }
    /// Whether its frames are RGB: they are kept as BGRA whatever --video-conversion says,
    /// since planes for the shader would halve their colours' resolution.
    var isRGB: Bool { get }
    /// Every frame's start and the end of the last: the timeline refreshes choose from.
    func timeline() throws -> VideoTimeline
    /// Goes to the key frame at or before the frame that starts at `ticks`; false where it
    /// cannot.
    func seek(toTicks ticks: Int64) -> Bool
    /// Decodes on, handing each frame it completes to `deliver` with its start in ticks
    /// (nil when it has none); the frame is valid only during the call.
    func step(_ deliver: (_ frame: UnsafeMutablePointer<AVFrame>, _ start: Int64?) -> Void) -> DecodeStep
}

/// What one step of decoding gave.
enum DecodeStep {
    /// Frames may have been delivered; there is more.
    case more
    /// The stream ended and every frame held was delivered.
    case end
    /// A packet or frame that could not be decoded, skipped; there is more.
    case corrupt(String)
}
