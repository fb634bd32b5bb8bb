// The per-frame values every view reads: one uniform buffer per output's context.
layout(std140) uniform Frame {
    vec4 u_canvas;  // x, y, width, height of the picture in framebuffer pixels
    vec4 u_accent;  // rgb accent colour, a unused
    vec4 u_timing;  // scene time in seconds, frame index, pixels per point, unused
    vec4 u_motion;  // dial hand direction (x, y; y down), unused, unused
};
