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
            physical_mm = Millimetres(width: output.physicalSize.width, height: output.physicalSize.height)
            let frame = output.logicalFrame
            logical = Logical(x: frame.x, y: frame.y, width: frame.width, height: frame.height)
            modes = output.modes.map {
                Mode(width: $0.size.width, height: $0.size.height, refresh_mhz: $0.refreshMilliHertz,
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
            let physical = output.physicalSize.isEmpty ? "size unknown" : "\(output.physicalSize) mm"
            text += "\(mark) \(output.printableName)  \"\(Log.printable(output.description))\"\n"
            text += "    \(Log.printable(output.make)) \(Log.printable(output.model)), \(physical)\n"
            text += "    logical \(output.logicalFrame.size) at \(output.logicalFrame.origin)"
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
