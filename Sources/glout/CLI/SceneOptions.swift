import WaylandOutputs

/// The options run, bench and snapshot share: what is drawn, where and how.
extension OptionTable {
    private typealias Declaration = OptionDeclaration

    /// A per-output option ([NAME=]VALUE) whose value `parse` reads; its error names the
    /// grammar in `needs`.
    private static func perOutput<T>(_ name: String, _ value: String, help: String, needs: String,
                                      parse: @escaping @Sendable (String) -> T?,
                                      set: @escaping @Sendable (inout RunOptions, String, T) -> Void) -> Declaration {
        Declaration(name, value, CommandName.drawing, help: help) {
            (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in
            let (output, text) = try r.perOutput(for: name)
            guard let parsed = parse(text) else { throw r.error("\(name) needs \(needs), not '\(text)'") }
            set(&o.run, output, parsed)
        }
    }

    static let scene: [OptionDeclaration] = [
        Declaration("--layout", "independent|mirror|span", CommandName.drawing, help: """
            independent (default): the primary shows the control view, every other output the content view. mirror: \
            every output shows the primary's picture, letterboxed. span: one canvas over the outputs' logical layout, \
            each output drawing its part, animated by the time each frame is meant to reach the screen
            """) { (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in
            o.run.layout = try r.choice(for: "--layout", LayoutMode.self)
        },
        Declaration("--control", "primary|none", CommandName.drawing, help: """
            the primary keeps the control view (primary, the default), or shows what the others show (none): the \
            content view, or in span its part of the canvas
            """) { (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in
            o.run.showsControl = try r.choice(for: "--control", among: [("primary", true), ("none", false)])
        },
        Declaration("--bezel", "[NAME=]B", CommandName.drawing,
                    excludes: [("--wall", "--bezel: the wall file gives every output's bezels; set them there")], help: """
            span: hide the canvas behind the screens' frames. B is MM or T,R,B,L in millimetres (through the physical \
            size the compositor reports), or the same with a px suffix in logical points; for output NAME or every \
            output (repeatable)
            """) { (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in
            let (name, request) = try r.bezel(for: "--bezel")
            o.run.bezels[name] = request
        },
        Declaration("--wall", "FILE", CommandName.drawing, help: """
            span: one canvas over the outputs of several machines, from a wall file (`glout outputs --wall-json`, \
            merged); this glout draws the outputs of its own machine
            """) { (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in
            o.run.wallFile = try r.path(for: "--wall")
        },
        Declaration("--machine", "NAME", CommandName.drawing, help: "this machine's name in the wall file (default: the host name)") {
            (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in o.run.machine = try r.machine(for: "--machine")
        },
        Declaration("--clock", "monotonic|realtime", CommandName.drawing, help: """
            span and --content videos: time from CLOCK_MONOTONIC since glout started (the default), or from \
            CLOCK_REALTIME (the default for a wall), which a time service such as chrony or linuxptp keeps in step \
            across machines; glout itself sends nothing over the network. A video on the realtime clock is at \
            CLOCK_REALTIME modulo its length, in any layout: the same frame at the same instant on every machine that \
            plays the file
            """) { (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in
            o.run.clock = try r.choice(for: "--clock", SceneClock.self)
        },
        Declaration("--video-sync", "time|speed", CommandName.drawing, help: """
            time (the default): each refresh shows the frame of its target time. speed: a video within 1% of a whole \
            number of refreshes a frame plays at that rate instead (29.97 fps on 60 Hz at 30), every frame held alike; \
            this does not go with --clock realtime or --wall
            """) { (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in
            o.run.videoSync = try r.choice(for: "--video-sync", VideoSync.self)
        },
        Declaration("--video-conversion", "auto|shader|swscale", CommandName.drawing, help: """
            where a video's colours become RGB. shader: each output converts each frame as it draws (a GPU's job). \
            swscale: libswscale converts each frame once, ahead of time, for every output. auto (the default): swscale \
            where GL shades on the CPU (llvmpipe), else shader
            """) { (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in
            o.run.videoConversion = try r.choice(for: "--video-conversion", VideoConversion.self)
        },
        Declaration("--video-decoder", "auto|software|vaapi", CommandName.drawing, help: """
            which decoder: vaapi, the GPU's (VA-API), or an error saying why not; software, FFmpeg's on the CPU; auto \
            (the default): VA-API where a device opens and has the codec, else software
            """) { (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in
            o.run.videoDecoding = try r.choice(for: "--video-decoder", VideoDecoding.self)
        },
        Declaration("--scene", "views|triangle|pacing", CommandName.drawing, help: """
            views (default): the control and content views. triangle: one turning triangle on black on every output, \
            weston-simple-egl's workload. pacing: a test pattern for people and cameras on every output (a frame-skip \
            strip, squares at known speeds, a flash, the pacing bar; see docs/usage.md)
            """) { (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in
            o.run.scene = try r.choice(for: "--scene", SceneKind.self)
        },
        Declaration("--flash-every", "N", CommandName.drawing, help: """
            pacing: a white flash over the whole output every N refreshes (default 60; 0: none)
            """) { (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in
            let value = try r.value(for: "--flash-every")
            guard let count = Int(value), (0...100_000).contains(count) else {
                throw r.error("--flash-every needs a number of refreshes from 0 (no flash) to 100000, not '\(value)'")
            }
            o.run.flashEvery = count
        },
        Declaration("--content", "[NAME=]FILE", CommandName.drawing, help: """
            show FILE instead of the content view on output NAME (or every output), by what FILE holds, not its name: \
            an image (PNG, JPEG turned upright by its EXIF orientation, WebP, or a still FFmpeg reads: GIF, BMP, TIFF), \
            fitted as --scale-mode says and drawn once (it costs nothing while it stands); a GLSL ES 3.00 fragment \
            shader that may #include "frame.glsl" and "canvas.glsl" for glout's inputs; or a video FFmpeg decodes or an \
            animated WebP (no sound), looped, each refresh showing the frame its target time calls for on the --clock \
            (repeatable; the primary shows it too with --control none). In span an image or video covers the whole \
            canvas, each output showing its piece. A text file that does not start with #version is a playlist: FILE \
            [SECONDS] lines, looped on the --clock
            """) { (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in
            let (name, path) = try r.content(for: "--content")
            o.run.contents[name] = path
        },
        Declaration("--primary", "NAME", CommandName.drawing, help: """
            the output that shows the control view (default: the first in order, see `glout outputs`)
            """) { (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in
            o.run.primary = try r.name(for: "--primary")
        },
        Declaration("--outputs", "A,B,...", CommandName.drawing, help: "open windows on these outputs only (default: all)") {
            (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in o.run.outputs = try r.names(for: "--outputs")
        },
        Declaration("--frozen", "T", CommandName.drawing, help: """
            draw every frame at scene time T seconds: a still picture, drawn once and then nothing until something \
            changes (a show: T seconds since 1970, up to 4102444800, the year 2100)
            """) { (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in
            // Realtime seconds, for a show: still far from overflowing the monotonic clock in nanoseconds.
            let value = try r.value(for: "--frozen")
            guard let seconds = Double(value), seconds.isFinite, seconds >= 0, seconds <= 4_102_444_800 else {
                throw r.error("--frozen needs a number of seconds, 0 or more and at most 4102444800, not '\(value)'")
            }
            o.run.frozen = seconds
        },
        .flag("--no-live", CommandName.drawing, help: """
            the control view without its live rates and graphs, so that with --frozen it stands still too
            """) { $0.run.live = false },
        .flag("--no-label", CommandName.drawing, help: """
            the content view without its corner label (the output's name, mode, scale and role, the layout, a frame counter)
            """) { $0.run.label = false },
        .flag("--identify", CommandName.drawing, help: """
            every output shows its name in large type for the first 5 seconds (the i key shows or hides them at any time)
            """) { $0.run.identify = true },
        Declaration("--fps", "[NAME=]N", CommandName.drawing, help: """
            draw at most about N frames per second on output NAME (or every output): every Nth refresh, the interval \
            whose rate is closest to N (repeatable; coupled pacing ignores it)
            """) { (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in
            let (name, rate) = try r.rate(for: "--fps")
            o.run.framesPerSecond[name] = rate
        },
        Declaration("--stall", "NAME=MS", CommandName.drawing, help: """
            add MS milliseconds of work to every frame of output NAME (repeatable); the other outputs must not slow down
            """) { (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in
            let (name, milliseconds) = try r.stall(for: "--stall")
            o.run.stalls[name] = milliseconds
        },
        perOutput("--mode", "[NAME=]M", help: """
            draw at mode M of the output (preferred, current, highest, lowest or WxH[@HZ]) and let the compositor scale \
            it to the output (wp_viewporter); a size the output does not list is an error unless --allow-custom
            """, needs: "preferred, current, highest, lowest or WxH[@HZ] (1 to 16384 pixels, above 0 and at most 1000 Hz)",
                  parse: { ModeRequest($0) }, set: { $0.renderModes[$1] = $2 }),
        Declaration("--scale-mode", "fit|fill|stretch", CommandName.drawing, help: """
            how a --mode, or a --content image or video, of another shape fits the output: fit (the default) keeps the \
            aspect with black bars, fill crops, stretch distorts
            """) { (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in
            o.run.scaleMode = try r.choice(for: "--scale-mode", ScaleMode.self)
        },
        .flag("--allow-custom", CommandName.drawing, help: "accept --mode sizes the output does not list") { $0.run.allowCustom = true },
        Declaration("--targets", "presented|estimated", CommandName.drawing, help: """
            what each frame is drawn for: presented (the default) aims it at the refresh it will be presented at, learnt \
            from the compositor's presentation times, with a fifo barrier where offered; estimated aims it at the frame \
            callback plus one period (to compare)
            """) { (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in
            o.run.presentationTargets = try r.choice(for: "--targets", among: [("presented", true), ("estimated", false)])
        },
        .flag("--commit-timing", CommandName.drawing, help: """
            also give each commit its target refresh as a commit-timing timestamp, where offered (off by default: mutter \
            48.7 holds a commit timestamped ahead; glout then remakes the surface and stops sending them ahead)
            """) { $0.run.commitTiming = true },
        Declaration("--frame-path", "auto|egl|shm", CommandName.drawing, help: """
            how frames reach the compositor: shm (glout's own wl_shm buffers, filled from a framebuffer: what auto picks \
            where the GPU is the CPU), egl (Mesa's EGL window surface and eglSwapBuffers: auto elsewhere)
            """) { (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in
            o.run.framePath = try r.choice(for: "--frame-path",
                                           among: [("auto", .automatic), ("egl", .eglWindow), ("shm", .sharedMemory)])
        },
        Declaration("--set-mode", "NAME=WxH[@HZ]", CommandName.drawing, help: """
            switch the output to that mode (wlr-output-management) while glout runs and put the original back when it \
            ends (also after SIGINT, SIGTERM or an error); where the compositor cannot, draw at that size as --mode does
            """) { (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in
            let (name, value) = try r.perOutput(for: "--set-mode")
            guard !name.isEmpty, let request = ModeRequest(value), case .size = request else {
                throw r.error("--set-mode needs NAME=WxH[@HZ] (1 to 16384 pixels, above 0 and at most 1000 Hz), "
                              + "not '\(name.isEmpty ? value : name + "=" + value)'")
            }
            o.run.setModes[name] = request
        },
        Declaration("--overscan", "[NAME=]none|scale[:PCT]|inset[:T,R,B,L]", CommandName.drawing, help: """
            compensate a TV's overscan: scale shrinks the picture by PCT percent (10) with black around it; inset keeps \
            the background to the edges and the foreground inside insets in percent (5 on every edge)
            """) { (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in
            let (name, value) = try r.perOutput(for: "--overscan")
            o.run.overscan[name] = try r.overscan(value)
        },
        perOutput("--safe-area", "[NAME=]T,R,B,L", help: "keep the foreground this many points from each edge",
                  needs: "[NAME=]T,R,B,L in points (0 to 10000 each)",
                  parse: { text in
                      OptionReader.insets(text).flatMap { insets in
                          [insets.top, insets.right, insets.bottom, insets.left].allSatisfy { $0 <= 10_000 } ? insets : nil
                      }
                  }, set: { $0.safeAreas[$1] = $2 }),
        Declaration("--shaders", "DIR", CommandName.drawing, help: "load the GLSL files from DIR instead of the built-in ones") {
            (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in o.run.shaderDirectory = try r.path(for: "--shaders")
        },
    ]
}
