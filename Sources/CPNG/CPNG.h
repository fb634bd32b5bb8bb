// libpng's simplified API (png_image_*), which keeps setjmp/longjmp out of Swift; zlib,
// whose deflate glout's own PNG writer for screenshots calls (PNGEncoder); and libdeflate,
// which inflates the PNGs glout reads itself (PNGFastReader).
#ifndef CPNG_H
#define CPNG_H
#include <png.h>
#include <zlib.h>
#include <libdeflate.h>
#endif
