#version 300 es
// The control view, shown on the primary output: a dark panel with a grid, a title band,
// a clock dial whose hand turns once every 4 seconds, and a tile per output. Where
// things go comes from SceneLayout (u_dial, u_tiles, u_timing.w); the grid and the
// background reach the picture's edges, the foreground stays in the safe area.
precision highp float;
#include "frame.glsl"
#include "canvas.glsl"

out vec4 fragColor;

void main() {
    vec2 px = canvasPixel();
    float h = u_canvas.w;
    float line = max(1.0, h / 480.0);
    vec3 color = mix(vec3(0.11, 0.13, 0.19), vec3(0.07, 0.09, 0.13), px.y / h);

    // Grid every 1/12 of the picture height, centred.
    float cell = h / 12.0;
    vec2 toLine = abs(fract((px - u_canvas.zw * 0.5) / cell + 0.5) - 0.5) * cell;
    float grid = max(band(toLine.x, line * 0.5), band(toLine.y, line * 0.5));
    color = mix(color, vec3(0.20, 0.24, 0.32), grid * 0.6);

    float bandHeight = u_timing.w;
    if (px.y < bandHeight) {
        // Title band across the top in the accent colour.
        color = mix(color, u_accent.rgb * 0.55, 0.9);
    }
    // A hairline exactly one device pixel high under the band, at any scale: its
    // centre sits on a pixel centre, so it covers that pixel row and nothing else.
    color = mix(color, vec3(0.93, 0.94, 0.97), band(px.y - (floor(bandHeight) + 0.5), 0.5));

    // Dial: a ring and a hand (its direction comes from the CPU).
    vec2 d = px - u_dial.xy;
    float r = length(d);
    float radius = u_dial.z;
    if (r < radius + line * 4.0) {
        color = mix(color, vec3(0.85, 0.88, 0.95), band(r - radius, line * 2.0));
        float along = dot(d, u_motion.xy);
        float across = abs(d.x * u_motion.y - d.y * u_motion.x);
        if (along > 0.0 && along < radius * 0.9)
            color = mix(color, u_accent.rgb, band(across, line * 3.0));
        if (r < line * 6.0) color = mix(color, vec3(0.9), band(r, line * 5.0));
    }

    // Output tiles: a grid with a tile per output, the primary's lit; the dashboard
    // writes each output's details on its tile.
    vec2 tile = (px - u_tiles.xy) / u_tiles.zw;
    if (all(greaterThanEqual(tile, vec2(0.0))) && all(lessThan(tile, vec2(1.0)))) {
        vec2 cell = tile * u_grid.xy;
        vec2 inside = fract(cell);
        float index = floor(cell.y) * u_grid.x + floor(cell.x);
        if (all(greaterThan(inside, vec2(0.04))) && all(lessThan(inside, vec2(0.96))) && index < max(u_grid.z, 1.0)) {
            bool lit = index == u_grid.w;
            color = lit ? u_accent.rgb * 0.55 : vec3(0.16, 0.19, 0.26);
        }
    }
    fragColor = vec4(color, 1.0);
}
