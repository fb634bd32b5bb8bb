#version 300 es
// Slow bands of colour for a show's zone: canvasUV() is the zone's, u_timing.x the seconds
// since the item began.
precision highp float;
#include "frame.glsl"
#include "canvas.glsl"

out vec4 fragColor;

void main() {
    vec2 uv = canvasUV();
    float t = u_timing.x;
    float band = 0.5 + 0.5 * wave(uv.x * 1.5 + uv.y * 0.7 + t * 0.05);
    vec3 deep = vec3(0.05, 0.12, 0.30);
    vec3 light = vec3(0.10, 0.45, 0.65);
    fragColor = vec4(mix(deep, light, band), 1.0);
}
