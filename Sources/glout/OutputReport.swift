import Foundation
import WaylandOutputs

/// `glout outputs --json`: the schema documented in docs/json.md.
struct OutputReport: Encodable {
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
    }

    var outputs: [Entry]

    init(outputs: [Output], primary: Output?) {
        self.outputs = outputs.map { output in
            Entry(name: output.name, description: output.description, make: output.make, model: output.model,
                  primary: output.id == primary?.id, scale: output.scale, transform: output.transform.description,
                  physical_mm: .init(width: output.physicalWidthMillimetres, height: output.physicalHeightMillimetres),
                  logical: .init(x: output.logicalX, y: output.logicalY,
                                 width: output.logicalWidth, height: output.logicalHeight),
                  modes: output.modes.map {
                      .init(width: $0.width, height: $0.height, refresh_mhz: $0.refreshMilliHertz,
                            current: $0.isCurrent, preferred: $0.isPreferred)
                  })
        }
    }

    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
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

enum OutputsCommand {
    static func run(_ options: OutputsOptions, log: Log) throws {
        let connection = try Connection(log: log)
        let screens = Screens(connection: connection, preferredPrimary: options.primary)
        try screens.start()
        if let name = options.primary, screens.output(named: name) == nil {
            throw UsageError(message: "--primary \(name): no such output; the outputs are "
                             + screens.outputs.map(\.name).joined(separator: ", "), command: "outputs")
        }
        let outputs = screens.outputs
        if options.json {
            print(try OutputReport(outputs: outputs, primary: screens.primary).json())
        } else {
            print(OutputReport.table(outputs: outputs, primary: screens.primary), terminator: "")
        }
    }
}
