import XCTest
@testable import glout

/// Which video frame each refresh shows, the cadence that makes, and the colours the
/// frame is drawn in. The frame is the one whose interval holds the refresh's target
/// time, for target times as a display link gives them (a period apart, at a phase of
/// their own).
final class VideoTimelineTests: XCTestCase {
    /// A constant-rate clip of `count` frames at `fps`, timestamps in a 90 kHz time base
    /// (MPEG-TS's), or in 1/fps ticks when that does not divide.
    func clip(fps: Int, count: Int) -> VideoTimeline {
        let perFrame = 90_000 / fps
        return VideoTimeline(starts: (0..<count).map { Int64($0 * perFrame) }, end: Int64(count * perFrame),
                             tick: 1 / 90_000)!
    }

    /// The frames shown by `refreshes` targets at `hz`, starting at `phase` seconds, with
    /// each target moved by `jitter(k)` seconds.
    func shown(_ timeline: VideoTimeline, hz: Double, refreshes: Int, phase: Double,
               jitter: (Int) -> Double = { _ in 0 }) -> [Int] {
        (0..<refreshes).map { timeline.frame(at: phase + Double($0) / hz + jitter($0)) }
    }

    func cadence(of frames: [Int], refreshesPerFrame: Double) -> VideoCadence {
        var cadence = VideoCadence()
        for frame in frames { cadence.refresh(showing: frame, refreshesPerFrame: refreshesPerFrame) }
        return cadence
    }

    /// How many refreshes in a row each frame got, the first and last run left out.
    func runs(_ frames: [Int]) -> [Int] {
        var runs: [Int] = [], length = 1
        for (a, b) in zip(frames, frames.dropFirst()) {
            if a == b { length += 1 } else { runs.append(length); length = 1 }
        }
        return Array(runs.dropFirst())
    }

    func test_24OnA60HzOutputIsThreeTwoPulldown() {
        let timeline = clip(fps: 24, count: 240)
        // Targets half of 1/120 s off the grid both share: never near a frame's edge,
        // so a millisecond of jitter either way changes nothing.
        for jitter in [{ (_: Int) in 0.0 }, { (k: Int) in (k % 3 == 0 ? 1 : -1) * 0.001 }] {
            let frames = shown(timeline, hz: 60, refreshes: 600, phase: 1 / 240, jitter: jitter)
            let pattern = runs(frames)
            XCTAssertEqual(Set(pattern), [2, 3])
            for (a, b) in zip(pattern, pattern.dropFirst()) { XCTAssertNotEqual(a, b, "3:2 alternates") }
            let c = cadence(of: frames, refreshesPerFrame: 60 / 24)
            XCTAssertEqual(c.cadenceErrors, 0)
            XCTAssertEqual(c.passedOver, 0)
            XCTAssertEqual(c.shown, 240)
        }
    }

    func test_24OnA50HzOutputIsMostlyTwoWithAThreeEveryTwelveFrames() {
        let timeline = clip(fps: 24, count: 240)
        let frames = shown(timeline, hz: 50, refreshes: 500, phase: 1 / 1200)
        let pattern = runs(frames)
        XCTAssertEqual(Set(pattern), [2, 3])
        // 50/24 = 2 + 1/12: one frame in twelve is held a third refresh.
        XCTAssertEqual(Double(pattern.filter { $0 == 3 }.count) / Double(pattern.count), 1 / 12, accuracy: 0.01)
        XCTAssertEqual(cadence(of: frames, refreshesPerFrame: 50 / 24).cadenceErrors, 0)
    }

    func test_30OnA144HzOutputIsFourFiveFiveFiveFive() {
        let timeline = clip(fps: 30, count: 150)
        let frames = shown(timeline, hz: 144, refreshes: 720, phase: 1 / 1440)
        let pattern = runs(frames)
        XCTAssertEqual(Set(pattern), [4, 5])
        // 144/30 = 4.8: four frames in five get five refreshes.
        XCTAssertEqual(Double(pattern.filter { $0 == 5 }.count) / Double(pattern.count), 0.8, accuracy: 0.01)
        let c = cadence(of: frames, refreshesPerFrame: 144 / 30)
        XCTAssertEqual(c.cadenceErrors, 0)
        XCTAssertEqual(c.passedOver, 0)
    }

