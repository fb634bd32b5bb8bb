/// The text `--help` prints, per command: each command's own words, and its options as
/// ``OptionTable`` declares them.
enum Help {
    static let version = "0.1.0"

    static func text(for topic: String?) -> String {
        guard let command = topic.flatMap(CommandName.init(rawValue:)) else { return overview }
        return page(command).text
    }

    /// The options `command` takes, and whether each takes a value. For tests that walk
    /// every option.
    static func options(of command: String) -> [(name: String, takesValue: Bool)] {
        guard let command = CommandName(rawValue: command) else { return [] }
        return OptionTable.options(of: command).map { ($0.name, $0.value != nil) }
    }

    /// The column option texts start at, and the width lines wrap at.
    static let column = 26
    static let width = 80

    /// The Options section of `command`'s help: each option with its value's grammar,
    /// its text wrapped beside it (below it where the name is too long), then -h.
    static func optionList(_ command: CommandName) -> String {
        var lines: [String] = []
        for option in OptionTable.options(of: command) {
            let head = "  " + option.name + (option.value.map { " " + $0 } ?? "")
            let text = wrap(option.help, width: width - column)
            if head.count <= column - 2 {
                lines.append(head + String(repeating: " ", count: column - head.count) + text[0])
                lines += text.dropFirst().map { String(repeating: " ", count: column) + $0 }
            } else {
                lines.append(head)
                lines += text.map { String(repeating: " ", count: column) + $0 }
            }
        }
        lines.append("  -h, --help" + String(repeating: " ", count: column - 12) + "show this help")
        return lines.joined(separator: "\n")
    }

    /// `text` in lines of at most `width` characters, broken between words. An option's
    /// name never starts a line (it would read as an option of its own): the word before
    /// goes along with it.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [[Substring]] = [[]]
        var length = 0
        for word in text.split(separator: " ") {
            if length > 0 && length + 1 + word.count > width {
                let carried = word.hasPrefix("--") && lines[lines.count - 1].count > 1 ? [lines[lines.count - 1].removeLast()] : []
                lines.append(carried)
                length = carried.first?.count ?? 0
            }
            length += (length > 0 ? 1 : 0) + word.count
            lines[lines.count - 1].append(word)
        }
        return lines.map { $0.joined(separator: " ") }
    }

    /// What one command's help says besides its options: its usage lines (after
    /// "glout "), its summary for the overview, its description, and sections before the
    /// options. The man page and the shell completions are made of the same parts.
    struct Page: Sendable {
        let command: CommandName
        let summary: String
        let usage: [String]
        let description: String
        var sections: [(title: String, body: String)] = []

        var text: String {
            var text = "Usage: glout " + usage.joined(separator: "\n       glout ") + "\n\n" + description + "\n"
            for section in sections { text += "\n" + section.title + ":\n" + section.body + "\n" }
            return text + "\nOptions:\n" + optionList(command)
        }
    }

    static func page(_ command: CommandName) -> Page {
        switch command {
        case .run: run
        case .outputs: outputs
        case .protocols: protocols
        case .bench: bench
        case .snapshot: snapshot
        }
    }

    /// The first line of the overview.
    static let tagline = "drives every output of a Wayland session, each at its own refresh rate"

    static let exitStatus: [(status: Int, meaning: String)] = [
        (0, "done"), (1, "failed (graphics, shader, I/O)"), (2, "bad usage"), (3, "no compositor to connect to"),
        (4, "the compositor closed the connection or reported a protocol error"),
    ]

    static var overview: String {
        let commands = CommandName.allCases.map { command in
            "  " + command.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0) + page(command).summary
        }
        let statuses = exitStatus.map { "\($0.status) \($0.meaning)" }.joined(separator: ", ")
        return """
        glout \(version): \(tagline).

        Usage: glout [COMMAND] [OPTIONS]

        Commands:
        \(commands.joined(separator: "\n"))
          help CMD   show the options of CMD (help --man: the manual page in roff;
                     help --completion bash|zsh: a shell's completion script)

        Options:
          -h, --help     show this help (also after a command)
          -V, --version  print the version

        With no command, glout runs `glout run` with the options given.
        \(wrap("Exit status: " + statuses + ".", width: width).joined(separator: "\n"))
        """
    }

    static let outputs = Page(command: .outputs, summary: "list the outputs as the compositor describes them", usage: [
        "outputs [--json] [--primary NAME] [--watch [--duration S]]",
        "outputs --wall-json [--machine NAME] [--bezel [NAME=]B]...",
    ], description: """
    Lists the outputs in order (logical x, then y, then name), the primary
    marked with *: name, description, make and model, physical size, scale,
    transform, logical position and size, and every mode (current and preferred
    marked).
    """)

    static let protocols = Page(command: .protocols, summary: "list the compositor's globals and which of them glout uses",
                                usage: ["protocols [--json]"], description: """
    Lists every global the compositor offers (wl_registry), by interface, with
    the highest version offered, the version glout binds it at (- where glout
    does not use it; Mesa where Mesa's EGL binds it), and what glout uses it for.
    """)

    static let run = Page(command: .run, summary: "fill every output with a fullscreen GLES picture (the default)",
                          usage: ["[run] [OPTIONS]"], description: """
    Opens a fullscreen surface on every output and animates each from its own frame
    callbacks. Outputs that connect get a window at once, outputs that leave lose
    theirs; when the primary leaves, the next output takes the control view, and
    gets it back if it returns. Stop it with Ctrl-C (SIGINT) or SIGTERM; both exit
    cleanly with status 0.
    """, sections: [("Keys (in any glout window)", KeyBindings.helpText + """

    The pointer and every finger touching a window leave a marker on its output.
    """)])

    static let snapshot = Page(command: .snapshot, summary: "write one frame per output as a PNG, drawn offscreen", usage: [
        "snapshot --out DIR [OPTIONS]",
        "snapshot --canvas --out FILE.png [--canvas-scale S] [OPTIONS]",
    ], description: """
    Draws one frame per output offscreen, exactly the pixels glout would present on
    that output (same size, scale, layout and options), and writes DIR/NAME.png.
    Use --frozen T for a given moment (default: scene time 0). With --canvas, draws
    the whole span canvas (of --wall FILE, or of this machine's outputs) as one
    picture: each output's part is the same pixels as its own snapshot, and the
    canvas no screen shows (gaps, bezels) is dimmed. It prints where each part is.
    """)

    static let bench = Page(command: .bench, summary: "measure the frame pacing of every output",
                            usage: ["bench [OPTIONS]"], description: """
    Measures frame pacing on every output (or --outputs) for --duration seconds after
    a one-second warm-up, with a progress line on standard error, then prints per
    output: refresh, frames, frame rate, frame intervals (mean, standard deviation,
    p50, p99, p99.9, max, in ms and in refresh periods), missed refreshes (intervals
    over 1.5 periods), jank (intervals longer than the one before by more than half a
    period), the share of refreshes that showed a new frame, its share of all the
    outputs' frames as asked (its rate over their rates) and as got, render time
    (callback to commit), CPU per frame and the timing source: presentation feedback
    where the compositor answers it, else frame callbacks.
    """)
}
