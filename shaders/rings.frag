#version 300 es
// The content view's rings alone, blended over the picture without them (the backdrop
// SceneRenderer keeps): white at the rings' coverage, as content.frag mixes them in.
// The colour fields under them are not shaded again each frame.
precision highp float;
#include "frame.glsl"
#include "canvas.glsl"

out vec4 fragColor;

void main() {
    vec2 px = canvasPixel();
    float r = length(px - u_rings.xy) / max(u_rings.z, 1.0);
    float cover = 0.0;
    if (r < 1.0) {
        float ring = smoothstep(0.35, 0.5, wave(r * 1.44 - u_timing.x * 0.48));
        cover = ring * 0.45 * smoothstep(0.97, 0.13, r);
    }
    fragColor = vec4(1.0, 1.0, 1.0, cover);
}
