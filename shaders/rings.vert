#version 300 es
// The content view's rings are drawn only on the two bands where rings.frag covers
// anything (u_ringBands, from RingBands): the pixels between the rings, where they blend
// nothing, are not shaded. Each band is a ring of 32 quads, its outer corners far enough
// out that the edges clear the outer circle, its inner corners on the inner circle; an
// empty band (outer <= inner) collapses to a point. SceneRenderer draws
// `ringVertexCount` vertices with no vertex buffer. v_uv is as fullscreen.vert gives it:
// (0,0) at the viewport's bottom left, (1,1) at its top right.
#include "frame.glsl"

out vec2 v_uv;

const int segments = 32;

void main() {
    int quad = gl_VertexID / 6;
    int corner = gl_VertexID - quad * 6;
    int band = quad / segments;
    int segment = quad - band * segments;
    vec2 radii = band == 0 ? u_ringBands.xy : u_ringBands.zw;
    // Two triangles a quad: (outer 0, outer 1, inner 0), (inner 0, outer 1, inner 1).
    bool isOuter = corner == 0 || corner == 1 || corner == 4;
    int step = (corner == 1 || corner == 4 || corner == 5) ? 1 : 0;
    float angle = float(segment + step) * (6.28318531 / float(segments));
    // Corners 1 / cos(pi / 32) out put the outer edges beyond the circle.
    float reach = isOuter ? radii.y / 0.99518473 : max(radii.x, 0.0);
    if (radii.y <= radii.x) reach = 0.0;
    vec2 px = u_rings.xy + reach * vec2(cos(angle), sin(angle));
    v_uv = vec2(px.x / u_canvas.z, 1.0 - px.y / u_canvas.w);
    gl_Position = vec4(v_uv * 2.0 - 1.0, 0.0, 1.0);
}
