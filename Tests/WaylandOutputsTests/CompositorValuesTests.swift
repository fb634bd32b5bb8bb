import XCTest
@testable import WaylandOutputs

/// Every number a compositor sends, at and past the edges of what the library takes.
final class CompositorValuesTests: XCTestCase {
    func test_scalesAreClampedToOneToEight() {
        XCTAssertEqual(CompositorValues.scale(2), .init(value: 2, problem: nil))
        XCTAssertEqual(CompositorValues.scale(8).value, 8)
        XCTAssertEqual(CompositorValues.scale(Int32.max).value, 8)
        XCTAssertEqual(CompositorValues.scale(Int32.max).problem?.description, "wl_output.scale 2147483647 is out of range; using 8")
        XCTAssertEqual(CompositorValues.scale(0).value, 1)
        XCTAssertEqual(CompositorValues.scale(Int32.min).value, 1)
    }

    func test_modesBeyondAnyDisplayAreDroppedAndUnknownRefreshesAreZero() {
        XCTAssertEqual(CompositorValues.mode(width: 7680, height: 4320).value, Size(width: 7680, height: 4320))
        XCTAssertNil(CompositorValues.mode(width: Int32.max, height: 720).value)
        XCTAssertNil(CompositorValues.mode(width: 0, height: 720).value)
        XCTAssertNil(CompositorValues.mode(width: 1280, height: -1).value)
        XCTAssertEqual(CompositorValues.refresh(59_940).value, 59_940)
        XCTAssertEqual(CompositorValues.refresh(0), .init(value: 0, problem: nil), "0 means unknown: not a problem")
        XCTAssertEqual(CompositorValues.refresh(-1).value, 0)
        XCTAssertEqual(CompositorValues.refresh(999).value, 0)
        XCTAssertEqual(CompositorValues.refresh(Int32.max).value, 0)
    }

    func test_transformsSubpixelsAndPhysicalSizes() {
        XCTAssertEqual(CompositorValues.transform(7).value, .flipped270)
        XCTAssertEqual(CompositorValues.transform(8).value, .normal)
        XCTAssertNotNil(CompositorValues.transform(-1).problem)
        XCTAssertEqual(CompositorValues.subpixel(5).value, .verticalBGR)
        XCTAssertEqual(CompositorValues.subpixel(6).value, .unknown)
        XCTAssertEqual(CompositorValues.physicalSize(width: 600, height: 340).value, Size(width: 600, height: 340))
        // kwin 6.3 sends -1x-1 for virtual outputs: unknown, and no problem to report.
        XCTAssertEqual(CompositorValues.physicalSize(width: -1, height: -1), .init(value: .zero, problem: nil))
        XCTAssertEqual(CompositorValues.physicalSize(width: Int32.max, height: 5).value, .zero)
        XCTAssertNotNil(CompositorValues.physicalSize(width: Int32.max, height: 5).problem)
    }

    func test_logicalGeometryOutOfRangeIsIgnored() {
        XCTAssertEqual(CompositorValues.logicalSize(width: 1280, height: 720).value, Size(width: 1280, height: 720))
        XCTAssertNil(CompositorValues.logicalSize(width: Int32.max, height: 720).value)
        XCTAssertNil(CompositorValues.logicalSize(width: 0, height: 720).value)
        XCTAssertEqual(CompositorValues.logicalPosition(x: -1920, y: 1_000_000).value, Point(x: -1920, y: 1_000_000))
        XCTAssertNil(CompositorValues.logicalPosition(x: Int32.max, y: 0).value)
    }

    func test_configuresKeepZeroAsTheClientsChoiceAndClampTheRest() {
        XCTAssertEqual(CompositorValues.configure(width: 0, height: 0), .init(value: .zero, problem: nil))
        XCTAssertEqual(CompositorValues.configure(width: 1920, height: 1080).value, Size(width: 1920, height: 1080))
        XCTAssertEqual(CompositorValues.configure(width: -5, height: -5).value, .zero)
        XCTAssertEqual(CompositorValues.configure(width: Int32.max, height: 100_000).value, Size(width: 32768, height: 32768))
        XCTAssertEqual(CompositorValues.configure(width: Int32.max, height: 7).problem?.description,
                       "xdg_toplevel.configure 2147483647x7 is out of range; using 32768x7")
    }

