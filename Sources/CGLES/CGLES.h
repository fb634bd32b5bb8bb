// Umbrella header for EGL 1.5 and OpenGL ES 3 (Mesa provides both, also without a GPU).
#ifndef CGLES_H
#define CGLES_H

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>

#endif
