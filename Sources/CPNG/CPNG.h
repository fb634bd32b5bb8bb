// libpng's simplified API (png_image_*), which keeps setjmp/longjmp out of Swift; and
// zlib, whose deflate glout's own PNG writer for screenshots calls (PNGEncoder).
#ifndef CPNG_H
#define CPNG_H
#include <png.h>
#include <zlib.h>
#endif
