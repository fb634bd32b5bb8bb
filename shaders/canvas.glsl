// Helpers for fragment shaders that draw into the picture rectangle u_canvas, which is
// also the viewport. Positions come from the interpolated v_uv, not gl_FragCoord:
// llvmpipe turned gl_FragCoord upside down when drawing into a framebuffer object after
// the window had been resized.
in vec2 v_uv;

// Position in the picture: (0,0) bottom left, (1,1) top right.
vec2 canvasUV() { return v_uv; }

// Position in picture pixels measured from the top left corner.
vec2 canvasPixel() {
    vec2 p = v_uv * u_canvas.zw;
    return vec2(p.x, u_canvas.w - p.y);
}

// Anti-aliased coverage of a band of half-width w around d = 0, in pixels.
float band(float d, float w) { return clamp(w + 0.5 - abs(d), 0.0, 1.0); }

// A smooth wave between -1 and 1 with period 1, much cheaper than sin on a CPU rasterizer.
float wave(float x) {
    float t = abs(fract(x) - 0.5) * 2.0;
    return t * t * (6.0 - 4.0 * t) - 1.0;
}

// The pointer (a ring with a dot) and touches (filled discs with a ring) on top of
// `color` at picture pixel `px`.
vec3 drawMarkers(vec3 color, vec2 px) {
    int count = int(u_motion.z);
    for (int i = 0; i < 10; i++) {
        if (i >= count) break;
        vec4 m = u_markers[i];
        float r = length(px - m.xy);
        float w = max(1.0, m.z / 10.0);
        if (m.w < 0.5) {
            color = mix(color, vec3(0.0), band(r - m.z, w * 1.5));
            color = mix(color, vec3(1.0), band(r - m.z, w * 0.6));
            color = mix(color, vec3(1.0), clamp(w * 2.0 + 0.5 - r, 0.0, 1.0));
        } else {
            color = mix(color, vec3(0.2, 0.75, 1.0), clamp(m.z + 0.5 - r, 0.0, 1.0) * 0.7);
            color = mix(color, vec3(1.0), band(r - m.z, w));
        }
    }
    return color;
}
