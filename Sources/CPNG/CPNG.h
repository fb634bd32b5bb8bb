// libpng's simplified API (png_image_*), which keeps setjmp/longjmp out of Swift.
#ifndef CPNG_H
#define CPNG_H
#include <png.h>
#endif
