#version 300 es
// One triangle that covers the viewport; no vertex buffer needed. v_uv is (0,0) at the
// viewport's bottom left and (1,1) at its top right.
out vec2 v_uv;

void main() {
    vec2 corner = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
    v_uv = corner;
    gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
