import Foundation
import Glibc
import WaylandOutputs

/// Reads --show's file again when it changes, and plays the new show from each output's
/// next frame (``ShowSource``); a show with an error is said in a warning and changes
/// nothing. Watches the file's folder with inotify, since editors and deployment tools
/// replace a file by renaming another over it; waits until the file has been quiet for
/// ``quiet`` seconds, so that a file written in pieces is read whole. A thread of its own,
/// stopped and joined by ``stop()``.
final class ShowWatcher: Sendable {
    /// How long the file must be left alone before it is read.
    static let quiet = 0.25

    private let source: ShowSource
    private let path: String
    private let log: Log
    private let inotify: Int32
    /// A pipe ``stop()`` writes to, to end the thread's wait: read end, write end.
    private let wake: (read: Int32, write: Int32)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts watching `path`, which `source` plays; throws when inotify cannot watch its folder.
    init(path: String, source: ShowSource, log: Log) throws {
        (self.path, self.source, self.log) = (path, source, log)
        inotify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        var ends: [Int32] = [-1, -1]
        let piped = pipe(&ends) == 0
        for end in ends where end >= 0 { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        wake = (ends[0], ends[1])
        guard inotify >= 0, piped else {
            throw GloutError("--show \(Log.printable(path)): cannot watch the file for changes (\(FileSystem.reason()))")
        }
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE_SELF | IN_MOVE_SELF)
        guard inotify_add_watch(inotify, folder.isEmpty ? "/" : folder, mask) >= 0 else {
            let reason = FileSystem.reason()
            close(inotify)
            close(wake.read)
            close(wake.write)
            throw GloutError("--show \(Log.printable(path)): cannot watch its folder for changes (\(reason))")
        }
        // Weak, as OSCServer's: the thread's closure outlives stop().
        let finished = finished
        let thread = Thread { [weak self] in
            self?.watch()
            finished.signal()
        }
        thread.name = "show-watcher"
        thread.start()
    }

    /// Stops the thread and waits for it (a load under way finishes first).
    func stop() {
        var one: UInt8 = 1
        _ = write(wake.write, &one, 1)
        finished.wait()
        close(inotify)
        close(wake.read)
        close(wake.write)
    }

    /// The file's own name, which events in its folder are about.
    private var name: String { path.split(separator: "/").last.map(String.init) ?? path }

    private func watch() {
        var changed = false
        while true {
            var descriptors = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0), pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
            // Once the file changed, wait for it to be quiet; else until something happens.
            let ready = poll(&descriptors, 2, changed ? Int32(ShowWatcher.quiet * 1000) : -1)
            if ready < 0 && errno == EINTR { continue }
            if descriptors[1].revents != 0 || ready < 0 { return }
            if ready == 0 {
                changed = false
                reload()
                continue
            }
            if readEvents() { changed = true }
        }
    }

    /// Reads the events waiting; whether one was about the file.
    private func readEvents() -> Bool {
        var about = false
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress!, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return about }
            var offset = 0
            // struct inotify_event: wd, mask, cookie, len (4 bytes each), then len bytes of name.
            let header = 16
            while offset + header <= count {
                let length = buffer.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)) }
                let end = min(count, offset + header + length)
                let bytes = buffer[(offset + header)..<end].prefix { $0 != 0 }
                if String(decoding: bytes, as: UTF8.self) == name || length == 0 { about = true }
                offset = end
            }
        }
    }

    private func reload() {
        do {
            let show = try source.replace(with: path)
            let zones = show.show.outputs.reduce(show.show.span.count) { $0 + $1.zones.count }
            log.info("--show \(Log.printable(path)): read again after a change: \(zones) zone\(zones == 1 ? "" : "s")")
        } catch {
            log.warning("\(GloutError(error).message); the show as it was plays on")
        }
    }
}
