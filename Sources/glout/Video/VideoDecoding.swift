/// --video-decoder: which decoder turns a video's packets into frames.
///
/// VA-API is the GPU's own video decoder, where the machine has one (a render node such
/// as /dev/dri/renderD128 and a VA-API driver): FFmpeg decodes into the GPU's memory and
/// each frame is copied back (`av_hwframe_transfer_data`, as NV12) for the same
/// conversion a software frame takes. A machine without one (llvmpipe, as in the tests)
/// decodes in software on FFmpeg's own threads.
enum VideoDecoding: String, Sendable, CaseIterable {
    /// VA-API where a device opens and the codec has a VA-API decoder, else software.
    case auto
    /// FFmpeg's software decoder only.
    case software
    /// VA-API or an error that says why not.
    case vaapi
}
