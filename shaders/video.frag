#version 300 es
// A video of the user's (--content FILE): the decoded frame's Y plane and its plane of U
// and V pairs, sampled here and turned into RGB with the frame's matrix and range (u_video0, u_video1), so the
// CPU converts no colour. Always drawn at the video's own size: straight into the
// picture where --scale-mode puts it at that size, else into a layer of its own that a
// filtered blit scales into the picture (one filtered sample a pixel there, not three).
precision highp float;
#include "frame.glsl"
#include "canvas.glsl"

uniform sampler2D u_plane0;  // Y
uniform sampler2D u_plane1;  // U (Cb) in r, V (Cr) in g: two texture reads a pixel, not three
out vec4 fragColor;

void main() {
    // The planes' first row is the picture's top; the layer's top is its last row.
    vec2 t = vec2(v_uv.x, 1.0 - v_uv.y);
    float y = (texture(u_plane0, t).r - u_video0.x) * u_video0.y;
    vec2 c = (texture(u_plane1, t).rg - u_video0.z) * u_video0.w;
    float cb = c.x;
    float cr = c.y;
    vec3 rgb = vec3(y + u_video1.x * cr, y - u_video1.y * cb - u_video1.z * cr, y + u_video1.w * cb);
    fragColor = vec4(clamp(rgb, 0.0, 1.0), 1.0);
}