    func test_25OnA60HzOutputIsTwoThreeTwoThreeTwo() {
        let timeline = clip(fps: 25, count: 250)
        let frames = shown(timeline, hz: 60, refreshes: 600, phase: 1 / 600)
        let pattern = runs(frames)
        XCTAssertEqual(Set(pattern), [2, 3])
        // 60/25 = 2.4: two frames in five get three refreshes.
        XCTAssertEqual(Double(pattern.filter { $0 == 3 }.count) / Double(pattern.count), 0.4, accuracy: 0.01)
        XCTAssertEqual(cadence(of: frames, refreshesPerFrame: 60 / 25).cadenceErrors, 0)
    }

    func test_24OnA24HzOutputShowsEachFrameOnce() {
        let timeline = clip(fps: 24, count: 48)
        let frames = shown(timeline, hz: 24, refreshes: 96, phase: 0.5 / 24)
        XCTAssertEqual(frames, Array(0..<96))
        XCTAssertEqual(cadence(of: frames, refreshesPerFrame: 1).cadenceErrors, 0)
    }

    /// The loop: frame numbers go on across the wrap, one pass after the other, so
    /// nothing stops or repeats there.
    func test_theLoopWrapsWithoutAGapOrARepeat() {
        let timeline = clip(fps: 24, count: 24)
        XCTAssertEqual(timeline.length, 1, accuracy: 1e-12)
        let frames = shown(timeline, hz: 60, refreshes: 300, phase: 1 / 240)
        XCTAssertEqual(Array(Set(frames)).sorted(), Array(0..<120))
        XCTAssertEqual(timeline.position(of: 49).pass, 2)
        XCTAssertEqual(timeline.position(of: 49).index, 1)
        XCTAssertEqual(timeline.seconds(of: 49), 2 + 1 / 24, accuracy: 1e-9)
        XCTAssertEqual(cadence(of: frames, refreshesPerFrame: 2.5).cadenceErrors, 0)
    }

    /// The realtime clock: seconds since 1970 are a pass number in the hundred millions,
    /// still exact to the frame.
    func test_realtimeSecondsPickTheFrameOfThatInstantInTheLoop() {
        let timeline = clip(fps: 24, count: 72)  // 3 s
        let now = 1_796_000_001.0 + 1.5 + 0.5 / 24  // 1.5 s into a pass (1_796_000_001 is 3 × 598_666_667)
        let frame = timeline.frame(at: now)
        XCTAssertEqual(timeline.position(of: frame).index, 36)
        XCTAssertEqual(timeline.position(of: frame).pass, 598_666_667)
    }

    /// Variable frame rate: a frame is held until the next one's start, however long.
    func test_aVariableRateClipHoldsEachFrameUntilTheNextStarts() {
        let timeline = VideoTimeline(starts: [0, 10, 40, 45], end: 100, tick: 0.01)!
        XCTAssertEqual(timeline.frame(at: 0.05), 0)
        XCTAssertEqual(timeline.frame(at: 0.39), 1)
        XCTAssertEqual(timeline.frame(at: 0.42), 2)
        XCTAssertEqual(timeline.frame(at: 0.99), 3)
        XCTAssertEqual(timeline.frame(at: 1.0), 4)
        XCTAssertEqual(timeline.index(atOrBefore: 44), 2)
        XCTAssertEqual(timeline.index(atOrBefore: -5), 0)
    }

