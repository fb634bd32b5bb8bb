import Glibc
import WaylandOutputs

/// Folders glout makes or reads for the user, with the system's own reason (strerror)
/// when that fails, so that the message names the path and why.
enum FileSystem {
    /// Makes `path` and any missing parent folders (mkdir -p).
    static func makeFolder(_ path: String, for option: String) throws {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component + "/"
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
                throw GloutError("\(option) \(Log.printable(path)): cannot create the folder \(prefix) (\(reason()))")
            }
        }
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw GloutError("\(option) \(Log.printable(path)): not a folder")
        }
    }

    /// The names in folder `path` (readdir), without "." and "..".
    static func list(_ path: String, for option: String) throws -> [String] {
        guard let folder = opendir(path) else {
            throw GloutError("\(option) \(Log.printable(path)): cannot read the folder (\(reason()))")
        }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// The most a text file glout reads (shaders, wall files) may hold: far more than any
    /// real one, and a device such as /dev/zero is refused instead of read forever.
    static let textLimit = 16 << 20

    /// The whole of file `path` as UTF-8 text.
    static func readText(_ path: String, for option: String) throws -> String {
        try readHeld(path, for: option, limit: textLimit).withBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// The first `count` bytes of file `path` (fewer when it is shorter).
    static func readStart(_ path: String, for option: String, count: Int) throws -> [UInt8] {
        try read(path, for: option, atMost: count, size: count).array
    }

    /// The whole of file `path`, in memory C may keep pointers into for as long as the
    /// result lives (``HeldBytes``); refused when it holds more than `limit` bytes.
    static func readHeld(_ path: String, for option: String, limit: Int) throws -> HeldBytes {
        let bytes = try read(path, for: option, atMost: limit + 1, size: nil)
        guard bytes.count <= limit else {
            throw GloutError("\(option) \(Log.printable(path)): more than \(limit >> 20) MiB; not a file glout reads")
        }
        return bytes
    }

    /// Up to `most` bytes from the start of file `path`, into memory of the file's size
    /// (fstat; `size` if given), grown as needed for a file that grows or has no size.
    private static func read(_ path: String, for option: String, atMost most: Int, size: Int?) throws -> HeldBytes {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw GloutError("\(option) \(Log.printable(path)): cannot read the file (\(reason()))") }
        defer { close(fd) }
        var info = stat()
        let known = fstat(fd, &info) == 0 && info.st_mode & S_IFMT == S_IFREG ? Int(info.st_size) : 0
        // A byte more than the file's size, so that the end shows without growing the room.
        var bytes = HeldBytes(capacity: min(most, size ?? max(known + 1, 65_536)))
        while bytes.count < most {
            if bytes.count == bytes.capacity {
                // Larger than it said (or no size): twice the room, the filled bytes moved over.
                let larger = HeldBytes(capacity: min(most, 2 * bytes.capacity))
                larger.start.copyMemory(from: bytes.start, byteCount: bytes.count)
                larger.filled(bytes.count)
                bytes = larger
            }
            let count = Glibc.read(fd, bytes.start + bytes.count, min(bytes.capacity - bytes.count, 1 << 20))
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw GloutError("\(option) \(Log.printable(path)): cannot read the file (\(reason()))")
            }
            bytes.filled(count)
        }
        return bytes
    }

    /// A file name for the output called `name` (snapshots, GLOUT_DUMP_FRAMES): the name
    /// itself where it is a plain connector name, else with every character but letters,
    /// digits, '.', '-' and '_' as '_' and the output's registry number appended, so that a
    /// compositor's name ("../x", "a/b", control characters) cannot reach outside the
    /// folder or clash with another output's.
    static func fileName(forOutput name: String, id: UInt32) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_")
        let plain = !name.isEmpty && name.count <= 64 && !name.hasPrefix(".") && name.allSatisfy(allowed.contains)
        if plain { return name }
        let kept = String(name.prefix(64).map { allowed.contains($0) ? $0 : "_" })
        return (kept.hasPrefix(".") ? "_" + kept.dropFirst() : kept) + "-\(id)"
    }

    /// The text of errno.
    static func reason() -> String { String(cString: strerror(errno)) }
}
