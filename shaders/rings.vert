#version 300 es
// The content view's rings are drawn on an octagon around the circle where they fade to
// nothing (0.97 of the radius, rings.frag), not on the whole viewport: the square's
// corners would shade a fifth more pixels only to blend nothing. Six triangles fanned
// from the first corner (18 vertices, no vertex buffer). v_uv is as fullscreen.vert
// gives it: (0,0) at the viewport's bottom left, (1,1) at its top right.
#include "frame.glsl"

out vec2 v_uv;

void main() {
    int triangle = gl_VertexID / 3;
    int corner = gl_VertexID - triangle * 3;
    int index = corner == 0 ? 0 : triangle + corner;
    // Corners at 22.5 + 45k degrees, far enough out that the edges clear the circle.
    float angle = (float(index) + 0.5) * 0.78539816;
    float reach = 0.97 * max(u_rings.z, 1.0) / 0.92387953 + 1.0;
    vec2 px = u_rings.xy + reach * vec2(cos(angle), sin(angle));
    v_uv = vec2(px.x / u_canvas.z, 1.0 - px.y / u_canvas.w);
    gl_Position = vec4(v_uv * 2.0 - 1.0, 0.0, 1.0);
}
