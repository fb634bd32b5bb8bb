import Dispatch
import WaylandOutputs

/// Screenshots the control API waits for. Each output's renderer, at the end of its next
/// frame, reads the picture it is about to present (its own buffer, the pixels the
/// compositor gets) for every request waiting on that output.
final class Screenshots: Sendable {
    /// One client's wait for one output's picture.
    final class Request: Sendable {
        private let done = DispatchSemaphore(value: 0)
        private let picture = Locked<Bitmap?>(nil)

        /// The picture, bottom row first; nil when none came within `seconds`.
        func wait(seconds: Double) -> Bitmap? {
            guard done.wait(timeout: .now() + seconds) == .success else { return nil }
            return picture.withLock { $0 }
        }

        fileprivate func fulfil(_ bitmap: Bitmap) {
            picture.withLock { $0 = bitmap }
            done.signal()
        }
    }

    private let waiting = Locked<[String: [Request]]>([:])

    /// `request` waits for the next frame of the output named.
    func add(_ request: Request, for output: String) {
        waiting.withLock { $0[output, default: []].append(request) }
    }

    /// Forgets a request whose client stopped waiting.
    func cancel(_ request: Request) {
        waiting.withLock { waiting in
            for (output, requests) in waiting { waiting[output] = requests.filter { $0 !== request } }
        }
    }

    /// Whether anyone waits for the output's picture: cheap enough for every frame.
    func isWaiting(for output: String) -> Bool {
        waiting.withLock { !($0[output]?.isEmpty ?? true) }
    }

    /// Gives the output's picture to everyone waiting for it.
    func deliver(_ bitmap: Bitmap, for output: String) {
        let requests = waiting.withLock { $0.removeValue(forKey: output) ?? [] }
        for request in requests { request.fulfil(bitmap) }
    }
}
