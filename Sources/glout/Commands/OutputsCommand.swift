import Foundation
import WaylandOutputs

/// `glout outputs`: the list, or with --watch the events as they happen. A display
/// session that opens no window: the same outputs, order and primary role as `run`.
enum OutputsCommand {
    static func run(_ options: OutputsOptions, log: Log) throws {
        let display = try OutputSession(.init(appID: Stage.appID, preferredPrimary: options.primary, input: false,
                                               handlesSignals: true, log: log))
        if let name = options.primary, display.tracker.output(named: name) == nil, !options.watch {
            throw UsageError(message: "--primary \(name): no such output; the outputs are "
                             + display.outputs.map(\.printableName).joined(separator: ", "), command: "outputs")
        }
        if options.wallJSON {
            print(try wall(display.outputs, machine: options.machine ?? Stage.hostName, bezels: options.bezels).json())
            return
        }
        guard options.watch else {
            if options.json {
                print(try OutputReport(outputs: display.outputs, primary: display.primary).json())
            } else {
                print(OutputReport.table(outputs: display.outputs, primary: display.primary), terminator: "")
            }
            return
        }
        try watch(display, options: options)
    }

    /// The outputs as a wall file: each at its logical place, with its bezels in points.
    static func wall(_ outputs: [Output], machine: String, bezels: [String: BezelRequest]) throws -> Wall {
        let available = outputs.map(\.name)
        for name in bezels.keys.sorted() where !name.isEmpty && !available.contains(name) {
            throw UsageError(message: "--bezel: no output named \(name); the outputs are \(available.map(Log.printable).joined(separator: ", "))",
                             command: "outputs")
        }
        guard !outputs.isEmpty else { throw GloutError("there are no outputs to put in a wall") }
        return Wall(outputs: try outputs.map { output in
            let frame = output.logicalFrame
            let bezel = try Stage.bezel(for: output, requests: bezels, command: "outputs", strict: true) { _ in }
            return WallEntry(machine: machine, name: output.name, x: frame.x, y: frame.y, width: frame.width,
                             height: frame.height, bezel: bezel)
        })
    }

    /// One event line: text, or a JSON object with the output in the schema of
    /// `OutputReport`.
    struct Event: Encodable {
        var event: String
        var output: OutputReport.Entry
    }

    static func line(_ name: String, _ output: Output, primary: String?, json: Bool) throws -> String {
        if json {
            return try OutputReport.encode(Event(event: name, output: .init(output, primary: output.name == primary)),
                                           pretty: false)
        }
        let mode = output.currentMode?.description ?? "no mode"
        return "\(name) \(output.printableName) \"\(Log.printable(output.description))\": \(mode), scale \(output.scale), "
            + "transform \(output.transform), \(output.logicalFrame.size) at \(output.logicalFrame.origin)"
            + (output.name == primary ? ", primary" : "")
    }

    private static func watch(_ display: OutputSession, options: OutputsOptions) throws {
        var printed: (any Error)?
        func emit(_ name: String, _ output: Output) {
            do {
                // Straight to the descriptor: a pipe reader sees each event as it happens.
                var text = try line(name, output, primary: display.primary?.name, json: options.json) + "\n"
                text.withUTF8 { bytes in _ = write(1, bytes.baseAddress, bytes.count) }
            } catch {
                printed = error
            }
        }
        for output in display.outputs { emit("connected", output) }
        display.onEvent = { event in
            switch event {
            case .connected(let output): emit("connected", output)
            case .changed(let output, _): emit("changed", output)
            case .disconnected(let output, _): emit("disconnected", output)
            default: break
            }
            if printed != nil { display.stop() }
        }
        try display.run(for: options.duration.map { .nanoseconds(Int64($0 * 1e9)) })
        if let printed { throw printed }
    }
}
