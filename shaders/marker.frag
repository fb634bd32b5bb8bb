#version 300 es
// The pointer and touch markers, drawn over the finished picture of an output (blended:
// transparent away from the markers).
precision highp float;
#include "frame.glsl"
#include "canvas.glsl"

out vec4 fragColor;

void main() {
    vec2 px = canvasPixel();
    // drawMarkers mixes towards the marker colours: run it on black and on white to get
    // the colour and how much of it covers this pixel.
    vec3 onBlack = drawMarkers(vec3(0.0), px);
    vec3 onWhite = drawMarkers(vec3(1.0), px);
    float coverage = 1.0 - (onWhite.g - onBlack.g);
    if (coverage <= 0.0) discard;
    fragColor = vec4(onBlack / max(coverage, 1e-3), coverage);
}