    /// Values no clip should have: still a timeline, or none, never a trap.
    func test_strangeTimesGiveTheFirstFrameOrNoTimeline() throws {
        let timeline = clip(fps: 24, count: 24)
        XCTAssertEqual(timeline.frame(at: -5), 0)
        XCTAssertEqual(timeline.frame(at: .nan), 0)
        XCTAssertEqual(timeline.frame(at: .infinity), 0)
        XCTAssertNil(VideoTimeline(starts: [], end: 10, tick: 1))
        XCTAssertNil(VideoTimeline(starts: [5], end: 5, tick: 1))
        XCTAssertNil(VideoTimeline(starts: [0], end: 5, tick: 0))
        XCTAssertNil(VideoTimeline(frames: 0, duration: 1))
        XCTAssertEqual(VideoTimeline(starts: [3, 1, 3, 2], end: 4, tick: 1)?.starts, [1, 2, 3])
        // A pass longer than Int64 ticks (a crafted file's times): no timeline, no trap.
        XCTAssertNil(VideoTimeline(starts: [Int64.min / 2 - 10, Int64.max / 2], end: Int64.max / 2 + 1000, tick: 1))
        XCTAssertFalse(VideoTimeline(starts: [0, 1], end: 2, tick: 1)!.framed)
        let framed = try XCTUnwrap(VideoTimeline(frames: 48, duration: 1 / 24))
        XCTAssertTrue(framed.framed)
        XCTAssertEqual(framed.frame(at: 1.5 + 0.5 / 24), 36)
        XCTAssertEqual(framed.frame(at: 2 + 0.5 / 24), 48)
    }

    func test_aFrameHeldTooLongOrPassedOverIsCounted() {
        var c = VideoCadence()
        for frame in [0, 0, 0, 1, 1, 1, 1, 2, 2, 4, 4, 4, 5] { c.refresh(showing: frame, refreshesPerFrame: 2.5) }
        XCTAssertEqual(c.shown, 5)
        XCTAssertEqual(c.holds, [4: 1, 2: 1, 3: 1])
        XCTAssertEqual(c.cadenceErrors, 1)  // frame 1's four refreshes
        XCTAssertEqual(c.passedOver, 1)  // frame 3
        XCTAssertTrue(VideoCadence.allowed(1, refreshesPerFrame: 1.005))
        XCTAssertFalse(VideoCadence.allowed(2, refreshesPerFrame: 1.005))
        // A frame of 4e-19 frames a second (a crafted file's) on 60 Hz: judged, no trap.
        var slow = VideoCadence()
        for frame in [0, 0, 1, 1, 2] { slow.refresh(showing: frame, refreshesPerFrame: 1.35e20) }
        XCTAssertEqual(slow.cadenceErrors, 1)
        XCTAssertFalse(VideoCadence.allowed(2, refreshesPerFrame: .infinity))
    }

    /// video.frag's matrix: video-range white and black are 255 and 0, and BT.709's and
    /// BT.601's primaries come out as the primaries.
    func test_theColourMatrixTurnsVideoRangeYCbCrIntoRGB() {
        func rgb(_ y: Double, _ cb: Double, _ cr: Double, bt709: Bool, full: Bool = false) -> [Double] {
            let m = VideoPlayer.colourMatrix(bt709: bt709, fullRange: full)
            let l = (y / 255 - m.0) * m.1, u = (cb / 255 - m.2) * m.3, v = (cr / 255 - m.2) * m.3
            return [l + m.4 * v, l - m.5 * u - m.6 * v, l + m.7 * u].map { min(max($0, 0), 1) * 255 }
        }
        func near(_ a: [Double], _ b: [Double], within: Double = 2) -> Bool { zip(a, b).allSatisfy { abs($0 - $1) <= within } }
        XCTAssertTrue(near(rgb(235, 128, 128, bt709: true), [255, 255, 255]))
        XCTAssertTrue(near(rgb(16, 128, 128, bt709: false), [0, 0, 0]))
        XCTAssertTrue(near(rgb(255, 128, 128, bt709: true, full: true), [255, 255, 255]))
        // Red, green and blue at 100% in BT.709 video range (ITU-R BT.709 table values).
        XCTAssertTrue(near(rgb(63, 102, 240, bt709: true), [255, 0, 0]), "\(rgb(63, 102, 240, bt709: true))")
        XCTAssertTrue(near(rgb(173, 42, 26, bt709: true), [0, 255, 0]), "\(rgb(173, 42, 26, bt709: true))")
        XCTAssertTrue(near(rgb(32, 240, 118, bt709: true), [0, 0, 255]), "\(rgb(32, 240, 118, bt709: true))")
        // And in BT.601.
        XCTAssertTrue(near(rgb(81, 90, 240, bt709: false), [255, 0, 0]), "\(rgb(81, 90, 240, bt709: false))")
    }
}

