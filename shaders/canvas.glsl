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
