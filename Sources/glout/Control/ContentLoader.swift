import Foundation
import Glibc
import WaylandOutputs

/// Opens, decodes and readies what PUT .../content names, on the request's thread: a
/// PNG, JPEG or WebP image, or a fragment shader (compiled in the shared context). One
/// file at a time, so that clients cannot make glout hold many large pictures at once.
struct ContentLoader: Sendable {
    private let programs: ScenePrograms
    private let graphics: Graphics
    private let root: ContentRoot
    private let log: Log
    private let scaleMode: ScaleMode
    private let videoSync: VideoSync
    private let turn = Locked(())
    private let graveyard = TextureGraveyard()

    init(stage: Stage, root: ContentRoot, log: Log) {
        (programs, graphics, self.root, self.log) = (stage.programs, stage.graphics, root, log)
        (scaleMode, videoSync) = (stage.options.scaleMode, stage.options.videoSync)
    }

    func load(_ name: String) throws(ControlError) -> ContentRendering {
        let path = try root.resolve(name)
        // Decoding takes a core for a while (a quarter of a second for a 12-megapixel PNG):
        // the render threads come first. The thread is the connection's own.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(threadID()), 10)
        do {
            return try turn.withLock { _ in try rendering(of: path) }
        } catch let error as ControlError {
            throw error
        } catch {
            var message = GloutError(error).message
            if message.hasPrefix("--content ") { message.removeFirst("--content ".count) }
            throw ControlError(422, message)
        }
    }

    private func rendering(of path: String) throws -> ContentRendering {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw ControlError(404, "\(ControlRoutes.quoted(path)): \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFREG else { throw ControlError(422, "\(ControlRoutes.quoted(path)): not a file") }
        // What the file is, before anything opens a decoder for it.
        let start = try FileSystem.readStart(path, for: "--content", count: 4097)
        switch ContentFile.kind(of: Array(start.prefix(4096)), cut: start.count > 4096) {
        case .other:
            throw ControlError(415, "\(ControlRoutes.quoted(path)): not an image or a shader; the API switches to PNG, JPEG "
                               + "and WebP images and fragment shaders (videos and playlists: --content at start)")
        case .text where !Playlist.isShader(try FileSystem.readText(path, for: "--content")):
            throw ControlError(415, "\(ControlRoutes.quoted(path)): a playlist; the API switches to images and shaders "
                               + "(playlists: --content at start)")
        default:
            break
        }
        var loaded: [String: ContentFile] = [:]
        let file = try ContentFile.load(path, log: log, loaded: &loaded)
        let piece: ContentPiece
        switch file {
        case .image(let image):
            // Uploaded here, so that no output's frame waits for it (image.frag was
            // compiled at start-up with --http).
            piece = ContentPiece(image: try image.uploaded(graphics: graphics, graveyard: graveyard),
                                 program: try programs.image)
        case .shader(_, let source):
            let program = try graphics.withSharedContext { try programs.contentShader(path: path, source: source) }
            piece = ContentPiece(image: nil, program: program)
        case .video:
            throw ControlError(415, "\(ControlRoutes.quoted(path)): an animated WebP; the API switches to still images and "
                               + "shaders (animations: --content at start)")
        case .playlist:
            throw ControlError(415, "\(ControlRoutes.quoted(path)): a playlist; the API switches to images and shaders "
                               + "(playlists: --content at start)")
        }
        return ContentRendering(piece, scaleMode: scaleMode, videoSync: videoSync)
    }
}

/// glibc's gettid (2.30), which the Glibc module does not import.
@_silgen_name("gettid")
private func threadID() -> pid_t
