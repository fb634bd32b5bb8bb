// FFmpeg's demuxers, decoders and scaler, for --content videos (glout, not the library).
// Only calls that FFmpeg 5.1 (Debian 12) and 7.1 (Debian 13) both have are used.
#include <errno.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <libavutil/hwcontext.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

// Macros Swift does not import.
static inline int glout_averror_again(void) { return AVERROR(EAGAIN); }
static inline int glout_averror_eof(void) { return AVERROR_EOF; }
static inline int64_t glout_av_nopts_value(void) { return AV_NOPTS_VALUE; }

// Whether `codec` can decode through a VA-API device context (the GPU's decoder).
static inline int glout_codec_has_vaapi(const AVCodec *codec) {
    for (int i = 0;; i++) {
        const AVCodecHWConfig *config = avcodec_get_hw_config(codec, i);
        if (!config) return 0;
        if (config->device_type == AV_HWDEVICE_TYPE_VAAPI && (config->methods & AV_CODEC_HW_CONFIG_METHOD_HW_DEVICE_CTX))
            return 1;
    }
}

// Offered VA-API surfaces, the decoder takes them; else (a profile the GPU does not
// decode) FFmpeg's own choice, a software format.
static inline enum AVPixelFormat glout_prefer_vaapi(AVCodecContext *context, const enum AVPixelFormat *formats) {
    for (const enum AVPixelFormat *format = formats; *format != AV_PIX_FMT_NONE; format++)
        if (*format == AV_PIX_FMT_VAAPI) return *format;
    return avcodec_default_get_format(context, formats);
}

// Hands `context` (not yet opened) a reference to the VA-API `device` and the choice above.
static inline int glout_decode_with(AVCodecContext *context, AVBufferRef *device) {
    context->hw_device_ctx = av_buffer_ref(device);
    if (!context->hw_device_ctx) return AVERROR(ENOMEM);
    context->get_format = glout_prefer_vaapi;
    return 0;
}

// The name of the demuxer FFmpeg picks for a file called `name` that starts with the
// `count` bytes at `bytes` (followed by AVPROBE_PADDING_SIZE zero bytes), or NULL.
static inline const char *glout_probe_format(const char *name, unsigned char *bytes, int count) {
    AVProbeData probe = { .filename = name, .buf = bytes, .buf_size = count, .mime_type = NULL };
    int score = 0;
    const AVInputFormat *format = av_probe_input_format2(&probe, 1, &score);
    return format ? format->name : NULL;
}
static inline int glout_probe_padding(void) { return AVPROBE_PADDING_SIZE; }
