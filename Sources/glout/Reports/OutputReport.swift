import Foundation
import WaylandOutputs

/// `glout outputs --json`: the schema documented in docs/json.md.
struct OutputReport: Encodable {
    /// One output.
    struct Entry: Encodable {
        struct Millimetres: Encodable { var width, height: Int32 }
        struct Logical: Encodable { var x, y, width, height: Int32 }
        struct Mode: Encodable {
            var width, height: Int32
            var refresh_mhz: Int32
            var current, preferred: Bool
        }
        var name, description, make, model: String
        var primary: Bool
        var scale: Int32
        var transform: String
        var physical_mm: Millimetres
        var logical: Logical
        var modes: [Mode]

        init(_ output: Output, primary: Bool) {
            name = output.name
            description = output.description
            make = output.make
            model = output.model
            self.primary = primary
            scale = output.scale
            transform = output.transform.description
            physical_mm = Millimetres(width: output.physicalWidthMillimetres, height: output.physicalHeightMillimetres)
            logical = Logical(x: output.logicalX, y: output.logicalY, width: output.logicalWidth, height: output.logicalHeight)
            modes = output.modes.map {
                Mode(width: $0.width, height: $0.height, refresh_mhz: $0.refreshMilliHertz,
                     current: $0.isCurrent, preferred: $0.isPreferred)
            }
        }
    }

    var outputs: [Entry]

    init(outputs: [Output], primary: Output?) {
        self.outputs = outputs.map { Entry($0, primary: $0.id == primary?.id) }
    }

    func json() throws -> String {
        try OutputReport.encode(self, pretty: true)
    }

    static func encode(_ value: some Encodable, pretty: Bool) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                                          : [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// The readable table `glout outputs` prints.
    static func table(outputs: [Output], primary: Output?) -> String {
        guard !outputs.isEmpty else { return "no outputs\n" }
        var text = ""
        for output in outputs {
            let mark = output.id == primary?.id ? "*" : " "
            let physical = output.physicalWidthMillimetres > 0
                ? "\(output.physicalWidthMillimetres)x\(output.physicalHeightMillimetres) mm" : "size unknown"
            text += "\(mark) \(output.name)  \"\(output.description)\"\n"
            text += "    \(output.make) \(output.model), \(physical)\n"
            text += "    logical \(output.logicalWidth)x\(output.logicalHeight) at \(output.logicalX),\(output.logicalY)"
            text += ", scale \(output.scale), transform \(output.transform)\n"
            for mode in output.modes {
                var flags: [String] = []
                if mode.isCurrent { flags.append("current") }
                if mode.isPreferred { flags.append("preferred") }
                text += "    mode \(mode)" + (flags.isEmpty ? "" : " (\(flags.joined(separator: ", ")))") + "\n"
            }
        }
        return text + "* primary\n"
    }
}

/// `glout outputs`: the list, or with --watch the events as they happen.
enum OutputsCommand {
    static func run(_ options: OutputsOptions, log: Log) throws {
        let signals = try SignalWatch()
        let connection = try Connection(log: log)
        let screens = Screens(connection: connection, preferredPrimary: options.primary)
        try screens.start()
        if let name = options.primary, screens.output(named: name) == nil, !options.watch {
            throw UsageError(message: "--primary \(name): no such output; the outputs are "
                             + screens.outputs.map(\.name).joined(separator: ", "), command: "outputs")
        }
        guard options.watch else {
            if options.json {
                print(try OutputReport(outputs: screens.outputs, primary: screens.primary).json())
            } else {
                print(OutputReport.table(outputs: screens.outputs, primary: screens.primary), terminator: "")
            }
            return
        }
        try watch(screens: screens, signals: signals, options: options)
    }

    /// One event line: text, or a JSON object with the output in the schema above.
    struct Event: Encodable {
        var event: String
        var output: OutputReport.Entry
    }

    static func line(_ event: ScreenEvent, primary: String?, json: Bool) throws -> String {
        let (name, output): (String, Output) = switch event {
        case .connected(let output): ("connected", output)
        case .changed(let output, _): ("changed", output)
        case .disconnected(let output): ("disconnected", output)
        }
        if json {
            return try OutputReport.encode(Event(event: name, output: .init(output, primary: output.name == primary)),
                                           pretty: false)
        }
        let mode = output.currentMode?.description ?? "no mode"
        return "\(name) \(output.name) \"\(output.description)\": \(mode), scale \(output.scale), "
            + "transform \(output.transform), \(output.logicalWidth)x\(output.logicalHeight) at "
            + "\(output.logicalX),\(output.logicalY)" + (output.name == primary ? ", primary" : "")
    }

    private static func watch(screens: Screens, signals: SignalWatch, options: OutputsOptions) throws {
        var role = PrimaryRole(requested: options.primary)
        var printed: (any Error)?
        func emit(_ event: ScreenEvent) {
            let primary = role.update(screens.outputs)?.name
            do {
                // Straight to the descriptor: a pipe reader sees each event as it happens.
                var text = try line(event, primary: primary, json: options.json) + "\n"
                text.withUTF8 { bytes in _ = write(1, bytes.baseAddress, bytes.count) }
            } catch {
                printed = error
            }
        }
        for output in screens.outputs { emit(.connected(output)) }
        screens.onEvent = { emit($0) }
        let deadline = options.duration.map { MonotonicClock.now() + UInt64($0 * 1e9) }
        while printed == nil {
            var timeout: Double?
            if let deadline {
                let now = MonotonicClock.now()
                if now >= deadline { return }
                timeout = Double(deadline - now) / 1e9
            }
            let ready = try screens.connection.dispatch(timeout: timeout, watching: [signals.fileDescriptor])
            if !ready.isEmpty, !signals.take().isEmpty { return }
        }
        if let printed { throw printed }
    }
}
