// libwebp's decoder and libwebpdemux's container reader and animation decoder, for
// --content WebP stills and animations.
#ifndef CWEBP_H
#define CWEBP_H
#include <webp/decode.h>
#include <webp/demux.h>
#endif