/// --video-sync speed: the factor a video's time runs at on an output.
final class VideoSyncTests: XCTestCase {
    func test_speedMakesEachFrameWholeRefreshesWhereThatIsWithinOnePerCent() {
        let speed = VideoSync.speed
        XCTAssertEqual(speed.rate(framesPerSecond: 30_000.0 / 1001, refreshHertz: 60), 1.001, accuracy: 1e-12)
        XCTAssertEqual(speed.rate(framesPerSecond: 24_000.0 / 1001, refreshHertz: 48), 1.001, accuracy: 1e-12)
        XCTAssertEqual(speed.rate(framesPerSecond: 30.25, refreshHertz: 60), 60.0 / 2 / 30.25, accuracy: 1e-12)
        XCTAssertEqual(speed.rate(framesPerSecond: 25, refreshHertz: 50), 1)
        XCTAssertEqual(speed.rate(framesPerSecond: 24, refreshHertz: 144), 1)
        XCTAssertEqual(speed.rate(framesPerSecond: 60, refreshHertz: 59.94), 0.999, accuracy: 1e-12)
        // 2.5 refreshes a frame, 2.4 and 1.02: no whole number within 1%.
        XCTAssertEqual(speed.rate(framesPerSecond: 24, refreshHertz: 60), 1)
        XCTAssertEqual(speed.rate(framesPerSecond: 25, refreshHertz: 60), 1)
        XCTAssertEqual(speed.rate(framesPerSecond: 30.6, refreshHertz: 60), 1)
        // Faster than the refresh, and values no output sends.
        XCTAssertEqual(speed.rate(framesPerSecond: 120, refreshHertz: 60), 1)
        for hertz in [0, -60, Double.nan, .infinity] { XCTAssertEqual(speed.rate(framesPerSecond: 24, refreshHertz: hertz), 1) }
        XCTAssertEqual(speed.rate(framesPerSecond: 0, refreshHertz: 60), 1)
        XCTAssertEqual(VideoSync.time.rate(framesPerSecond: 30_000.0 / 1001, refreshHertz: 60), 1)
    }
}

/// --video-conversion: where a video's colours become RGB, and the queue that follows.
final class VideoConversionTests: XCTestCase {
    func test_autoIsSwscaleWhereGLShadesOnTheCPUAndTheShaderElsewhere() {
        XCTAssertEqual(VideoConversion.auto.resolved(rasterizesOnCPU: true), .swscale)
        XCTAssertEqual(VideoConversion.auto.resolved(rasterizesOnCPU: false), .shader)
        for chosen in [VideoConversion.shader, .swscale] {
            XCTAssertEqual(chosen.resolved(rasterizesOnCPU: true), chosen)
            XCTAssertEqual(chosen.resolved(rasterizesOnCPU: false), chosen)
        }
    }

