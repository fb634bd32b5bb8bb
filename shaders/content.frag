#version 300 es
// The content view, shown on secondary outputs: colour fields to the picture's edges,
// rings expanding from the centre of the safe area, and a pacing bar that moves a fixed
// number of pixels every frame along the strip at the bottom of the safe area, so a
// dropped or doubled frame shows as a jump or a stop. Only the rings and the bar move
// (SceneLayout.dynamicRegions, SceneLayout.pacingBar).
precision highp float;
#include "frame.glsl"
#include "canvas.glsl"

out vec4 fragColor;

void main() {
    vec2 uv = canvasUV();
    vec2 px = canvasPixel();
    float t = u_timing.x;
    float aspect = u_canvas.z / u_canvas.w;
    vec2 p = (uv - 0.5) * vec2(aspect, 1.0);

    // Colour fields: three waves blend three colours and the accent.
    float a = wave(p.x * 0.5 + 0.2) + wave(p.y * 0.6 - 0.3);
    float b = wave((p.x + p.y) * 0.4 + 0.1);
    vec3 color = mix(vec3(0.85, 0.30, 0.45), vec3(0.20, 0.55, 0.90), a * 0.25 + 0.5);
    color = mix(color, vec3(0.95, 0.80, 0.25), b * 0.3 + 0.3);
    color = mix(color, u_accent.rgb, 0.2);

    // Rings expanding from the centre, fading out before the radius (left out of the
    // backdrop that rings.frag draws them over each frame: u_rings.w 1).
    float r = length(px - u_rings.xy) / max(u_rings.z, 1.0);
    if (r < 1.0 && u_rings.w < 0.5) {
        float ring = smoothstep(0.35, 0.5, wave(r * 1.44 - t * 0.48));
        color = mix(color, vec3(1.0), ring * 0.45 * smoothstep(0.97, 0.13, r));
    }

    // Pacing bar: 8 points per frame, wrapping at the strip's end; its left edge comes
    // from the CPU (u_motion.w), which shades only where it was and where it is.
    vec2 s = px - u_strip.xy;
    if (s.x >= 0.0 && s.y >= 0.0 && s.x < u_strip.z && s.y < u_strip.w) {
        float scale = u_timing.z;
        float barWidth = 12.0 * scale;
        float x = u_motion.w;
        if (s.x >= x && s.x < x + barWidth) color = vec3(1.0);
        if (s.y < scale) color = vec3(0.0);
    }
    fragColor = vec4(color, 1.0);
}
