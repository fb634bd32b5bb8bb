import Foundation
import WaylandOutputs

let log = Log.standardError(prefix: "glout: ", minimum: environment("GLOUT_DEBUG") != nil ? .debug : .info)

func environment(_ name: String) -> String? { ProcessInfo.processInfo.environment[name] }

func exitFor(_ error: any Error) -> Never {
    let failure = GloutError(error)
    var message = "glout: \(failure.message)\n"
    if case .usage = failure.status {
        let command = (error as? UsageError)?.command
        message += "Run 'glout \(command.map { "\($0) " } ?? "")--help' for usage.\n"
    }
    writeStandardError(message)
    exit(failure.status.rawValue)
}

do {
    switch try Arguments.parse(Array(CommandLine.arguments.dropFirst())) {
    case .help(let topic):
        print(Help.text(for: topic))
    case .version:
        print("glout \(Help.version)")
    case .outputs(let options):
        try OutputsCommand.run(options, log: log)
    case .run(let options):
        try RunCommand(options: options, log: log).run()
    case .bench(let options):
        try BenchCommand(options: options, log: log).run()
    case .snapshot(let options):
        try SnapshotCommand.run(options, log: log)
    }
} catch {
    exitFor(error)
}
