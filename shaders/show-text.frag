#version 300 es
// A show's text (a label, a clock or a ticker): the line's coverage (R8, FreeType) placed
// by u_image in the zone, in u_textColour over u_textBackground, opaque, so that a
// crossfade mixes it as one picture.
precision highp float;
#include "frame.glsl"
#include "canvas.glsl"

uniform sampler2D u_picture;
out vec4 fragColor;

void main() {
    vec2 t = (canvasPixel() - u_image.xy) / u_image.zw;
    float coverage = 0.0;
    if (t.x >= 0.0 && t.y >= 0.0 && t.x < 1.0 && t.y < 1.0) coverage = texture(u_picture, t).r;
    fragColor = vec4(mix(u_textBackground.rgb, u_textColour.rgb, coverage), 1.0);
}
