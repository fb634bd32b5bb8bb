#version 300 es
// A picture copied to its place in a show's zone (the viewport): two triangles over the
// whole pixels it covers, u_copyArea, textured so that the picture's corners fall on
// u_image (picture pixels from the zone's top left, as image.frag reads it; a negative
// height turns the picture over). Drawn as a rectangle, with a fragment shader that only
// samples, llvmpipe copies it on its linear path: a fraction of image.frag's cost per
// pixel.
#include "frame.glsl"

out vec2 v_uv;

void main() {
    // Corners of two triangles: (0,0) (1,0) (0,1) and (0,1) (1,0) (1,1).
    const vec2 corners[6] = vec2[6](vec2(0.0, 0.0), vec2(1.0, 0.0), vec2(0.0, 1.0),
                                    vec2(0.0, 1.0), vec2(1.0, 0.0), vec2(1.0, 1.0));
    vec2 p = u_copyArea.xy + corners[gl_VertexID] * u_copyArea.zw;
    v_uv = (p - u_image.xy) / u_image.zw;
    gl_Position = vec4(p.x / u_canvas.z * 2.0 - 1.0, 1.0 - p.y / u_canvas.w * 2.0, 0.0, 1.0);
}
