import Foundation
import WaylandOutputs

let log = Journal.log(prefix: "glout: ", minimum: environment("GLOUT_DEBUG") != nil ? .debug : .info)

func exitFor(_ error: any Error) -> Never {
    let failure = GloutError(error)
    var message = "glout: \(failure.message)\n"
    if case .usage = failure.status {
        let command = (error as? UsageError)?.command
        message += "Run 'glout \(command.map { "\($0) " } ?? "")--help' for usage.\n"
    }
    writeStandardError(Journal.lines(message, level: .error))
    exit(failure.status.rawValue)
}

// Windows come and go with their outputs, and with them llvmpipe's colour buffers
// (about 2 MB each at 800x600). glibc raises its mmap threshold to the largest block
// freed, so after the first window closes such buffers come from the heap and its
// pages stay resident. A fixed threshold keeps them in their own mappings, handed
// back to the kernel when the window goes (measured: 7.5 MB less after a storm).
// -3 is M_MMAP_THRESHOLD; setting it turns the dynamic adjustment off.
_ = mallopt(-3, 256 * 1024)

// A write to a closed pipe (`glout outputs --watch | head`) fails with EPIPE, which glout
// reports, instead of killing it.
signal(SIGPIPE, SIG_IGN)

do {
    switch try Arguments.parse(Array(CommandLine.arguments.dropFirst())) {
    case .help(let topic):
        print(Help.text(for: topic))
    case .manual:
        print(Manual.page, terminator: "")
    case .completion(let shell):
        print(Completions.script(for: shell), terminator: "")
    case .version:
        print("glout \(Help.version)")
    case .outputs(let options):
        try OutputsCommand.run(options, log: log)
    case .protocols(let options):
        try ProtocolsCommand.run(options, log: log)
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

/// glibc's mallopt and malloc_trim (malloc.h is not part of the Glibc module).
@_silgen_name("mallopt") private func mallopt(_ parameter: Int32, _ value: Int32) -> Int32
@_silgen_name("malloc_trim") private func mallocTrim(_ pad: Int) -> Int32

/// Hands the free pages of every heap arena back to the kernel: after a window closed
/// (its context, buffers and thread arena are freed then), or a long run with outputs
/// coming and going creeps up.
func releaseFreedMemory() {
    _ = mallocTrim(0)
}
