import Foundation

/// GLSL files by name, from the copies built into glout or from a folder, with
/// `#include "file"` expanded. Each included file gets its own GLSL source-string number
/// through `#line`, so the driver's messages can be traced back to a file and line.
struct ShaderSource {
    /// The expanded text handed to glShaderSource.
    var text: String
    /// File names by GLSL source-string number (0 is the file itself).
    var files: [String]

    /// The built-in shaders, or those of `directory` when given.
    static func library(directory: String?) throws -> [String: String] {
        guard let directory else {
            return Dictionary(EmbeddedShaders.files.map { ($0.name, $0.source) }, uniquingKeysWith: { a, _ in a })
        }
        var files: [String: String] = [:]
        let names = try FileSystem.list(directory, for: "--shaders")
        for name in names where name.hasSuffix(".vert") || name.hasSuffix(".frag") || name.hasSuffix(".glsl") {
            let path = (directory as NSString).appendingPathComponent(name)
            files[name] = try FileSystem.readText(path, for: "--shaders")
        }
        return files
    }

    /// `name` from `library` with its includes expanded (one level, as the shaders use).
    init(name: String, library: [String: String]) throws {
        guard let main = library[name] else { throw GloutError("shader \(name) is missing") }
        files = [name]
        var lines: [String] = []
        for (index, line) in main.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("#include") else {
                lines.append(String(line))
                continue
            }
            let parts = trimmed.split(separator: "\"")
            guard parts.count >= 2, let included = library[String(parts[1])] else {
                throw ShaderError(shader: name, file: name, line: index + 1, stage: "preprocess",
                                  log: "cannot include \(trimmed.dropFirst(8).trimmingCharacters(in: .whitespaces))")
            }
            files.append(String(parts[1]))
            lines.append("#line 1 \(files.count - 1)")
            lines.append(included)
            lines.append("#line \(index + 2) 0")
        }
        text = lines.joined(separator: "\n")
    }
}

/// A shader that failed to compile or link, with the driver's log mapped to files and lines.
struct ShaderError: Error, CustomStringConvertible {
    /// The shader being built ("content.frag", or "a + b" for a link).
    var shader: String
    /// The file and line of the first error, when the log names one.
    var file: String?
    var line: Int?
    /// "compile", "link" or "preprocess".
    var stage: String
    /// The driver's log, each message prefixed with its file:line.
    var log: String

    var description: String {
        var text = "shader \(shader) failed to \(stage)"
        if let file { text += " at \(file)" + (line.map { ":\($0)" } ?? "") }
        return text + ":\n" + log
    }

    /// Rewrites Mesa's "SOURCE:LINE(COLUMN): message" lines as "file:LINE:COLUMN: message".
    static func mapLog(_ log: String, files: [String]) -> (text: String, first: (file: String, line: Int)?) {
        var first: (String, Int)?
        var out: [String] = []
        for raw in log.split(separator: "\n") {
            let line = String(raw)
            // Mesa: "0:12(5): error: ..."; others: "ERROR: 0:12: ..."
            let body = line.hasPrefix("ERROR: ") ? String(line.dropFirst(7)) : line
            let scanner = Scanner(string: body)
            if let source = scanner.scanInt(), scanner.scanString(":") != nil, let number = scanner.scanInt(),
               source >= 0, source < files.count {
                var column = ""
                if scanner.scanString("(") != nil, let c = scanner.scanInt(), scanner.scanString(")") != nil {
                    column = ":\(c)"
                }
                _ = scanner.scanString(":")
                let rest = String(body[scanner.currentIndex...]).trimmingCharacters(in: .whitespaces)
                if first == nil { first = (files[source], number) }
                out.append("\(files[source]):\(number)\(column): \(rest)")
            } else {
                out.append(line)
            }
        }
        return (out.joined(separator: "\n"), first)
    }
}
