import WaylandOutputs

/// The commands glout has, as they appear on the command line.
enum CommandName: String, Sendable, CaseIterable {
    case run, outputs, protocols, bench, snapshot

    /// run, bench and snapshot: the commands that draw a scene and share its options.
    static let drawing: Set<CommandName> = [.run, .bench, .snapshot]
}

/// What the options of one command line set, whichever command it is: each command takes
/// its own part (``Arguments``), and which options were given, for the rules between them.
struct ParsedOptions: Sendable {
    var run = RunOptions()
    var outputs = OutputsOptions()
    var protocols = ProtocolsOptions()
    var bench = BenchOptions()
    var snapshotOut: String?
    var canvas = false
    var canvasScale: Double?
    /// The options given, by name.
    var given: Set<String> = []
}

/// One option of glout's command line, declared once: its name, its value's grammar as
/// help shows it (nil: a flag), its help text, the commands that take it, the options it
/// needs and those it cannot go with, and how it sets the parsed options. The parser, each
/// command's --help and the check that docs/usage.md documents every option all come from
/// ``OptionTable/all``.
struct OptionDeclaration: Sendable {
    let name: String
    let value: String?
    let help: String
    let commands: Set<CommandName>
    /// Another option this one needs (its help says "with --watch").
    let requires: String?
    /// Options this one cannot go with, each with the error that says so.
    let excludes: [(option: String, message: String)]
    let apply: @Sendable (inout ParsedOptions, inout OptionReader) throws(UsageError) -> Void

    init(_ name: String, _ value: String? = nil, _ commands: Set<CommandName>, requires: String? = nil,
         excludes: [(option: String, message: String)] = [], help: String,
         apply: @escaping @Sendable (inout ParsedOptions, inout OptionReader) throws(UsageError) -> Void) {
        (self.name, self.value, self.commands, self.requires, self.excludes) = (name, value, commands, requires, excludes)
        self.help = help
        self.apply = apply
    }

    /// A flag that sets `body`.
    static func flag(_ name: String, _ commands: Set<CommandName>, requires: String? = nil,
                     excludes: [(option: String, message: String)] = [], help: String,
                     _ body: @escaping @Sendable (inout ParsedOptions) -> Void) -> OptionDeclaration {
        OptionDeclaration(name, nil, commands, requires: requires, excludes: excludes, help: help) {
            (options: inout ParsedOptions, reader: inout OptionReader) throws(UsageError) in
            try reader.flag(name)
            body(&options)
        }
    }
}

/// Every option of every command, in the order each command's --help lists them.
enum OptionTable {
    static let all: [OptionDeclaration] = outputs + protocols + runOwn + benchOwn + snapshotOwn + scene

    /// The options `command` takes, in help order: its own, then the scene's.
    static func options(of command: CommandName) -> [OptionDeclaration] {
        all.filter { $0.commands.contains(command) }
    }

    /// The declaration of `name` for `command`, if it takes it.
    static func declaration(_ name: String, for command: CommandName) -> OptionDeclaration? {
        all.first { $0.name == name && $0.commands.contains(command) }
    }

