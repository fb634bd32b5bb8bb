/// Keeps a video's frames held for the refreshes their cadence calls for when a refresh's
/// target time falls near the edge between two frames. There, a millisecond of jitter in
/// the target decides whether the refresh shows the frame before the edge or after it,
/// and a frame comes out held one refresh too few, the next one too many (measured: 24
/// fps on a 50 Hz headless sway, 4 frames of 1584 held one refresh instead of two).
///
/// Each refresh offers the frames its target time calls for give or take a margin (a
/// quarter of a refresh): `early`, `exact` and `late`. The frame showing stays while it
/// has been held fewer refreshes than the cadence's least and is still among them; the
/// next frame comes as soon as the showing one has been held the cadence's most and it
/// is among them; otherwise the exact frame shows. So no frame is ever more than the
/// margin away from the one its time calls for, and screens of a wall, each holding its
/// own cadence, stay at most one frame apart. Pure; one per output and video.
struct CadenceHold: Equatable {
    private(set) var frame: Int?
    private(set) var held = 0

    /// The frame this refresh shows, of the frames at its target time minus the margin
    /// (`early`), at it (`exact`) and plus the margin (`late`), where a frame lasts
    /// `refreshesPerFrame` refreshes.
    mutating func choose(early: Int, exact: Int, late: Int, refreshesPerFrame: Double) -> Int {
        var chosen = exact
        if let frame, refreshesPerFrame >= 1, refreshesPerFrame < 1e9, early <= exact, exact <= late {
            let (least, most) = VideoCadence.holds(refreshesPerFrame)
            if frame != exact, held < least, (early...late).contains(frame) {
                chosen = frame
            } else if frame == exact, held >= most, frame + 1 <= late {
                chosen = frame + 1
            }
        }
        if chosen == frame {
            held += 1
        } else {
            (frame, held) = (chosen, 1)
        }
        return chosen
    }
}
