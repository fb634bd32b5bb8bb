#version 300 es
// A show's picture (BGRA, opaque: a video's frame, a line of text in its colours, a plain
// colour) where show-copy.vert places it: a sample and nothing else, so that llvmpipe
// takes its linear path (see show-copy.vert).
precision mediump float;

uniform sampler2D u_picture;
in vec2 v_uv;
out vec4 fragColor;

void main() {
    fragColor = texture(u_picture, v_uv);
}
