#version 300 es
// The trivial scene (--scene triangle): one triangle with a colour per corner, turning
// once every 5 seconds, as weston-simple-egl draws it. Used to compare CPU per frame.
#include "frame.glsl"

out vec3 v_color;

void main() {
    const vec2 corners[3] = vec2[3](vec2(-0.5, -0.5), vec2(0.5, -0.5), vec2(0.0, 0.5));
    const vec3 colors[3] = vec3[3](vec3(1.0, 0.0, 0.0), vec3(0.0, 1.0, 0.0), vec3(0.0, 0.0, 1.0));
    float angle = u_timing.x * 6.2831853 / 5.0;
    mat2 turn = mat2(cos(angle), sin(angle), -sin(angle), cos(angle));
    v_color = colors[gl_VertexID];
    gl_Position = vec4(turn * corners[gl_VertexID], 0.0, 1.0);
}
