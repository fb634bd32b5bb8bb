import WaylandOutputs

/// glout's exit statuses (documented in --help and docs/usage.md).
enum ExitStatus: Int32 {
    case success = 0
    /// Graphics, shader or I/O failure.
    case failure = 1
    /// Bad command line.
    case usage = 2
    /// No compositor to connect to.
    case noCompositor = 3
    /// The compositor hung up or reported a protocol error.
    case compositorLost = 4
}

/// A failure that ends glout with a message and a status.
struct GloutError: Error, CustomStringConvertible {
    var message: String
    var status: ExitStatus
    var description: String { message }

    init(_ message: String, status: ExitStatus = .failure) {
        self.message = message
        self.status = status
    }

    /// What glout says and returns for an error from the library.
    init(_ error: any Error) {
        switch error {
        case let error as GloutError:
            self = error
        case let error as UsageError:
            self.init(error.message, status: .usage)
        case WaylandError.noCompositor(let socket):
            self.init("""
                no Wayland compositor at \(socket); run glout inside a Wayland session, \
                or start a headless one: eval "$(scripts/compositor sway)"
                """, status: .noCompositor)
        case let error as WaylandError:
            switch error {
            case .protocolError, .connectionLost:
                self.init("lost the compositor: \(error)", status: .compositorLost)
            default:
                self.init("\(error)", status: .failure)
            }
        default:
            self.init("\(error)", status: .failure)
        }
    }
}