    func test_theOptionTakesTheThreeWaysAndNothingElse() throws {
        guard case .run(let options) = try Arguments.parse(["run", "--video-conversion", "shader"]) else {
            return XCTFail("not a run")
        }
        XCTAssertEqual(options.videoConversion, .shader)
        guard case .run(let defaults) = try Arguments.parse(["run"]) else { return XCTFail("not a run") }
        XCTAssertEqual(defaults.videoConversion, .auto)
        XCTAssertThrowsError(try Arguments.parse(["run", "--video-conversion", "gpu"])) { error in
            XCTAssertTrue("\(error)".contains("--video-conversion must be auto, shader or swscale, not 'gpu'"), "\(error)")
        }
        XCTAssertEqual(defaults.videoDecoding, .auto)
        for decoding in [VideoDecoding.software, .vaapi] {
            guard case .run(let chosen) = try Arguments.parse(["run", "--video-decoder", decoding.rawValue]) else {
                return XCTFail("not a run")
            }
            XCTAssertEqual(chosen.videoDecoding, decoding)
        }
        XCTAssertThrowsError(try Arguments.parse(["run", "--video-decoder", "gpu"])) { error in
            XCTAssertTrue("\(error)".contains("--video-decoder must be auto, software or vaapi, not 'gpu'"), "\(error)")
        }
    }

    func test_aFrameTakesItsFormsBytes() {
        XCTAssertEqual(VideoFrame.bytes(width: 1920, height: 1080, conversion: .swscale), 1920 * 1080 * 4)
        XCTAssertEqual(VideoFrame.bytes(width: 1920, height: 1080, conversion: .shader), 1920 * 1080 * 3 / 2)
        // Odd sizes round the chroma up.
        XCTAssertEqual(VideoFrame.bytes(width: 3, height: 3, conversion: .shader), 9 + 2 * 4)
    }
}

/// The frames' memory goes back to its pool when the last holder lets go, and is reused.
final class VideoFrameMemoryTests: XCTestCase {
    func test_aFrameLetGoIsReusedUpToTheSparesAndAnotherSizeStartsAfresh() throws {
        let pool = VideoFrameMemory.Pool(spares: 2)
        var first: VideoFrameMemory? = try XCTUnwrap(pool.take(1000))
        let address = first!.bytes
        XCTAssertEqual(pool.spareCount, 0)
        first = nil
        XCTAssertEqual(pool.spareCount, 1)
        let again = try XCTUnwrap(pool.take(1000))
        XCTAssertEqual(again.bytes, address, "the block let go is the one taken next")
        XCTAssertEqual(Int(bitPattern: again.bytes) % 64, 0)
        // Three let go, two kept.
        var held = try (0..<3).map { _ in try XCTUnwrap(pool.take(1000)) }
        held.removeAll()
        XCTAssertEqual(pool.spareCount, 2)
        // Another size: the spares of the old one are freed, and its late returns too.
        let other = try XCTUnwrap(pool.take(4000))
        XCTAssertEqual(other.count, 4000)
        XCTAssertEqual(pool.spareCount, 0)
        _ = again
        XCTAssertNil(pool.take(0))
    }

    /// Spares of large frames are kept up to a number of bytes, one at least.
    func test_sparesStayWithinTheirBytes() throws {
        let pool = VideoFrameMemory.Pool(spares: 4, bytes: 2500)
        var held = try (0..<4).map { _ in try XCTUnwrap(pool.take(1000)) }
        held.removeAll()
        XCTAssertEqual(pool.spareCount, 2)
        var large = try (0..<2).map { _ in try XCTUnwrap(pool.take(3000)) }
        large.removeAll()
        XCTAssertEqual(pool.spareCount, 1)
    }
}

/// The refresh a video's cadence is judged by: what the frames show once there are enough.
final class MeasuredRefreshTests: XCTestCase {
    func test_framesEvery16msOfANominal60HzOutputMeasure16msAfterEnoughIntervals() {
        var refresh = MeasuredRefresh()
        let nominal = 1e9 / 60
        var time: UInt64 = 5_000_000_000
        for index in 0..<UInt64(MeasuredRefresh.needed) {
            refresh.frame(index: index, nanoseconds: time, nominal: nominal)
            XCTAssertEqual(refresh.period(nominal: nominal), nominal, "too few intervals yet: the nominal period")
            time += 16_000_000
        }
        refresh.frame(index: UInt64(MeasuredRefresh.needed), nanoseconds: time, nominal: nominal)
        XCTAssertEqual(refresh.period(nominal: nominal), 16_000_000, accuracy: 1)
        // 30 fps there: a frame is held 2 or 3 refreshes, not only 2.
        let ratio = 1e9 / refresh.period(nominal: nominal) / 30
        XCTAssertTrue(VideoCadence.allowed(3, refreshesPerFrame: ratio))
        XCTAssertFalse(VideoCadence.allowed(3, refreshesPerFrame: 1e9 / nominal / 30))
    }

