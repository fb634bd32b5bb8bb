import Dispatch
import WaylandOutputs

/// The show glout plays now (--show), which a change of its file (``ShowWatcher``) or the
/// control API (PUT /api/v1/show) replaces: the new one is read, decoded and uploaded
/// beside the render threads, and each output draws it from its next frame on, every frame
/// before that drawing the old one. A show that cannot be played changes nothing.
final class ShowSource: Sendable {
    private let current: Locked<LoadedShow>
    /// One load at a time: a show can hold many pictures.
    private let turn = Locked(())
    private let log: Log
    private let programs: ScenePrograms
    private let graphics: Graphics
    /// Where the textures of shows no longer shown go, deleted at the next load.
    private let graveyard = TextureGraveyard()
    /// --video-decoder, for the shows' videos; and the threads that stop the videos of
    /// shows no longer drawn, which glout waits for as it stops.
    private let decoding: VideoDecoding
    private let releases = DispatchGroup()
    /// Called after a show is replaced: wakes the outputs whose picture stood still.
    private let replaced = Locked<(@Sendable () -> Void)?>(nil)
    /// Each output's stretch of time off (by name), as ``ShowPower`` works it out on the
    /// session's thread; the render threads draw black within it.
    private let offWindows = Locked<[String: KnownOffWindow]>([:])

    /// An output's stretch of time off as worked out for one show and one role (nil: none).
    struct KnownOffWindow: Sendable, Equatable {
        var show: ObjectIdentifier
        var primary: Bool
        var window: PowerSchedule.OffWindow?
    }

    /// Loads the show at `path`; its errors name the file, the place in it and the reason.
    init(path: String, log: Log, programs: ScenePrograms, graphics: Graphics, decoding: VideoDecoding = .auto) throws {
        (self.log, self.programs, self.graphics, self.decoding) = (log, programs, graphics, decoding)
        current = Locked(try LoadedShow(path: path, log: log, programs: programs, graphics: graphics, graveyard: graveyard,
                                        decoding: decoding, releases: releases))
    }

    /// The show to draw.
    var show: LoadedShow { current.withLock { $0 } }

    /// Loads the show at `path` and plays it from each output's next frame, or throws why
    /// it cannot, leaving the one that plays. `allowed`: whether an item's file may be
    /// opened (the control API's content root).
    @discardableResult
    func replace(with path: String, allowed: (String) -> Bool = { _ in true }) throws -> LoadedShow {
        try turn.withLock { _ in
            _ = try graphics.withSharedContext(deadline: SharedTexture.yielding) { graveyard.deleteBuried() }
            let show = try LoadedShow(path: path, log: log, programs: programs, graphics: graphics, graveyard: graveyard,
                                      decoding: decoding, releases: releases, allowed: allowed)
            current.withLock { $0 = show }
            replaced.withLock { $0 }?()
            return show
        }
    }

    /// Sets what is called after each replacement, from the thread that replaced the show.
    func onReplace(_ action: @escaping @Sendable () -> Void) {
        replaced.withLock { $0 = action }
    }

    /// The stretch of time the output named is off, around or after now (nil: not worked out).
    func offWindow(for output: String) -> KnownOffWindow? {
        offWindows.withLock { $0[output] }
    }

    /// Sets the stretch of time the output named is off (nil: forgotten).
    func setOffWindow(_ window: KnownOffWindow?, for output: String) {
        offWindows.withLock { $0[output] = window }
    }

    /// Deletes the textures of shows no longer shown; in the shared context.
    func deleteBuried() { graveyard.deleteBuried() }

    /// glout stops, its windows closed: the videos of the shows dropped are stopped (their
    /// threads waited for), and the playing show's stopped here and now.
    func stopVideos() {
        releases.wait()
        show.stopVideos()
    }
}
