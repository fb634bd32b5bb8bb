// The per-frame values every view reads: one uniform buffer per output's context.
// Positions are in picture pixels from the picture's top left corner (SceneLayout).
layout(std140) uniform Frame {
    vec4 u_canvas;  // x, y, width, height of the picture in framebuffer pixels
    vec4 u_accent;  // rgb accent colour, a unused
    vec4 u_timing;  // scene time in seconds, frame index, pixels per point, title band height
    vec4 u_motion;  // dial hand direction (x, y; y down), marker count, the content
                    // view's pacing bar: its left edge in the strip (picture pixels)
    vec4 u_dial;    // dial centre x, y, radius, unused
    vec4 u_tiles;   // output tiles x, y, width, height
    vec4 u_rings;   // rings centre x, y, radius, 1 to leave them out (content.frag)
    vec4 u_strip;   // pacing strip x, y, width, height
    vec4 u_safe;    // safe area x, y, width, height: the built-in views place their
                    // foreground inside it through the layout; for shaders of --shaders DIR
    vec4 u_markers[10];  // pointer and touches: x, y, radius, kind (0 pointer, 1 touch)
    vec4 u_grid;    // tile columns, rows, count, index of the primary's tile (-1: none)
    vec4 u_span0;   // span: canvas pixel of the picture's top left (x, y), pixels per point (x, y)
    vec4 u_span1;   // span: canvas size in points (w, h), the bar's left edge (points), lit cell
    vec4 u_span2;   // span: the row of cells in picture pixels (x, y, w, h; empty: none)
    vec4 u_image;   // --content image: where it goes in picture pixels (x, y, w, h)
    vec4 u_pacing0; // --scene pacing: lit cell, cell count, flash (1: this frame), band height
    vec4 u_pacing1; // --scene pacing: the frame-skip strip (x, y, w, h)
    vec4 u_pacing2; // --scene pacing: first object row's top, object size, unused, unused
    vec4 u_video0;  // --content video: Y offset and scale, U/V offset and scale (0 to 1 texels)
    vec4 u_video1;  // --content video: R from V, G from U, G from V, B from U
    vec4 u_ringBands; // the content view's rings: the two bands they cover (RingBands), inner
                      // and outer radius of each in picture pixels (rings.vert)
    vec4 u_copyArea;       // a show's picture copied (show-copy.vert): the whole pixels it covers
                           // (x, y, w, h, from the zone's top left)
};
