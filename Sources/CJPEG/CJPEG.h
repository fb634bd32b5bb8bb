// libjpeg-turbo's TurboJPEG API, for --content JPEG stills: errors come back as return
// values (tjGetErrorStr2), so no setjmp/longjmp reaches Swift.
#ifndef CJPEG_H
#define CJPEG_H
#include <stddef.h>
#include <turbojpeg.h>
#endif
