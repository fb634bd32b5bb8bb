#version 300 es
// The span view: this output's part of one canvas across the outputs (SpanView). Every
// value comes from the whole canvas pixel number and the density, so a part is exactly
// the same rectangle of the canvas drawn whole. Hard edges, no anti-aliasing: a test
// finds the lines by their colour.
precision highp float;
#include "frame.glsl"
#include "canvas.glsl"

out vec4 fragColor;

const float BAR_WIDTH = 24.0;   // SpanView.barWidth
const float CELL_COUNT = 10.0;  // SpanView.cellCount

void main() {
    vec2 local = floor(canvasPixel());           // picture pixel, top left origin
    vec2 pixel = u_span0.xy + local;             // canvas pixel
    vec2 point = (pixel + 0.5) / u_span0.zw;     // canvas point at its centre
    vec2 uv = point / max(u_span1.xy, vec2(1.0));

    // A gradient over the whole canvas: blue to purple across, turning green and amber down.
    vec3 top = mix(vec3(0.10, 0.20, 0.45), vec3(0.50, 0.15, 0.42), uv.x);
    vec3 bottom = mix(vec3(0.08, 0.40, 0.32), vec3(0.58, 0.42, 0.10), uv.x);
    vec3 color = mix(top, bottom, uv.y);

    // A grid every 100 points, one point wide.
    vec2 grid = mod(point, 100.0);
    if (grid.x < 1.0 || grid.y < 1.0) color = mix(color, vec3(1.0), 0.3);

    // Lines at 45 degrees every 200 points, 4 points wide: straight across the seams
    // only where the bezels are accounted for.
    if (mod(point.x - point.y, 200.0) < 4.0) color = vec3(0.95);

    // The bar: black edges, a yellow core.
    float bar = point.x - u_span1.z;
    if (bar >= 0.0 && bar < BAR_WIDTH) {
        color = (bar < 2.0 || bar >= BAR_WIDTH - 2.0) ? vec3(0.0) : vec3(1.0, 0.85, 0.1);
    }

    // This part's row of cells: the lit one white, the others dark.
    vec2 c = local - u_span2.xy;
    if (c.x >= 0.0 && c.y >= 0.0 && c.x < u_span2.z && c.y < u_span2.w) {
        float width = u_span2.z / CELL_COUNT;
        float cell = floor(c.x / width);
        float inside = c.x - cell * width;
        float gap = max(1.0, floor(width / 8.0));
        color = vec3(0.0);
        if (inside >= gap && inside < width - gap && c.y >= gap && c.y < u_span2.w - gap) {
            color = abs(cell - u_span1.w) < 0.5 ? vec3(1.0) : vec3(0.22);
        }
    }
    fragColor = vec4(color, 1.0);
}
