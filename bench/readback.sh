#!/usr/bin/env bash
# What glout's shm frame path pays to read a frame back, by the order it reads rows in.
# A frame of WxH is cleared (and a corner of it, so the rows' order shows) in a BGRA
# framebuffer object on Mesa's surfaceless EGL (llvmpipe here), then read with
# glReadPixels into a wl_shm-like buffer (memfd, MAP_SHARED), ROUNDS rounds of 60 frames,
# three ways in turn:
#   reverse rows:       GL_ANGLE_pack_reverse_row_order, top row first: what glout does;
#   flip_y, no reverse: GL_MESA_framebuffer_flip_y, read in GL's order (bottom row first);
#   flip_y and reverse: both (top row first again).
# Prints where the corner landed (which rows come first) and the median and 20th
# percentile of the render thread's CPU a frame for each.
#
#   bench/readback.sh [ROUNDS] [WxH]   (default 15 1280x720)
set -euo pipefail
rounds=${1:-15}; size=${2:-1280x720}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/readback.c" <<'C'
#define _GNU_SOURCE
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>
#include <GLES2/gl2ext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define FLIP_Y_MESA 0x8BBB
#define PACK_REVERSE_ROW_ORDER 0x93A4
#define FRAMES 60

static double thread_cpu(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    int rounds = atoi(argv[1]), width = atoi(argv[2]), height = atoi(argv[3]);
    if (rounds < 1 || width < 1 || height < 1) return 2;
    PFNEGLGETPLATFORMDISPLAYEXTPROC platform_display = (void *)eglGetProcAddress("eglGetPlatformDisplayEXT");
    EGLDisplay display = platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    EGLint attributes[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 1, EGL_NONE};
    if (!eglInitialize(display, NULL, NULL) || !eglBindAPI(EGL_OPENGL_ES_API)) { fputs("no EGL\n", stderr); return 1; }
    EGLContext context = eglCreateContext(display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attributes);
    if (!eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) { fputs("no GLES 3.1 context\n", stderr); return 1; }
    const char *extensions = (const char *)glGetString(GL_EXTENSIONS);
    printf("%s, %s\n", (const char *)glGetString(GL_RENDERER), (const char *)glGetString(GL_VERSION));
    if (!strstr(extensions, "GL_MESA_framebuffer_flip_y") || !strstr(extensions, "GL_ANGLE_pack_reverse_row_order")) {
        fputs("needs GL_MESA_framebuffer_flip_y and GL_ANGLE_pack_reverse_row_order\n", stderr);
        return 1;
    }
    void (*framebuffer_parameter)(GLenum, GLenum, GLint) = (void *)eglGetProcAddress("glFramebufferParameteriMESA");
    size_t bytes = (size_t)width * 4 * height;
    unsigned char *buffers[2];
    for (int i = 0; i < 2; i++) {
        int fd = memfd_create("readback", 0);
        if (fd < 0 || ftruncate(fd, (off_t)bytes) != 0) return 1;
        buffers[i] = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        close(fd);
        if (buffers[i] == MAP_FAILED) return 1;
    }
    static const char *names[3] = {"reverse rows", "flip_y, no reverse", "flip_y and reverse"};
    GLuint framebuffers[3], textures[3];
    glGenFramebuffers(3, framebuffers);
    glGenTextures(3, textures);
    for (int way = 0; way < 3; way++) {
        glBindTexture(GL_TEXTURE_2D, textures[way]);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_BGRA_EXT, width, height, 0, GL_BGRA_EXT, GL_UNSIGNED_BYTE, NULL);
        glBindFramebuffer(GL_FRAMEBUFFER, framebuffers[way]);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, textures[way], 0);
        if (way > 0) framebuffer_parameter(GL_FRAMEBUFFER, FLIP_Y_MESA, 1);
        if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) { fputs("framebuffer incomplete\n", stderr); return 1; }
    }
    glPixelStorei(GL_PACK_ROW_LENGTH, width);
    double *cpu = calloc((size_t)rounds * 3, sizeof *cpu);
    for (int round = 0; round < rounds; round++) {
        for (int way = 0; way < 3; way++) {
            glBindFramebuffer(GL_FRAMEBUFFER, framebuffers[way]);
            glPixelStorei(PACK_REVERSE_ROW_ORDER, way != 1);
            double start = thread_cpu();
            for (int frame = 0; frame < FRAMES; frame++) {
                glClearColor((float)frame / FRAMES, 0.5f, 0.2f, 1);
                glClear(GL_COLOR_BUFFER_BIT);
                // GL's bottom left corner, white.
                glEnable(GL_SCISSOR_TEST);
                glScissor(0, 0, 16, 16);
                glClearColor(1, 1, 1, 1);
                glClear(GL_COLOR_BUFFER_BIT);
                glDisable(GL_SCISSOR_TEST);
                glReadPixels(0, 0, width, height, GL_BGRA_EXT, GL_UNSIGNED_BYTE, buffers[frame & 1]);
            }
            cpu[way * rounds + round] = (thread_cpu() - start) / FRAMES;
            if (round == 0) {
                const unsigned char *last = buffers[(FRAMES - 1) & 1];
                printf("%-20s the bottom left corner in the buffer's %s row\n", names[way],
                       last[0] == 255 ? "first" : last[(size_t)(height - 1) * width * 4] == 255 ? "last" : "no");
            }
        }
    }
    for (int way = 0; way < 3; way++) {
        double *times = cpu + way * rounds;
        qsort(times, (size_t)rounds, sizeof *times, by_value);
        printf("%-20s %.3f ms a frame (median of %d rounds of %d), 20th percentile %.3f ms\n", names[way],
               times[rounds / 2] * 1e3, rounds, FRAMES, times[rounds / 5] * 1e3);
    }
    return 0;
}
C
cc -O2 -o "$work/readback" "$work/readback.c" -lEGL -lGLESv2
"$work/readback" "$rounds" "${size%x*}" "${size#*x}"
