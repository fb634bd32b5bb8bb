#version 300 es
// The dashboard's text and graphs: quads in framebuffer pixels (top left origin),
// textured from the glyph atlas, one colour per vertex.
layout(std140) uniform Text {
    vec4 u_target;  // framebuffer width, height, atlas width, atlas height
};

layout(location = 0) in vec2 a_position;
layout(location = 1) in vec2 a_texel;
layout(location = 2) in vec4 a_color;

out vec2 v_texel;
out vec4 v_color;

void main() {
    v_texel = a_texel / u_target.zw;
    v_color = a_color;
    vec2 ndc = a_position / u_target.xy * 2.0 - 1.0;
    gl_Position = vec4(ndc.x, -ndc.y, 0.0, 1.0);
}
