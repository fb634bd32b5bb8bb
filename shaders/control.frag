#version 300 es
// The control view, shown on the primary output: a dark panel with a grid, a clock dial
// whose hand turns once every 4 seconds, and one tile per output.
precision highp float;
#include "frame.glsl"

out vec4 fragColor;

void main() {
    vec2 uv = canvasUV();
    float h = u_canvas.w;
    float line = max(1.0, h / 480.0);
    vec3 color = mix(vec3(0.07, 0.09, 0.13), vec3(0.11, 0.13, 0.19), uv.y);

    // Grid every 1/12 of the picture height, centred.
    vec2 cell = (gl_FragCoord.xy - u_canvas.xy - u_canvas.zw * 0.5) / (h / 12.0);
    vec2 toLine = (fract(cell + 0.5) - 0.5) * (h / 12.0);
    float grid = max(band(toLine.x, line * 0.5), band(toLine.y, line * 0.5));
    color = mix(color, vec3(0.20, 0.24, 0.32), grid * 0.6);

    // Title band across the top in the accent colour.
    vec2 px = canvasPixel();
    if (px.y < h * 0.08) color = mix(color, u_accent.rgb * 0.55, 0.9);

    // Dial: a ring and a hand at 0.25 turns per second.
    vec2 centre = vec2(u_canvas.z * 0.25, h * 0.52);
    vec2 d = px - centre;
    float r = length(d);
    float radius = h * 0.28;
    color = mix(color, vec3(0.85, 0.88, 0.95), band(r - radius, line * 2.0));
    float angle = u_timing.x * 6.2831853 * 0.25;
    vec2 hand = vec2(sin(angle), -cos(angle));
    float along = dot(d, hand);
    float across = abs(d.x * hand.y - d.y * hand.x);
    if (along > 0.0 && along < radius * 0.9)
        color = mix(color, u_accent.rgb, band(across, line * 3.0));
    color = mix(color, vec3(0.9), band(r, line * 5.0) * step(r, line * 6.0));

    // Output tiles: four panels on the right half, the first lit.
    vec2 tile = (px - vec2(u_canvas.z * 0.55, h * 0.2)) / vec2(u_canvas.z * 0.4, h * 0.64);
    if (all(greaterThanEqual(tile, vec2(0.0))) && all(lessThan(tile, vec2(1.0)))) {
        vec2 slot = tile * vec2(2.0, 2.0);
        vec2 inside = fract(slot);
        float edge = min(min(inside.x, 1.0 - inside.x), min(inside.y, 1.0 - inside.y));
        bool lit = floor(slot.x) == 0.0 && floor(slot.y) == 0.0;
        vec3 fill = lit ? u_accent.rgb * 0.8 : vec3(0.16, 0.19, 0.26);
        if (edge > 0.04) color = fill;
    }
    fragColor = vec4(color, 1.0);
}
