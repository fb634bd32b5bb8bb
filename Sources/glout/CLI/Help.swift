/// The text `--help` prints, per command. Keep it in step with Arguments.swift, README.md and docs/usage.md.
enum Help {
    static let version = "0.1.0"

    static func text(for topic: String?) -> String {
        switch topic {
        case "outputs": outputs
        case "protocols": protocols
        case "run": run
        case "bench": bench
        case "snapshot": snapshot
        default: overview
        }
    }

    /// The options the help of `command` lists, and whether each takes a value (a
    /// placeholder such as FILE, [NAME=]N or a|b follows its name). For tests that walk
    /// every option.
    static func options(of command: String) -> [(name: String, takesValue: Bool)] {
        text(for: command).split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            guard let first = words.first, first.hasPrefix("--"), first != "--help" else { return nil }
            let placeholder = words.dropFirst().first.map { word in
                word.first.map { $0.isUppercase || $0 == "[" } == true || word.contains("|")
            } ?? false
            return (String(first), placeholder)
        }
    }

    static let overview = """
    glout \(version): drives every output of a Wayland session, each at its own refresh rate.

    Usage: glout [COMMAND] [OPTIONS]

    Commands:
      run        fill every output with a fullscreen GLES picture (the default)
      outputs    list the outputs as the compositor describes them
      protocols  list the compositor's globals and which of them glout uses
      bench      measure the frame pacing of every output
      snapshot   write one frame per output as a PNG, drawn offscreen
      help CMD   show the options of CMD

    Options:
      -h, --help     show this help (also after a command)
      -V, --version  print the version

    With no command, glout runs `glout run` with the options given.
    Exit status: 0 done, 1 failed (graphics, shader, I/O), 2 bad usage,
    3 no compositor to connect to, 4 the compositor closed the connection or
    reported a protocol error.
    """

    static let outputs = """
    Usage: glout outputs [--json] [--primary NAME] [--watch [--duration S]]
           glout outputs --wall-json [--machine NAME] [--bezel [NAME=]B]...

    Lists the outputs in order (logical x, then y, then name), the primary
    marked with *: name, description, make and model, physical size, scale,
    transform, logical position and size, and every mode (current and preferred
    marked).

    Options:
      --json          print JSON instead (schema in docs/json.md)
      --primary NAME  mark NAME as the primary (default: the first in order)
      --watch         print a line per event as outputs connect, change and
                      disconnect (the present ones first, as connected), until
                      interrupted; with --json, one JSON object per line
      --duration S    with --watch, stop after S seconds
      --wall-json     print this machine's outputs as a wall file for --wall:
                      machine, name, logical rectangle and bezels (points) of
                      each; merge the files of every machine into one
      --machine NAME  with --wall-json, the machine's name (default: the host
                      name)
      --bezel [NAME=]B
                      with --wall-json, the bezels, as run takes them
      -h, --help      show this help
    """

    static let protocols = """
    Usage: glout protocols [--json]

    Lists every global the compositor offers (wl_registry), by interface, with
    the highest version offered, the version glout binds it at (- where glout
    does not use it; Mesa where Mesa's EGL binds it), and what glout uses it for.

    Options:
      --json      print JSON instead (schema in docs/json.md)
      -h, --help  show this help
    """

    static let run = """
    Usage: glout [run] [OPTIONS]

    Opens a fullscreen surface on every output and animates each from its own frame
    callbacks. Outputs that connect get a window at once, outputs that leave lose
    theirs; when the primary leaves, the next output takes the control view, and
    gets it back if it returns. Stop it with Ctrl-C (SIGINT) or SIGTERM; both exit
    cleanly with status 0.

    Keys (in any glout window):
    \(KeyBindings.helpText)
    The pointer and every finger touching a window leave a marker on its output.

    Options:
    \(sceneOptions)
      --duration S        run S seconds, then exit with status 0
      --stats-json FILE   write per-output frame counts and rates to FILE on exit
                          (also of outputs that left, and if the compositor dies)
      --landings-json FILE
                          write each output's last frames (up to 4096), each
                          with its target and when it reached the screen, to FILE
                          on exit: two glouts' files give the seam between them
      --exit-when-no-outputs
                          exit with status 0 when no output is left, instead of
                          waiting for one to connect
      -h, --help          show this help
    """

    /// The options run, bench and snapshot share.
    static let sceneOptions = """
      --layout independent|mirror|span
                          independent (default): the primary shows the control
                          view, every other output the content view. mirror:
                          every output shows the primary's picture, letterboxed.
                          span: one canvas over the outputs' logical layout, each
                          output drawing its part, animated by the time each
                          frame is meant to reach the screen
      --control primary|none
                          the primary keeps the control view (primary, the
                          default), or shows what the others show (none): the
                          content view, or in span its part of the canvas
      --bezel [NAME=]B    span: hide the canvas behind the screens' frames. B is
                          MM or T,R,B,L in millimetres (through the physical size
                          the compositor reports), or the same with a px suffix in
                          logical points; for output NAME or every output
                          (repeatable)
      --wall FILE         span: one canvas over the outputs of several machines,
                          from a wall file (`glout outputs --wall-json`, merged);
                          this glout draws the outputs of its own machine
      --machine NAME      this machine's name in the wall file (default: the
                          host name)
      --clock monotonic|realtime
                          span and --content videos: time from CLOCK_MONOTONIC
                          since glout started (the default), or from CLOCK_REALTIME
                          (the default for a wall), which a time service such as
                          chrony or linuxptp keeps in step across machines; glout
                          itself sends nothing over the network. A video on the
                          realtime clock is at CLOCK_REALTIME modulo its length,
                          in any layout: the same frame at the same instant on
                          every machine that plays the file
      --video-sync time|speed
                          time (the default): each refresh shows the frame of its
                          target time. speed: a video within 1% of a whole number
                          of refreshes a frame plays at that rate instead (29.97
                          fps on 60 Hz at 30), every frame held alike; this does
                          not go with --clock realtime or --wall
      --video-conversion auto|shader|swscale
                          where a video's colours become RGB. shader: each
                          output converts each frame as it draws (a GPU's job).
                          swscale: libswscale converts each frame once, ahead of
                          time, for every output. auto (the default): swscale
                          where GL shades on the CPU (llvmpipe), else shader
      --video-decoder auto|software|vaapi
                          which decoder: vaapi, the GPU's (VA-API), or an error
                          saying why not; software, FFmpeg's on the CPU; auto
                          (the default): VA-API where a device opens and has
                          the codec, else software
      --scene views|triangle|pacing
                          views (default): the control and content views.
                          triangle: one turning triangle on black on every
                          output, weston-simple-egl's workload. pacing: a test
                          pattern for people and cameras on every output (a
                          frame-skip strip, squares at known speeds, a flash, the
                          pacing bar; see docs/usage.md)
      --flash-every N     pacing: a white flash over the whole output every N
                          refreshes (default 60; 0: none)
      --content [NAME=]FILE
                          show FILE instead of the content view on output NAME (or
                          every output), by what FILE holds, not its name: an
                          image (PNG, JPEG turned upright by its EXIF orientation,
                          WebP, or a still FFmpeg reads: GIF, BMP, TIFF), fitted
                          as --scale-mode says and drawn once (it costs nothing
                          while it stands); a GLSL ES 3.00 fragment shader
                          that may #include "frame.glsl" and "canvas.glsl" for
                          glout's inputs; or a video FFmpeg decodes or an animated
                          WebP (no sound),
                          looped, each refresh showing the frame its target time
                          calls for on the --clock (repeatable; the primary shows
                          it too with --control none). In span an image or video
                          covers the whole canvas, each output showing its piece.
                          A text file that does not start with #version is a
                          playlist: FILE [SECONDS] lines, looped on the --clock
      --primary NAME      the output that shows the control view (default: the
                          first in order, see `glout outputs`)
      --outputs A,B,...   open windows on these outputs only (default: all)
      --frozen T          draw every frame at scene time T seconds: a still picture,
                          drawn once and then nothing until something changes
      --no-live           the control view without its live rates and graphs, so
                          that with --frozen it stands still too
      --no-label          the content view without its corner label (the output's
                          name, mode, scale and role, the layout, a frame counter)
      --identify          every output shows its name in large type for the first
                          5 seconds (the i key shows or hides them at any time)
      --fps [NAME=]N      draw at most about N frames per second on output NAME
                          (or every output): every Nth refresh, the interval whose
                          rate is closest to N (repeatable; coupled pacing ignores it)
      --stall NAME=MS     add MS milliseconds of work to every frame of output NAME
                          (repeatable); the other outputs must not slow down
      --mode [NAME=]M     draw at mode M of the output (preferred, current, highest,
                          lowest or WxH[@HZ]) and let the compositor scale it to the
                          output (wp_viewporter); a size the output does not list
                          is an error unless --allow-custom
      --scale-mode fit|fill|stretch
                          how a --mode, or a --content image or video, of another
                          shape fits the output: fit (the default) keeps the
                          aspect with black bars, fill crops, stretch distorts
      --allow-custom      accept --mode sizes the output does not list
      --targets presented|estimated
                          what each frame is drawn for: presented (the default)
                          aims it at the refresh it will be presented at, learnt
                          from the compositor's presentation times, with a fifo
                          barrier where offered; estimated aims it at the frame
                          callback plus one period (to compare)
      --commit-timing     also give each commit its target refresh as a
                          commit-timing timestamp, where offered (off by default:
                          mutter 48.7 holds a commit timestamped ahead; glout then
                          remakes the surface and stops sending them ahead)
      --frame-path auto|egl|shm
                          how frames reach the compositor: shm (glout's own
                          wl_shm buffers, filled from a framebuffer: what auto
                          picks where the GPU is the CPU), egl (Mesa's EGL
                          window surface and eglSwapBuffers: auto elsewhere)
      --set-mode NAME=WxH[@HZ]
                          switch the output to that mode (wlr-output-management)
                          while glout runs and put the original back when it ends
                          (also after SIGINT, SIGTERM or an error); where the
                          compositor cannot, draw at that size as --mode does
      --overscan [NAME=]none|scale[:PCT]|inset[:T,R,B,L]
                          compensate a TV's overscan: scale shrinks the picture by
                          PCT percent (10) with black around it; inset keeps the
                          background to the edges and the foreground inside insets
                          in percent (5 on every edge)
      --safe-area [NAME=]T,R,B,L
                          keep the foreground this many points from each edge
      --shaders DIR       load the GLSL files from DIR instead of the built-in ones
    """

    static let snapshot = """
    Usage: glout snapshot --out DIR [OPTIONS]
           glout snapshot --canvas --out FILE.png [--canvas-scale S] [OPTIONS]

    Draws one frame per output offscreen, exactly the pixels glout would present on
    that output (same size, scale, layout and options), and writes DIR/NAME.png.
    Use --frozen T for a given moment (default: scene time 0). With --canvas, draws
    the whole span canvas (of --wall FILE, or of this machine's outputs) as one
    picture: each output's part is the same pixels as its own snapshot, and the
    canvas no screen shows (gaps, bezels) is dimmed. It prints where each part is.

    Options:
      --out DIR           the folder for the PNG files (made if missing)
      --canvas            draw the span canvas into --out FILE.png instead (its
                          test pattern: not with --content)
      --canvas-scale S    pixels per point of the canvas (default: the largest
                          scale of this machine's outputs in it, else 1)
    \(sceneOptions)
      -h, --help          show this help
    """

    static let bench = """
    Usage: glout bench [OPTIONS]

    Measures frame pacing on every output (or --outputs) for --duration seconds after
    a one-second warm-up, with a progress line on standard error, then prints per
    output: refresh, frames, frame rate, frame intervals (mean, standard deviation,
    p50, p99, p99.9, max, in ms and in refresh periods), missed refreshes (intervals
    over 1.5 periods), jank (intervals longer than the one before by more than half a
    period), the share of refreshes that showed a new frame, its share of all the
    outputs' frames as asked (its rate over their rates) and as got, render time
    (callback to commit), CPU per frame and the timing source: presentation feedback
    where the compositor answers it, else frame callbacks.

    Options:
      --duration S        seconds to measure (default 30)
      --pacing independent|coupled
                          independent (default): a display link and a render thread
                          per output. coupled: the usual loop, one thread,
                          eglSwapInterval(1), the surfaces swapped in turn
      --compare           run independent, then coupled, and print the ratio of
                          their frame rates per output
      --json FILE         write the report as JSON (schema in docs/json.md)
      --plot FILE.png     draw each output's frame intervals over time and their
                          histogram
    \(sceneOptions)
      -h, --help          show this help
    """
}
