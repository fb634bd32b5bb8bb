/// glout(1), in roff's man macros, made of the same parts as `--help` (``Help`` and
/// ``OptionTable``): `glout help --man` prints it, and scripts/package installs it.
enum Manual {
    static var page: String {
        var out = """
        .TH GLOUT 1 "" "glout \(Help.version)" "User Commands"
        .SH NAME
        glout \\- \(escape(Help.tagline))
        .SH SYNOPSIS
        .B glout
        [\\fICOMMAND\\fR] [\\fIOPTIONS\\fR]
        .br
        .B glout help
        [\\fICOMMAND\\fR | \\fB\\-\\-man\\fR | \\fB\\-\\-completion\\fR \\fBbash\\fR|\\fBzsh\\fR]
        .SH DESCRIPTION
        \(escape(description))
        .PP
        With no command, glout runs
        .B glout run
        with the options given.

        """
        out += ".SH COMMANDS\n"
        for command in CommandName.allCases {
            let page = Help.page(command)
            out += ".SS \(command.rawValue)\n.nf\n"
            out += page.usage.map { "\\fBglout\\fR " + escape($0) }.joined(separator: "\n") + "\n.fi\n"
            out += ".PP\n" + escape(page.description) + "\n"
            for section in page.sections {
                out += ".PP\n\(escape(section.title)):\n.PP\n.nf\n\(escape(section.body))\n.fi\n"
            }
            out += ".PP\nOptions:\n"
            for option in OptionTable.options(of: command) {
                out += ".TP\n\\fB\(escape(option.name))\\fR"
                if let value = option.value { out += " \\fI\(escape(value))\\fR" }
                out += "\n" + escape(option.help) + "\n"
            }
            out += ".TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nshow the command's options\n"
        }
        out += ".SH EXIT STATUS\n"
        for (status, meaning) in Help.exitStatus { out += ".TP\n.B \(status)\n\(escape(meaning))\n" }
        out += ".SH ENVIRONMENT\n"
        for (name, meaning) in environment { out += ".TP\n.B \(name)\n\(escape(meaning))\n" }
        out += """
        .SH FILES
        .TP
        .I /etc/glout/show.json
        The show the kiosk unit (glout\\-kiosk.service) plays.
        .TP
        .I /etc/default/glout
        The kiosk unit's settings: GLOUT_OPTIONS, further options for glout run.
        .SH SEE ALSO
        .BR cage (1),
        .BR sway (1),
        .BR systemd.service (5),
        .BR sd_notify (3);
        the guides in /usr/share/doc/glout (usage, shows, control, deploy).

        """
        return out
    }

    static let description = """
    glout drives every output of a Wayland session at once. It binds each wl_output, \
    learns its modes, scale, transform and place, puts one fullscreen EGL/GLES surface on \
    each, and paces each output from that output's own frame callbacks, like a per-screen \
    display link. It shows a control view on the primary output and content on the others, \
    the same picture mirrored on all, one picture spanning them, or a show of zones and \
    playlists; it follows outputs as they come and go, and can be driven while it runs over \
    HTTP and OSC.
    """

    /// The environment glout reads.
    static let environment: [(name: String, meaning: String)] = [
        ("WAYLAND_DISPLAY", "the compositor's socket, in $XDG_RUNTIME_DIR (default wayland-0), or an absolute path"),
        ("XDG_RUNTIME_DIR", "where the compositor's socket is"),
        ("GLOUT_DEBUG", "when set, log every detail (debug lines)"),
        ("NOTIFY_SOCKET", "systemd's notification socket (a path, or @ and an abstract name): glout sends READY=1 "
            + "once every output has shown its first frame, STATUS= lines, and STOPPING=1 as it stops"),
        ("WATCHDOG_USEC", "with NOTIFY_SOCKET, the watchdog's timeout: glout sends WATCHDOG=1 from its main loop "
            + "while no frame has taken half of it (for this process only, if WATCHDOG_PID names another)"),
        ("JOURNAL_STREAM", "when it names standard error (device:inode), each log line starts with its syslog "
            + "priority for the journal: <3> errors, <4> warnings, <6> information, <7> debugging"),
    ]

    /// `text` for roff: backslashes doubled, every dash of an option (a word that starts
    /// with one) a minus sign, and a line that would start with a control character
    /// protected.
    static func escape(_ text: String) -> String {
        var out = ""
        var previous: Character = " "
        var inOption = false
        for character in text {
            if character == "-" && " \n[(|".contains(previous) { inOption = true }
            if character.isWhitespace || character == "]" || character == "," { inOption = false }
            switch character {
            case "\\": out += "\\e"
            case "-" where inOption: out += "\\-"
            default: out.append(character)
            }
            previous = character
        }
        return out.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.first == "." || line.first == "'" ? "\\&" + line : String(line)
        }.joined(separator: "\n")
    }
}
