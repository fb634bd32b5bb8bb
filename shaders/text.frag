#version 300 es
// Glyph coverage from the atlas (red channel) as the alpha of the vertex colour.
precision mediump float;

uniform sampler2D u_atlas;
in vec2 v_texel;
in vec4 v_color;
out vec4 fragColor;

void main() {
    float coverage = texture(u_atlas, v_texel).r;
    fragColor = vec4(v_color.rgb, v_color.a * coverage);
}