    func test_missedRefreshesSkippedFramesAndWildTimesAreNotCounted() {
        var refresh = MeasuredRefresh()
        let nominal = 1e9 / 60
        refresh.frame(index: 0, nanoseconds: 1_000_000_000, nominal: nominal)
        refresh.frame(index: 1, nanoseconds: 1_033_333_333, nominal: nominal)  // a missed refresh
        refresh.frame(index: 3, nanoseconds: 1_050_000_000, nominal: nominal)  // a frame not drawn between
        refresh.frame(index: 4, nanoseconds: 1_040_000_000, nominal: nominal)  // time going back
        refresh.frame(index: 5, nanoseconds: UInt64.max, nominal: nominal)     // from a wrong clock
        refresh.frame(index: 6, nanoseconds: 1_000, nominal: .nan)
        XCTAssertEqual(refresh.intervals, 0)
    }
}

/// Near a frame's edge, jitter in the target time does not break the cadence: the hold
/// keeps each frame for the refreshes its cadence calls for, never more than a quarter
/// refresh from the frame its time calls for.
final class CadenceHoldTests: XCTestCase {
    let timeline = VideoTimeline(starts: (0..<480).map { Int64($0 * 3750) }, end: 480 * 3750, tick: 1 / 90_000)!

    /// Frames shown by refreshes at `hz` whose targets land `jitter(k)` seconds off a grid that
    /// puts a refresh right on a frame's edge now and then; with the hold or without.
    func shown(hz: Double, jitter: (Int) -> Double, holding: Bool) -> (frames: [Int], exact: [Int], early: [Int], late: [Int]) {
        var hold = CadenceHold()
        var result: ([Int], [Int], [Int], [Int]) = ([], [], [], [])
        let margin = 0.25 / hz
        for k in 0..<Int(hz * 19) {
            let t = Double(k) / hz + jitter(k)
            let (early, exact, late) = (timeline.frame(at: t - margin), timeline.frame(at: t), timeline.frame(at: t + margin))
            let frame = holding ? hold.choose(early: early, exact: exact, late: late, refreshesPerFrame: hz / 24) : exact
            result.0.append(frame); result.1.append(exact); result.2.append(early); result.3.append(late)
        }
        return result
    }

    func errors(_ frames: [Int], hz: Double) -> Int {
        var cadence = VideoCadence()
        for frame in frames { cadence.refresh(showing: frame, refreshesPerFrame: hz / 24) }
        return cadence.cadenceErrors
    }

    func test_jitterAtAFramesEdgeLeavesTheCadenceWhole() {
        var generator = SeededGenerator(seed: 7)
        // Up to a fifth of a refresh either way (4 ms at 50 Hz).
        let jitters = (0..<3000).map { _ in Double.random(in: -0.2...0.2, using: &generator) }
        for hz in [50.0, 60, 62.5, 144] {
            let without = shown(hz: hz, jitter: { jitters[$0] / hz }, holding: false)
            let with = shown(hz: hz, jitter: { jitters[$0] / hz }, holding: true)
            if hz == 50 {
                // On this grid refreshes fall right on frames' edges every half second:
                // jitter there holds a frame one refresh (or four).
                XCTAssertGreaterThan(errors(without.frames, hz: hz), 3, "\(hz) Hz without the hold")
            }
            XCTAssertEqual(errors(with.frames, hz: hz), 0, "\(hz) Hz with the hold")
            for k in with.frames.indices {
                XCTAssertTrue((with.early[k]...with.late[k]).contains(with.frames[k]), "\(hz) Hz, refresh \(k)")
            }
            XCTAssertEqual(with.frames.last!, with.exact.last!, accuracy: 1)
        }
    }

