#version 300 es
// The content view, shown on secondary outputs: moving colour fields, rings around the
// centre, and a pacing bar that moves a fixed number of pixels every frame, so a
// dropped or doubled frame shows as a jump or a stop.
precision highp float;
#include "frame.glsl"

out vec4 fragColor;

void main() {
    vec2 uv = canvasUV();
    float t = u_timing.x;
    float aspect = u_canvas.z / u_canvas.w;
    vec2 p = (uv - 0.5) * vec2(aspect, 1.0);

    // Slowly moving colour fields.
    float wave = sin(p.x * 3.0 + t * 0.7) + sin(p.y * 4.0 - t * 0.9) + sin((p.x + p.y) * 2.5 + t * 0.5);
    vec3 color = 0.5 + 0.35 * cos(vec3(0.0, 2.1, 4.2) + wave * 0.9 + t * 0.3);
    color = mix(color, u_accent.rgb, 0.25);

    // Rings expanding from the centre.
    float r = length(p);
    float ring = smoothstep(0.35, 0.5, sin(r * 18.0 - t * 3.0));
    color = mix(color, vec3(1.0), ring * 0.35 * smoothstep(0.5, 0.1, r));

    // Pacing bar: 8 points per frame, wrapping at the right edge.
    float scale = u_timing.z;
    float barWidth = 12.0 * scale;
    float travel = u_canvas.z + barWidth;
    float x = mod(u_timing.y * 8.0 * scale, travel) - barWidth;
    vec2 px = canvasPixel();
    if (px.x >= x && px.x < x + barWidth && px.y > u_canvas.w * 0.9) color = vec3(1.0);
    if (px.y > u_canvas.w * 0.9 && px.y < u_canvas.w * 0.9 + scale) color = vec3(0.0);

    fragColor = vec4(color, 1.0);
}
