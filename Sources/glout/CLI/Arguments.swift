/// glout's command line, parsed into values by the declarations of ``OptionTable``. Pure:
/// no I/O, so every rule is unit-tested.
enum Arguments {
    static let commands = CommandName.allCases.map(\.rawValue)

    /// Parses the arguments after the program name.
    static func parse(_ arguments: [String]) throws(UsageError) -> Command {
        guard let first = arguments.first else { return .run(RunOptions()) }
        switch first {
        case "--help", "-h", "help":
            if first == "help", arguments.count > 1 {
                let topic = arguments[1]
                if topic == "--man", arguments.count == 2 { return .manual }
                if topic == "--completion" {
                    let shells = Completions.Shell.allCases.map(\.rawValue).joined(separator: " or ")
                    guard arguments.count == 3, let shell = Completions.Shell(rawValue: arguments[2]) else {
                        throw UsageError(message: "help --completion needs one shell, \(shells)")
                    }
                    return .completion(shell)
                }
                guard commands.contains(topic) else {
                    throw UsageError(message: "no help for '\(topic)': the commands are \(commands.joined(separator: ", "))")
                }
                return .help(topic: topic)
            }
            return .help(topic: nil)
        case "--version", "-V":
            return .version
        default:
            if let command = CommandName(rawValue: first) { return try parse(Array(arguments.dropFirst()), as: command) }
            if first.hasPrefix("-") { return try parse(arguments, as: .run) }
            throw UsageError(message: "unknown command '\(first)': the commands are \(commands.joined(separator: ", "))")
        }
    }

    /// The options of `command`, each set by its declaration, then the rules between them.
    static func parse(_ arguments: [String], as command: CommandName) throws(UsageError) -> Command {
        var options = ParsedOptions()
        var reader = OptionReader(arguments, command: command.rawValue)
        while let option = try reader.next() {
            if option == "--help" || option == "-h" {
                try reader.flag(option)
                return .help(topic: command.rawValue)
            }
            guard let declaration = OptionTable.declaration(option, for: command) else { throw reader.unknown(option) }
            try declaration.apply(&options, &reader)
            options.given.insert(option)
        }
        // What each given option needs and cannot go with, in the table's order.
        for declaration in OptionTable.options(of: command) where options.given.contains(declaration.name) {
            if let needed = declaration.requires, !options.given.contains(needed) {
                throw reader.error("\(declaration.name) applies to \(needed) only")
            }
            if let clash = declaration.excludes.first(where: { options.given.contains($0.option) }) {
                throw reader.error(clash.message)
            }
        }
        switch command {
        case .run:
            try checkVideoSync(options.run, reader: reader)
            try checkControl(options.run, reader: reader)
            return .run(options.run)
        case .outputs:
            return .outputs(options.outputs)
        case .protocols:
            return .protocols(options.protocols)
        case .bench:
            var bench = options.bench
            bench.run = options.run
            bench.run.duration = options.run.duration ?? 30
            if bench.compare && bench.pacing == .coupled {
                throw reader.error("--compare runs both pacings; leave out --pacing coupled")
            }
            try checkVideoSync(bench.run, reader: reader)
            return .bench(bench)
        case .snapshot:
            return .snapshot(try snapshot(options, reader: reader))
        }
    }

    /// snapshot: --out, and with --canvas the span's test pattern into one PNG.
    private static func snapshot(_ options: ParsedOptions, reader: OptionReader) throws(UsageError) -> SnapshotOptions {
        var run = options.run
        guard let out = options.snapshotOut else {
            throw reader.error(options.canvas ? "snapshot --canvas needs --out FILE.png" : "snapshot needs --out DIR")
        }
        if options.canvas {
            if options.given.contains("--layout") && run.layout != .span {
                throw reader.error("--canvas draws the span layout's canvas; leave out --layout \(run.layout.rawValue)")
            }
            guard out.lowercased().hasSuffix(".png") else {
                throw reader.error("--canvas writes one PNG: give --out a file name ending in .png, not '\(out)'")
            }
            if !run.contents.isEmpty {
                throw reader.error("--canvas draws the span's test pattern, not --content; "
                                   + "without --canvas, snapshot draws each output's part of the content")
            }
            run.layout = .span
        }
        try checkVideoSync(run, reader: reader)
        return SnapshotOptions(run: run, out: out, canvas: options.canvas, canvasScale: options.canvasScale)
    }

    /// The control API off loopback: HTTP needs a token, OSC a list of senders, and both a
    /// content root; a content root needs one of them.
    private static func checkControl(_ options: RunOptions, reader: OptionReader) throws(UsageError) {
        if let address = options.http, !address.isLoopback, options.httpTokenFile == nil || options.contentRoot == nil {
            throw reader.error("--http \(address) is reachable from other machines: it needs --http-token-file FILE and "
                               + "--content-root DIR (or listen on 127.0.0.1)")
        }
        if let address = options.osc, !address.isLoopback, options.oscAllow.isEmpty || options.contentRoot == nil {
            throw reader.error("--osc \(address) is reachable from other machines: it needs --osc-allow ADDR/PREFIX and "
                               + "--content-root DIR (or listen on 127.0.0.1)")
        }
        if options.contentRoot != nil && options.http == nil && options.osc == nil {
            throw reader.error("--content-root applies to --http and --osc only")
        }
    }

    /// --video-sync speed plays off the shared clock's time.
    private static func checkVideoSync(_ options: RunOptions, reader: OptionReader) throws(UsageError) {
        if options.videoSync == .speed && (options.clock == .realtime || options.wallFile != nil) {
            throw reader.error("--video-sync speed plays videos off the shared clock's time; it cannot go with "
                               + (options.wallFile != nil ? "--wall" : "--clock realtime"))
        }
    }
}