    static let outputs: [OptionDeclaration] = [
        .flag("--json", [.outputs], help: "print JSON instead (schema in docs/json.md)") { $0.outputs.json = true },
        OptionDeclaration("--primary", "NAME", [.outputs], help: "mark NAME as the primary (default: the first in order)") {
            (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in o.outputs.primary = try r.name(for: "--primary")
        },
        .flag("--watch", [.outputs], help: """
            print a line per event as outputs connect, change and disconnect (the present ones first, as connected), \
            until interrupted; with --json, one JSON object per line
            """) { $0.outputs.watch = true },
        OptionDeclaration("--duration", "S", [.outputs], requires: "--watch", help: "with --watch, stop after S seconds") {
            (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in
            o.outputs.duration = try r.seconds(for: "--duration", allowZero: false)
        },
        .flag("--wall-json", [.outputs], excludes: [("--json", "--wall-json prints the wall file; leave out --json"),
                                                     ("--watch", "--wall-json prints the wall file; leave out --watch")], help: """
            print this machine's outputs as a wall file for --wall: machine, name, logical rectangle and bezels \
            (points) of each; merge the files of every machine into one
            """) { $0.outputs.wallJSON = true },
        OptionDeclaration("--machine", "NAME", [.outputs], requires: "--wall-json",
                          help: "with --wall-json, the machine's name (default: the host name)") {
            (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in o.outputs.machine = try r.machine(for: "--machine")
        },
        OptionDeclaration("--bezel", "[NAME=]B", [.outputs], requires: "--wall-json",
                          help: "with --wall-json, the bezels, as run takes them") {
            (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in
            let (name, request) = try r.bezel(for: "--bezel")
            o.outputs.bezels[name] = request
        },
    ]

    static let protocols: [OptionDeclaration] = [
        .flag("--json", [.protocols], help: "print JSON instead (schema in docs/json.md)") { $0.protocols.json = true },
    ]

    static let runOwn: [OptionDeclaration] = [
        OptionDeclaration("--duration", "S", [.run], help: "run S seconds, then exit with status 0") {
            (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in
            o.run.duration = try r.seconds(for: "--duration", allowZero: false)
        },
        OptionDeclaration("--stats-json", "FILE", [.run], help: """
            write per-output frame counts and rates to FILE on exit (also of outputs that left, and if the compositor dies)
            """) {
            (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in o.run.statsJSON = try r.path(for: "--stats-json")
        },
        OptionDeclaration("--landings-json", "FILE", [.run], help: """
            write each output's last frames (up to 16384), each with its target and when it reached the screen, to FILE \
            on exit: two glouts' files give the seam between them
            """) {
            (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in
            o.run.landingsJSON = try r.path(for: "--landings-json")
        },
        .flag("--exit-when-no-outputs", [.run], help: """
            exit with status 0 when no output is left, instead of waiting for one to connect
            """) { $0.run.exitWhenNoOutputs = true },
        OptionDeclaration("--http", "[HOST:]PORT", [.run], help: """
            serve the control API (docs/control.md) on HOST (an IPv4 or [IPv6] address, default 127.0.0.1) and PORT: \
            JSON over HTTP/1.1 to read the outputs and the pacing and to change the content, layout and primary while \
            glout runs. PORT 0 takes a free port, which the log line "control API on" names. An address off loopback \
            needs --http-token-file and --content-root
            """) { (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in
            o.run.http = try r.listenAddress(for: "--http")
        },
        OptionDeclaration("--http-token-file", "FILE", [.run], requires: "--http", help: """
            every request must carry Authorization: Bearer TOKEN, TOKEN being FILE's first line (16 to 4096 printable \
            characters), compared in constant time
            """) { (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in
            o.run.httpTokenFile = try r.path(for: "--http-token-file")
        },
        OptionDeclaration("--osc", "[HOST:]PORT", [.run], help: """
            take the control API's commands as OSC 1.0 messages over UDP on HOST (default 127.0.0.1) and PORT \
            (docs/control.md), each answered to its sender; PORT 0 takes a free port. An address off loopback needs \
            --osc-allow and --content-root
            """) { (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in
            o.run.osc = try r.listenAddress(for: "--osc")
        },
        OptionDeclaration("--osc-allow", "ADDR/PREFIX", [.run], requires: "--osc", help: """
            answer OSC from senders in this network only (repeatable; for example 192.168.1.0/24 or 10.0.0.7)
            """) { (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in
            let value = try r.value(for: "--osc-allow")
            guard let prefix = AddressPrefix(value) else {
                throw r.error("--osc-allow needs ADDR/PREFIX (an IPv4 or IPv6 address, and how many bits of it name the "
                              + "network), not '\(value)'")
            }
            o.run.oscAllow.append(prefix)
        },
        OptionDeclaration("--content-root", "DIR", [.run], help: """
            the control API (--http, --osc) opens files under DIR only, named relative to it, with no .. and no symbolic \
            link out of it
            """) { (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in
            o.run.contentRoot = try r.path(for: "--content-root")
        },
        OptionDeclaration("--show", "FILE", [.run], excludes: [
            ("--content", "--show: the show says what each output plays; put the file in a zone instead of --content"),
            ("--scene", "--show draws the show, not a --scene"),
            ("--layout", "--show: the show places what each output plays; --layout does not apply"),
        ], help: """
            play a show (docs/shows.md): JSON that gives each output ("*", "primary", "secondaries" or a name) zones, \
            each playing a playlist of images, videos, shaders, colours, text, clocks and tickers, cut or crossfaded, \
            chosen by dayparts in a named time zone; on CLOCK_REALTIME, so that every machine shows the same item at the same \
            refresh. The file is read again when it changes
            """) { (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in
            o.run.show = try r.path(for: "--show")
        },
        OptionDeclaration("--play-log", "FILE", [.run], requires: "--show", help: """
            proof of play: append a JSON line to FILE for each item a zone showed (output, zone, playlist, item, first \
            and next refresh in CLOCK_REALTIME seconds, frames, refreshes missed); rotated to FILE.1 to FILE.4
            """) { (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in
            o.run.playLog = try r.path(for: "--play-log")
        },
        OptionDeclaration("--play-log-size", "MIB", [.run], requires: "--play-log", help: """
            rotate the play log when it would pass MIB mebibytes (1 to 4096; default 16)
            """) { (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in
            let value = try r.value(for: "--play-log-size")
            guard let size = Int(value), (1...4096).contains(size) else {
                throw r.error("--play-log-size needs mebibytes, 1 to 4096, not '\(value)'")
            }
            o.run.playLogSize = size
        },
    ]

    static let benchOwn: [OptionDeclaration] = [
        OptionDeclaration("--duration", "S", [.bench], help: "seconds to measure (default 30)") {
            (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in
            o.run.duration = try r.seconds(for: "--duration", allowZero: false)
        },
        OptionDeclaration("--pacing", "independent|coupled", [.bench], help: """
            independent (default): a display link and a render thread per output. coupled: the usual loop, one thread, \
            eglSwapInterval(1), the surfaces swapped in turn
            """) {
            (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in
            o.bench.pacing = try r.choice(for: "--pacing", PacingMode.self)
        },
        .flag("--compare", [.bench], help: "run independent, then coupled, and print the ratio of their frame rates per output") {
            $0.bench.compare = true
        },
        OptionDeclaration("--json", "FILE", [.bench], help: "write the report as JSON (schema in docs/json.md)") {
            (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in o.bench.json = try r.path(for: "--json")
        },
        OptionDeclaration("--plot", "FILE.png", [.bench], help: "draw each output's frame intervals over time and their histogram") {
            (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in
            let path = try r.path(for: "--plot")
            guard path.lowercased().hasSuffix(".png") else {
                throw r.error("--plot writes a PNG: give a file name ending in .png, not '\(path)'")
            }
            o.bench.plot = path
        },
    ]

    static let snapshotOwn: [OptionDeclaration] = [
        OptionDeclaration("--out", "DIR", [.snapshot], help: "the folder for the PNG files (made if missing)") {
            (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in o.snapshotOut = try r.path(for: "--out")
        },
        .flag("--canvas", [.snapshot], help: "draw the span canvas into --out FILE.png instead (its test pattern: not with --content)") {
            $0.canvas = true
        },
        OptionDeclaration("--canvas-scale", "S", [.snapshot], requires: "--canvas", help: """
            pixels per point of the canvas (default: the largest scale of this machine's outputs in it, else 1)
            """) {
            (o: inout ParsedOptions, r: inout OptionReader) throws(UsageError) in
            let value = try r.value(for: "--canvas-scale")
            guard let scale = Double(value), scale.isFinite, scale >= 0.25, scale <= 8 else {
                throw r.error("--canvas-scale needs pixels per point, 0.25 to 8, not '\(value)'")
            }
            o.canvasScale = scale
        },
    ]
}
