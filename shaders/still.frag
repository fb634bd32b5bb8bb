#version 300 es
// Copies the still layer of a view (drawn once into a texture the size of the
// framebuffer) to the same pixels of the framebuffer; the viewport is the whole
// framebuffer, so v_uv times the texture size is the pixel.
precision highp float;

uniform sampler2D u_still;
in vec2 v_uv;
out vec4 fragColor;

void main() { fragColor = texelFetch(u_still, ivec2(v_uv * vec2(textureSize(u_still, 0))), 0); }
