#version 300 es
// The content view, shown on secondary outputs: moving colour fields, rings around the
// centre, and a pacing bar that moves a fixed number of pixels every frame, so a
// dropped or doubled frame shows as a jump or a stop.
precision highp float;
#include "frame.glsl"
#include "canvas.glsl"

out vec4 fragColor;

void main() {
    vec2 uv = canvasUV();
    float t = u_timing.x;
    float aspect = u_canvas.z / u_canvas.w;
    vec2 p = (uv - 0.5) * vec2(aspect, 1.0);

    // Colour fields: three waves blend three colours and the accent. They stand still:
    // only the rings and the pacing strip move (SceneRenderer.dynamicRegions).
    float a = wave(p.x * 0.5 + 0.2) + wave(p.y * 0.6 - 0.3);
    float b = wave((p.x + p.y) * 0.4 + 0.1);
    vec3 color = mix(vec3(0.85, 0.30, 0.45), vec3(0.20, 0.55, 0.90), a * 0.25 + 0.5);
    color = mix(color, vec3(0.95, 0.80, 0.25), b * 0.3 + 0.3);
    color = mix(color, u_accent.rgb, 0.2);

    // Rings expanding from the centre, fading out before 0.3 (of the height) from it.
    float r = length(p);
    float ring = smoothstep(0.35, 0.5, wave(r * 4.8 - t * 0.48));
    color = mix(color, vec3(1.0), ring * 0.45 * smoothstep(0.29, 0.04, r));

    // Pacing bar in the bottom tenth: 8 points per frame, wrapping at the right edge.
    vec2 px = canvasPixel();
    if (px.y > u_canvas.w * 0.9) {
        float scale = u_timing.z;
        float barWidth = 12.0 * scale;
        float x = mod(u_timing.y * 8.0 * scale, u_canvas.z + barWidth) - barWidth;
        if (px.x >= x && px.x < x + barWidth) color = vec3(1.0);
        if (px.y < u_canvas.w * 0.9 + scale) color = vec3(0.0);
    }
    fragColor = vec4(color, 1.0);
}
