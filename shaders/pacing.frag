#version 300 es
// --scene pacing, a test pattern for people and cameras (README: "Reading the pacing
// scene"): a frame-skip strip with one cell lit per refresh, squares moving at 240, 480,
// 960 and 1920 pixels per second, the pacing bar that moves 8 points per frame, and a
// white flash over everything on every Nth refresh. Positions come from PacingLayout.
precision highp float;
#include "frame.glsl"
#include "canvas.glsl"

out vec4 fragColor;

void main() {
    vec2 px = canvasPixel();
    if (u_pacing0.z > 0.5) {
        fragColor = vec4(1.0);
        return;
    }
    vec3 color = vec3(0.09, 0.10, 0.12);
    float scale = u_timing.z;

    // The strip: cells with a gap between them; the lit one white, the rest dark grey.
    vec2 s = px - u_pacing1.xy;
    if (s.x >= 0.0 && s.y >= 0.0 && s.x < u_pacing1.z && s.y < u_pacing1.w) {
        float width = u_pacing1.z / u_pacing0.y;
        float cell = floor(s.x / width);
        float inside = s.x - cell * width;
        float gap = max(1.0, floor(width * 0.12));
        if (inside >= gap * 0.5 && inside < width - gap * 0.5) {
            color = cell == u_pacing0.x ? vec3(1.0) : vec3(0.22, 0.24, 0.28);
        }
    }

    // Four rows of squares, each twice as fast as the one above; they wrap at the edge.
    float band = u_pacing0.w;
    float size = u_pacing2.y;
    float row = floor((px.y - u_pacing2.x) / band);
    if (row >= 0.0 && row < 4.0) {
        float top = u_pacing2.x + row * band + (band - size) * 0.5;
        float speed = 240.0 * exp2(row);
        float x = mod(u_timing.x * speed, u_canvas.z + size) - size;
        if (px.y >= top && px.y < top + size && px.x >= x && px.x < x + size) color = vec3(1.0);
        // A line under each row, for the eye to follow.
        if (abs(px.y - (top + size + 2.0 * scale)) < 0.5 * scale) color = vec3(0.30, 0.33, 0.38);
    }

    // The pacing bar of the content view: 8 points per frame along the strip.
    vec2 b = px - u_strip.xy;
    if (b.x >= 0.0 && b.y >= 0.0 && b.x < u_strip.z && b.y < u_strip.w) {
        float barWidth = 12.0 * scale;
        float x = mod(u_timing.y * 8.0 * scale, u_strip.z + barWidth) - barWidth;
        color = b.x >= x && b.x < x + barWidth ? vec3(1.0) : vec3(0.16, 0.17, 0.20);
    }
    fragColor = vec4(color, 1.0);
}