    func test_farFromAnEdgeOrAfterAJumpTheExactFrameShows() {
        var hold = CadenceHold()
        XCTAssertEqual(hold.choose(early: 10, exact: 10, late: 10, refreshesPerFrame: 2.5), 10)
        // Held once, the next frame's edge just passed: held a second time.
        XCTAssertEqual(hold.choose(early: 10, exact: 11, late: 11, refreshesPerFrame: 2.5), 10)
        // Held twice: the exact frame.
        XCTAssertEqual(hold.choose(early: 10, exact: 11, late: 11, refreshesPerFrame: 2.5), 11)
        // A jump (a seek, a wrapped clock): the exact frame, whatever the hold.
        XCTAssertEqual(hold.choose(early: 500, exact: 500, late: 501, refreshesPerFrame: 2.5), 500)
        // Held three times with the next edge just ahead: the next frame.
        _ = hold.choose(early: 500, exact: 500, late: 500, refreshesPerFrame: 2.5)
        _ = hold.choose(early: 500, exact: 500, late: 500, refreshesPerFrame: 2.5)
        XCTAssertEqual(hold.choose(early: 500, exact: 500, late: 501, refreshesPerFrame: 2.5), 501)
        // A video faster than the refresh, and values no output gives: the exact frame.
        for ratio in [0.5, .nan, .infinity, 1e300] {
            var other = CadenceHold()
            _ = other.choose(early: 1, exact: 1, late: 1, refreshesPerFrame: ratio)
            XCTAssertEqual(other.choose(early: 1, exact: 2, late: 2, refreshesPerFrame: ratio), 2, "\(ratio)")
        }
    }
}

/// A small deterministic generator (SplitMix64) for jitter that is the same every run.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

final class VideoTexturesTests: XCTestCase {
    /// A frame goes where no other output's frame is, the longest unused such slot first;
    /// a new slot only when every slot holds a frame shown elsewhere; past the capacity,
    /// the slot used longest ago, shown or not.
    func test_aFrameGoesIntoASlotNoOtherOutputShowsElseANewOneElseTheOldest() {
        XCTAssertNil(VideoTextures.choose(slots: [], capacity: 4))
        XCTAssertNil(VideoTextures.choose(slots: [(true, false, 5)], capacity: 4))
        XCTAssertEqual(VideoTextures.choose(slots: [(false, false, 5)], capacity: 4), 0)
        XCTAssertEqual(VideoTextures.choose(slots: [(false, false, 3), (true, false, 1), (false, false, 2)], capacity: 4), 2)
        XCTAssertNil(VideoTextures.choose(slots: [(true, false, 7), (true, false, 3), (true, false, 9)], capacity: 4))
        XCTAssertEqual(VideoTextures.choose(slots: [(true, false, 7), (true, false, 3), (true, false, 9), (true, false, 5)],
                                            capacity: 4), 1)
        XCTAssertEqual(VideoTextures.choose(slots: [(true, false, 7), (true, false, 3), (true, false, 9), (false, false, 8)],
                                            capacity: 4), 3)
    }

    /// A slot some window draws from at this moment (its draws not fenced yet) is never
    /// written: the next oldest, else a new slot even past the capacity.
    func test_aSlotAWindowDrawsFromIsNeverChosen() {
        XCTAssertEqual(VideoTextures.choose(slots: [(false, true, 1), (false, false, 4)], capacity: 4), 1)
        XCTAssertNil(VideoTextures.choose(slots: [(false, true, 1)], capacity: 4))
        XCTAssertEqual(VideoTextures.choose(slots: [(true, true, 1), (true, false, 6), (true, false, 2), (true, true, 3)],
                                            capacity: 4), 2)
        XCTAssertNil(VideoTextures.choose(slots: [(true, true, 1), (true, true, 2)], capacity: 2))
    }
}
