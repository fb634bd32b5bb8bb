#version 300 es
// The trivial scene (--scene triangle): weston-simple-egl's triangle, one colour per
// corner, turning about the vertical axis once every 1.8 seconds (a degree every 5 ms), so
// that its width, and the pixels it covers, change as in simple-egl. Used to compare CPU
// per frame: the same workload, frame by frame.
#include "frame.glsl"

out vec3 v_color;

void main() {
    const vec2 corners[3] = vec2[3](vec2(-0.5, -0.5), vec2(0.5, -0.5), vec2(0.0, 0.5));
    const vec3 colors[3] = vec3[3](vec3(1.0, 0.0, 0.0), vec3(0.0, 1.0, 0.0), vec3(0.0, 0.0, 1.0));
    float angle = mod(u_timing.x, 1.8) * 6.2831853 / 1.8;
    vec2 corner = corners[gl_VertexID];
    v_color = colors[gl_VertexID];
    gl_Position = vec4(corner.x * cos(angle), corner.y, corner.x * sin(angle), 1.0);
}
