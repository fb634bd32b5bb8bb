/// The text `--help` prints, per command. Keep it in step with Arguments.swift and README.md.
enum Help {
    static let version = "0.1.0"

    static func text(for topic: String?) -> String {
        switch topic {
        case "outputs": outputs
        case "run": run
        default: overview
        }
    }

    static let overview = """
    glout \(version): drives every output of a Wayland session, each at its own refresh rate.

    Usage: glout [COMMAND] [OPTIONS]

    Commands:
      run        fill every output with a fullscreen GLES picture (the default)
      outputs    list the outputs as the compositor describes them
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
    Usage: glout outputs [--json] [--primary NAME]

    Lists the outputs in order (logical x, then y, then name), the primary first
    marked with *: name, description, make and model, physical size, scale,
    transform, logical position and size, and every mode (current and preferred
    marked).

    Options:
      --json          print JSON instead (schema in docs/json.md)
      --primary NAME  mark NAME as the primary (default: the first in order)
      -h, --help      show this help
    """

    static let run = """
    Usage: glout [run] [OPTIONS]

    Opens a fullscreen surface on every output and animates each from its own frame
    callbacks. Stop it with Ctrl-C (SIGINT) or SIGTERM; both exit cleanly with status 0.

    Options:
      --layout independent|mirror
                          independent (default): the primary shows the control
                          view, every other output the content view. mirror:
                          every output shows the primary's picture, letterboxed
      --primary NAME      the output that shows the control view (default: the
                          first in order, see `glout outputs`)
      --outputs A,B,...   open windows on these outputs only (default: all)
      --duration S        run S seconds, then exit with status 0
      --frozen T          draw every frame at scene time T seconds (still pictures)
      --stats-json FILE   write per-output frame counts and rates to FILE on exit
      --shaders DIR       load the GLSL files from DIR instead of the built-in ones
      -h, --help          show this help
    """
}
