#version 300 es
// An image of the user's (--content FILE.png): placed by u_image in the picture, as
// --scale-mode fits it, black around it.
precision highp float;
#include "frame.glsl"
#include "canvas.glsl"

uniform sampler2D u_picture;
out vec4 fragColor;

void main() {
    vec2 t = (canvasPixel() - u_image.xy) / u_image.zw;
    // Sampled before any pixel of the quad leaves: the mip level comes from how t changes
    // across the quad, which is undefined once some of its pixels have returned.
    vec4 texel = texture(u_picture, t);
    if (t.x < 0.0 || t.y < 0.0 || t.x >= 1.0 || t.y >= 1.0) {
        fragColor = vec4(0.0, 0.0, 0.0, 1.0);
        return;
    }
    // Alpha over black: the surface is opaque.
    fragColor = vec4(texel.rgb * texel.a, 1.0);
}
