// FFmpeg's demuxers, decoders and scaler, for --content videos (glout, not the library).
// Only calls that FFmpeg 5.1 (Debian 12) and 7.1 (Debian 13) both have are used.
#include <errno.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <libswscale/swscale.h>

// Macros Swift does not import.
static inline int glout_averror_again(void) { return AVERROR(EAGAIN); }
static inline int glout_averror_eof(void) { return AVERROR_EOF; }
static inline int glout_averror_invalid_data(void) { return AVERROR_INVALIDDATA; }
static inline int64_t glout_av_nopts_value(void) { return AV_NOPTS_VALUE; }