    func test_preferredScalesAndTransforms() {
        XCTAssertEqual(CompositorValues.fractionalScale(180).value, 180)
        XCTAssertNil(CompositorValues.fractionalScale(0).value)
        XCTAssertNil(CompositorValues.fractionalScale(UInt32.max).value)
        XCTAssertEqual(CompositorValues.preferredBufferScale(2).value, 2)
        XCTAssertNil(CompositorValues.preferredBufferScale(-5).value)
        XCTAssertEqual(CompositorValues.preferredBufferTransform(1).value, .rotated90)
        XCTAssertNil(CompositorValues.preferredBufferTransform(UInt32.max).value)
    }

    func test_presentationTimesAreCheckedAgainstNowAndTheFrameBefore() {
        let now: UInt64 = 5_000_000_000_000
        XCTAssertEqual(try CompositorValues.presentedTime(now - 4_000_000, nanoseconds: 1, arrivedAt: now, previous: nil).get(),
                       now - 4_000_000)
        func rejected(_ time: UInt64?, _ nanoseconds: UInt32 = 0, previous: UInt64? = nil) -> CompositorValues.RejectedTime? {
            if case .failure(let reason) = CompositorValues.presentedTime(time, nanoseconds: nanoseconds, arrivedAt: now,
                                                                         previous: previous) { return reason }
            return nil
        }
        XCTAssertEqual(rejected(now, 1_000_000_000), .nanosecondsOutOfRange)
        XCTAssertEqual(rejected(nil), .farFromNow, "beyond 64 bits of nanoseconds")
        XCTAssertEqual(CompositorValues.presentedTime(now, nanoseconds: 0, clockKnown: false, arrivedAt: now, previous: nil),
                       .failure(.unknownClock))
        XCTAssertEqual(rejected(now + 5_000_000_000), .farFromNow)
        XCTAssertEqual(rejected(now - 60_000_000_000), .farFromNow)
        XCTAssertEqual(rejected(UInt64.max), .farFromNow)
        XCTAssertEqual(rejected(now - 1_000, previous: now - 500), .backwards)
        XCTAssertNil(rejected(now - 500, previous: now - 500), "the same refresh twice is no going back")
        // Just after boot "now" is small: nothing can lie 10 s in the past yet.
        XCTAssertEqual(try? CompositorValues.presentedTime(1_000, nanoseconds: 0, arrivedAt: 2_000_000, previous: nil).get(), 1_000)
        XCTAssertEqual(CompositorValues.presentedRefresh(16_666_666).value, 16_666_666)
        XCTAssertEqual(CompositorValues.presentedRefresh(0), .init(value: 0, problem: nil))
        XCTAssertEqual(CompositorValues.presentedRefresh(UInt32.max).value, 0)
    }

    /// A sequence counts refreshes only where the presentation was vsync'd: headless
    /// mutter 48's counts its frames (flags 4, hw_completion alone).
    func test_aPresentationSequenceCountsRefreshesOnlyWhereItWasVsynced() {
        XCTAssertEqual(CompositorValues.presentedSequence(42, flags: 0x1), 42)
        XCTAssertEqual(CompositorValues.presentedSequence(42, flags: 0x7), 42)
        XCTAssertEqual(CompositorValues.presentedSequence(42, flags: 0x4), 0)
        XCTAssertEqual(CompositorValues.presentedSequence(42, flags: 0), 0)
    }

    func test_anOutputStateFedEveryExtremeStillPublishesAUsableOutput() {
        var state = OutputState(id: 9)
        state.expectXdgOutput(version: 3)
        let events: [OutputProtocolEvent] = [
            .geometry(physicalWidth: Int32.max, physicalHeight: 7, subpixel: 99, make: "m", model: "m", transform: 1234),
            .mode(flags: 3, width: Int32.max, height: Int32.max, refresh: -5),
            .mode(flags: 3, width: 1920, height: 1080, refresh: Int32.max),
            .scale(Int32.max),
            .name("X"),
            .done,
            .logicalPosition(x: Int32.min, y: 0),
            .logicalSize(width: -1, height: 0),
            .done,
        ]
        let published = events.compactMap { state.apply($0) }
        let output = published.last
        XCTAssertEqual(output?.scale, 8)
        XCTAssertEqual(output?.transform, .normal)
        XCTAssertEqual(output?.physicalSize, .zero)
        XCTAssertEqual(output?.modes.map(\.size), [Size(width: 1920, height: 1080)], "the impossible mode is dropped")
        XCTAssertEqual(output?.currentMode?.refreshMilliHertz, 0)
        // The logical size out of range is derived from the mode and the scale.
        XCTAssertEqual(output?.logicalFrame.size, Size(width: 240, height: 135))
        XCTAssertEqual(output?.logicalFrame.origin, .zero)
        let problems = state.takeProblems().map(\.event)
        XCTAssertEqual(Set(problems), ["wl_output.geometry physical size", "wl_output.geometry subpixel",
                                       "wl_output.geometry transform", "wl_output.mode", "wl_output.mode refresh",
                                       "wl_output.scale", "zxdg_output_v1.logical_position", "zxdg_output_v1.logical_size"])
        XCTAssertEqual(state.takeProblems(), [], "taken once")
    }

    func test_complaintsAreSaidOncePerKindThenLogged() {
        let lines = Locked<[(Log.Level, String)]>([])
        let log = Log { level, message in lines.withLock { $0.append((level, message)) } }
        var complaints = CompositorComplaints()
        let problem = CompositorValues.scale(99).problem
        complaints.report(problem, about: "output A", log: log)
        complaints.report(problem, about: "output A", log: log)
        complaints.report(CompositorValues.transform(9).problem, about: "output A", log: log)
        complaints.report(nil, about: "output A", log: log)
        let said = lines.withLock { $0 }
        XCTAssertEqual(said.map(\.0), [.warning, .debug, .warning])
        XCTAssertEqual(said.first?.1, "output A: the compositor's wl_output.scale 99 is out of range; using 8")
    }
}

/// Buffers within what the driver draws.
final class BufferLimitsTests: XCTestCase {
    func test_sizesThatFitAreLeftAlone() {
        XCTAssertNil(BufferLimits.fitted(Size(width: 3840, height: 2160), maximumSide: 16384))
        XCTAssertNil(BufferLimits.fitted(Size(width: 7680, height: 4320), maximumSide: 16384))
    }

    func test_tooWideOrTooManyPixelsKeepTheShapeAndFit() throws {
        let wide = try XCTUnwrap(BufferLimits.fitted(Size(width: 32768, height: 720), maximumSide: 16384))
        XCTAssertEqual(wide, Size(width: 16384, height: 360))
        let huge = try XCTUnwrap(BufferLimits.fitted(Size(width: 32768, height: 32768), maximumSide: 16384))
        XCTAssertLessThanOrEqual(Int64(huge.width) * Int64(huge.height), BufferLimits.maximumPixels)
        XCTAssertEqual(huge.width, huge.height)
        let eight = try XCTUnwrap(BufferLimits.fitted(Size(width: 8000, height: 8000), maximumSide: 16384))
        XCTAssertLessThanOrEqual(Int64(eight.width) * Int64(eight.height), BufferLimits.maximumPixels)
        XCTAssertGreaterThan(Int64(eight.width) * Int64(eight.height), BufferLimits.maximumPixels * 99 / 100)
        // A driver of 2048: what GLES 3 guarantees.
        XCTAssertEqual(BufferLimits.fitted(Size(width: 4096, height: 2160), maximumSide: 2048), Size(width: 2048, height: 1080))
    }

    func test_aTargetBeyondTheLimitsIsScaledByTheCompositorOrShownSmaller() {
        let output = Output(id: 1, name: "A", scale: 8, logicalFrame: Rect(x: 0, y: 0, width: 4000, height: 2000))
        let target = RenderTarget.fullscreen(on: output, proposed: nil)
        XCTAssertEqual(target.pixelSize, Size(width: 32000, height: 16000))
        let (scaled, fitted) = target.fitted(maximumSide: 16384, canScale: true)
        XCTAssertEqual(fitted, scaled.pixelSize)
        XCTAssertEqual(scaled.scaling.destination, Size(width: 4000, height: 2000), "the viewport covers the output")
        XCTAssertEqual(scaled.bufferScale, 1)
        let (smaller, _) = target.fitted(maximumSide: 16384, canScale: false)
        XCTAssertNil(smaller.scaling.destination)
        XCTAssertEqual(smaller.pixelSize, fitted)
        XCTAssertEqual(RenderTarget.draftSize(of: Size(width: Int32.max, height: 1)), Size(width: 1_073_741_824, height: 1))
    }
}
