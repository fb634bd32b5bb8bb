import XCTest
@testable import WaylandOutputs

/// Buffer sizes, picture rectangles and viewports for every way a render size can meet
/// an output.
final class SurfaceScalingTests: XCTestCase {
    func test_withoutARenderSizeTheBufferIsTheLogicalSizeTimesTheScale() {
        let plan = SurfaceScaling.plan(logicalSize: Size(width: 640, height: 360), scale: 2)
        XCTAssertEqual(plan.bufferSize, Size(width: 1280, height: 720))
        XCTAssertEqual(plan.bufferScale, 2)
        XCTAssertFalse(plan.needsViewport)
        XCTAssertEqual(plan.picture, Rect(x: 0, y: 0, width: 1280, height: 720))
    }

    func test_fitPillarboxes640x480OnA1280x720Output() {
        let plan = SurfaceScaling.plan(logicalSize: Size(width: 1280, height: 720), scale: 1,
                                       renderSize: Size(width: 640, height: 480), mode: .fit)
        // 480 x 16/9 = 853.33: an 854-wide buffer, the picture centred, the exact window
        // picked by the source, scaled 1.5 times to 1280x720: bars of exactly 160 px.
        XCTAssertEqual(plan.bufferSize, Size(width: 854, height: 480))
        XCTAssertEqual(plan.bufferScale, 1)
        XCTAssertEqual(plan.picture, Rect(x: 107, y: 0, width: 640, height: 480))
        let source = try! XCTUnwrap(plan.source)
        // (In wl_fixed_t's steps of 1/256, as the compositor gets them.)
        XCTAssertEqual(source.width, 853.333, accuracy: 0.004)
        XCTAssertEqual(source.x, 0.3333, accuracy: 0.004)
        XCTAssertEqual(source.height, 480)
        let scale = 1280 / source.width
        XCTAssertEqual((Double(plan.picture.x) - source.x) * scale, 160, accuracy: 0.01, "left bar on the output")
        XCTAssertEqual(plan.destination?.width, 1280)
        XCTAssertEqual(plan.destination?.height, 720)
    }

    func test_fitLetterboxesAWidePictureOnATallOutput() {
        let plan = SurfaceScaling.plan(logicalSize: Size(width: 720, height: 1280), scale: 1,
                                       renderSize: Size(width: 1280, height: 720), mode: .fit)
        XCTAssertEqual(plan.bufferSize, Size(width: 1280, height: 2276))
        XCTAssertEqual(plan.picture, Rect(x: 0, y: 778, width: 1280, height: 720))
        XCTAssertEqual(plan.source?.height ?? 0, 2275.556, accuracy: 0.004)
    }

    /// 800x600 on 1280x720: a buffer of 1067 (1066.67 exact) with the picture at 133, half
    /// a pixel left of centre; the window centred on it would start at -0.33, which sway
    /// ends the connection for. Every fit's window lies inside its buffer, in wl_fixed_t.
    func test_fitsWindowIsAlwaysInsideItsBufferInFixedPointSteps() {
        let odd = SurfaceScaling.plan(logicalSize: Size(width: 1280, height: 720), scale: 1,
                                      renderSize: Size(width: 800, height: 600), mode: .fit)
        XCTAssertEqual(odd.bufferSize, Size(width: 1067, height: 600))
        XCTAssertEqual(odd.source?.x ?? -1, 0)
        XCTAssertEqual(odd.source?.width ?? 0, 1066.664, accuracy: 0.002)
        for (lw, lh) in [(1280, 720), (720, 1280), (1920, 1080), (1366, 768), (800, 600), (1024, 600), (3840, 1080)] {
            for (rw, rh) in [(800, 600), (640, 480), (1279, 721), (333, 777), (1, 1), (1920, 1080), (2, 999), (1001, 3)] {
                let plan = SurfaceScaling.plan(logicalSize: Size(width: Int32(lw), height: Int32(lh)), scale: 1,
                                               renderSize: Size(width: Int32(rw), height: Int32(rh)), mode: .fit)
                guard let source = plan.source else { continue }
                let name = "\(rw)x\(rh) on \(lw)x\(lh): \(source) in \(plan.bufferSize)"
                for value in [source.x, source.y, source.width, source.height] {
                    XCTAssertEqual(value * 256, (value * 256).rounded(), "\(name): not a wl_fixed_t")
                }
                XCTAssertGreaterThanOrEqual(source.x, 0, name)
                XCTAssertGreaterThanOrEqual(source.y, 0, name)
                XCTAssertGreaterThan(source.width, 0, name)
                XCTAssertGreaterThan(source.height, 0, name)
                XCTAssertLessThanOrEqual(source.x + source.width, Double(plan.bufferSize.width), name)
                XCTAssertLessThanOrEqual(source.y + source.height, Double(plan.bufferSize.height), name)
                // Still around the picture: it is all inside the window.
                XCTAssertLessThanOrEqual(source.x, Double(plan.picture.x), name)
                XCTAssertGreaterThanOrEqual(source.x + source.width, Double(plan.picture.maxX), name)
            }
        }
    }

    func test_fitWithTheSameShapeNeedsNoSource() {
        let plan = SurfaceScaling.plan(logicalSize: Size(width: 1920, height: 1080), scale: 1,
                                       renderSize: Size(width: 1280, height: 720), mode: .fit)
        XCTAssertEqual(plan.bufferSize, Size(width: 1280, height: 720))
        XCTAssertNil(plan.source)
        XCTAssertTrue(plan.needsViewport)
    }

    func test_fillCropsTheCentreToTheOutputsShape() {
        let plan = SurfaceScaling.plan(logicalSize: Size(width: 1280, height: 720), scale: 1,
                                       renderSize: Size(width: 640, height: 480), mode: .fill)
        // The buffer is the visible window, 640x360; the 640x480 picture hangs 60 rows
        // over its top and bottom.
        XCTAssertEqual(plan.bufferSize, Size(width: 640, height: 360))
        XCTAssertEqual(plan.picture, Rect(x: 0, y: -60, width: 640, height: 480))
        XCTAssertNil(plan.source)
        XCTAssertEqual(plan.destination?.height, 720)
    }

    func test_stretchUsesTheWholeBufferAndTheWholeOutput() {
        let plan = SurfaceScaling.plan(logicalSize: Size(width: 1280, height: 720), scale: 1,
                                       renderSize: Size(width: 640, height: 480), mode: .stretch)
        XCTAssertNil(plan.source)
        XCTAssertEqual(plan.destination?.width, 1280)
        XCTAssertEqual(plan.picture, Rect(x: 0, y: 0, width: 640, height: 480))
    }

    func test_fractionalScalesRoundHalfUpAndScaleBackToPoints() {
        XCTAssertEqual(SurfaceScaling.fractionalPixels(1280, 180), 1920)
        XCTAssertEqual(SurfaceScaling.fractionalPixels(853, 180), 1280, "1279.5 rounds up")
        XCTAssertEqual(SurfaceScaling.fractionalPixels(1001, 150), 1251, "1251.25 rounds down")
        XCTAssertEqual(SurfaceScaling.fractionalPixels(1, 120), 1)
        let plan = SurfaceScaling.plan(logicalSize: Size(width: 1280, height: 720), scale: 2, fractionalScale: 150)
        XCTAssertEqual(plan.bufferSize, Size(width: 1600, height: 900))
        XCTAssertEqual(plan.bufferScale, 1)
        XCTAssertEqual(plan.destination?.width, 1280)
        XCTAssertEqual(plan.destination?.height, 720)
        // A fractional scale equal to the integer scale needs no viewport.
        let whole = SurfaceScaling.plan(logicalSize: Size(width: 1280, height: 720), scale: 2, fractionalScale: 240)
        XCTAssertEqual(whole.bufferSize.width, 2560)
        XCTAssertEqual(whole.bufferScale, 2)
        XCTAssertFalse(whole.needsViewport)
    }

    func test_fullscreenTargetSkipsTheViewportWhenTheRenderSizeIsTheOutputsOwn() {
        let output = Output(id: 1, name: "A", modes: [OutputMode(size: Size(width: 1280, height: 720), refreshMilliHertz: 60000, isCurrent: true)],
                            logicalFrame: Rect(x: 0, y: 0, width: 1280, height: 720))
        let same = RenderTarget.fullscreen(on: output, proposed: nil, renderSize: Size(width: 1280, height: 720))
        XCTAssertFalse(same.scaling.needsViewport)
        let other = RenderTarget.fullscreen(on: output, proposed: nil, renderSize: Size(width: 640, height: 480))
        XCTAssertTrue(other.scaling.needsViewport)
        XCTAssertEqual(other.pixelsPerPoint, 854.0 / 1280.0, accuracy: 1e-9)
    }

    func test_aRenderSizeThatIsTheOutputsOwnPixelsIsDrawnAsIfNoneWasAsked() {
        // Scale 2: 2560x1440 are the device pixels of 1280x720 points, with buffer scale 2.
        let doubled = SurfaceScaling.plan(logicalSize: Size(width: 1280, height: 720), scale: 2, renderSize: Size(width: 2560, height: 1440))
        XCTAssertEqual(doubled, SurfaceScaling.plan(logicalSize: Size(width: 1280, height: 720), scale: 2))
        XCTAssertEqual(doubled.bufferScale, 2)
        // Fractional 1.5: 1920x1080 are its device pixels; 2560x1440 are not, and get scaled.
        let fractional = SurfaceScaling.plan(logicalSize: Size(width: 1280, height: 720), scale: 2, fractionalScale: 180,
                                             renderSize: Size(width: 1920, height: 1080))
        XCTAssertEqual(fractional, SurfaceScaling.plan(logicalSize: Size(width: 1280, height: 720), scale: 2, fractionalScale: 180))
        let larger = SurfaceScaling.plan(logicalSize: Size(width: 1280, height: 720), scale: 2, fractionalScale: 180,
                                         renderSize: Size(width: 2560, height: 1440))
        XCTAssertEqual(larger.bufferSize, Size(width: 2560, height: 1440))
        XCTAssertEqual(larger.bufferScale, 1)
        XCTAssertEqual(larger.destination?.width, 1280)
    }
}

final class ModeRequestTests: XCTestCase {
    let output = Output(id: 1, name: "DP-1", modes: [
        OutputMode(size: Size(width: 1920, height: 1080), refreshMilliHertz: 60000, isCurrent: true, isPreferred: true),
        OutputMode(size: Size(width: 1920, height: 1080), refreshMilliHertz: 144000),
        OutputMode(size: Size(width: 640, height: 480), refreshMilliHertz: 59940),
        OutputMode(size: Size(width: 1280, height: 720), refreshMilliHertz: 60000),
    ].sorted(by: OutputMode.lowToHigh))

    func size(_ width: Int32, _ height: Int32, _ refresh: Int32? = nil) -> ModeRequest {
        .size(Size(width: width, height: height), refreshMilliHertz: refresh)
    }

    func test_modesSortLowestToHighestByPixelsThenRefresh() {
        XCTAssertEqual(output.modes.map(\.description),
                       ["640x480@59.940Hz", "1280x720@60.000Hz", "1920x1080@60.000Hz", "1920x1080@144.000Hz"])
    }

    func test_namedRequestsResolve() throws {
        XCTAssertEqual(try ModeRequest.preferred.resolve(in: output).refreshMilliHertz, 60000)
        XCTAssertEqual(try ModeRequest.current.resolve(in: output).size.width, 1920)
        XCTAssertEqual(try ModeRequest.highest.resolve(in: output).refreshMilliHertz, 144000)
        XCTAssertEqual(try ModeRequest.lowest.resolve(in: output).size.width, 640)
    }

    func test_sizesMatchListedModesWithinHalfAHertz() throws {
        XCTAssertEqual(try size(640, 480, 60000).resolve(in: output).refreshMilliHertz, 59940)
        XCTAssertEqual(try size(1920, 1080).resolve(in: output).refreshMilliHertz, 144000, "the fastest")
        XCTAssertEqual(try size(1920, 1080, 144000).resolve(in: output).refreshMilliHertz, 144000)
    }

    func test_unlistedSizesAreErrorsNamingTheListedOnesUnlessCustomIsAllowed() throws {
        XCTAssertThrowsError(try size(1024, 768).resolve(in: output)) { error in
            XCTAssertEqual("\(error)", "output DP-1 has no mode 1024x768: it offers 640x480@59.940Hz, "
                           + "1280x720@60.000Hz, 1920x1080@60.000Hz, 1920x1080@144.000Hz")
        }
        XCTAssertThrowsError(try size(1920, 1080, 75000).resolve(in: output))
        let custom = try size(1024, 768, 75000).resolve(in: output, allowCustom: true)
        XCTAssertEqual(custom.size, Size(width: 1024, height: 768))
        XCTAssertEqual(custom.refreshMilliHertz, 75000)
    }
}

final class ConfigurationPlanTests: XCTestCase {
    let hdmi = ConfigurationPlan.Head(name: "HDMI-A-1", enabled: true,
                                      modes: [OutputMode(size: Size(width: 1920, height: 1080), refreshMilliHertz: 60000),
                                              OutputMode(size: Size(width: 1024, height: 768), refreshMilliHertz: 60004)],
                                      currentMode: OutputMode(size: Size(width: 1920, height: 1080), refreshMilliHertz: 60000))
    let dp = ConfigurationPlan.Head(name: "DP-1", enabled: true, modes: [],
                                    currentMode: OutputMode(size: Size(width: 2560, height: 1440), refreshMilliHertz: 59951))
    let off = ConfigurationPlan.Head(name: "DP-2", enabled: false, modes: [], currentMode: nil)

    func test_onlyTheTargetChangesAndOffHeadsStayOff() throws {
        let actions = try ConfigurationPlan.switching("HDMI-A-1", to: OutputMode(size: Size(width: 1024, height: 768), refreshMilliHertz: 60000),
                                                      heads: [hdmi, dp, off], connected: ["HDMI-A-1", "DP-1"])
        XCTAssertEqual(actions, [.setMode("HDMI-A-1", OutputMode(size: Size(width: 1024, height: 768), refreshMilliHertz: 60004)),
                                 .keep("DP-1"), .keepOff("DP-2")])
    }

    func test_theClosestRefreshWithinHalfAHertzIsTheOneSet() throws {
        var tv = hdmi
        tv.modes = [OutputMode(size: Size(width: 1920, height: 1080), refreshMilliHertz: 59940),
                    OutputMode(size: Size(width: 1920, height: 1080), refreshMilliHertz: 60000),
                    OutputMode(size: Size(width: 1920, height: 1080), refreshMilliHertz: 50000)]
        func set(_ refresh: Int32) throws -> ConfigurationPlan.Action {
            try ConfigurationPlan.switching("HDMI-A-1", to: OutputMode(size: Size(width: 1920, height: 1080), refreshMilliHertz: refresh),
                                            heads: [tv], connected: ["HDMI-A-1"])[0]
        }
        XCTAssertEqual(try set(60000), .setMode("HDMI-A-1", tv.modes[1]))
        XCTAssertEqual(try set(59900), .setMode("HDMI-A-1", tv.modes[0]))
        XCTAssertEqual(try set(0), .setMode("HDMI-A-1", tv.modes[1]), "no refresh: the fastest")
        XCTAssertEqual(try set(55000), .setCustomMode("HDMI-A-1", OutputMode(size: Size(width: 1920, height: 1080), refreshMilliHertz: 55000)))
    }

    func test_anUnlistedModeBecomesACustomMode() throws {
        let actions = try ConfigurationPlan.switching("DP-1", to: OutputMode(size: Size(width: 1280, height: 720), refreshMilliHertz: 0),
                                                      heads: [hdmi, dp], connected: ["HDMI-A-1", "DP-1"])
        XCTAssertEqual(actions[1], .setCustomMode("DP-1", OutputMode(size: Size(width: 1280, height: 720), refreshMilliHertz: 0)))
    }

    func test_aLiveOutputDescribedAsOffStopsEverything() {
        // sway 1.7 describes outputs with custom modes (headless, nested) as off.
        var broken = dp
        broken.enabled = false
        broken.currentMode = nil
        XCTAssertThrowsError(try ConfigurationPlan.switching("HDMI-A-1", to: OutputMode(size: Size(width: 1024, height: 768), refreshMilliHertz: 0),
                                                             heads: [hdmi, broken], connected: ["HDMI-A-1", "DP-1"])) { error in
            XCTAssertTrue("\(error)".contains("describes DP-1 as off"), "\(error)")
        }
        XCTAssertThrowsError(try ConfigurationPlan.switching("HDMI-A-9", to: hdmi.modes[0], heads: [hdmi], connected: []))
    }

    func test_aDraftFirstFrameIsHalfTheBufferEachWayStretchedOverTheWholeOutput() {
        XCTAssertEqual(RenderTarget.draftSize(of: Size(width: 1920, height: 1080)), Size(width: 960, height: 540))
        XCTAssertEqual(RenderTarget.draftSize(of: Size(width: 1281, height: 721)), Size(width: 641, height: 361))
        XCTAssertEqual(RenderTarget.draftSize(of: Size(width: 1, height: 1)), Size(width: 1, height: 1))
        // Scale 2 and a fractional 1.5: the draft is half the device pixels, the
        // viewport's destination the output's logical size, with no bars and no source.
        for (scale, fractional, pixels) in [(Int32(2), UInt32?.none, Size(width: 1280, height: 720)),
                                            (2, 180, Size(width: 960, height: 540))] {
            let logical = Size(width: 640, height: 360)
            let whole = SurfaceScaling.plan(logicalSize: logical, scale: scale, fractionalScale: fractional)
            XCTAssertEqual(whole.bufferSize, pixels)
            let draft = SurfaceScaling.plan(logicalSize: logical, scale: scale, fractionalScale: fractional,
                                            renderSize: RenderTarget.draftSize(of: whole.bufferSize), mode: .stretch)
            XCTAssertEqual(draft.bufferSize, Size(width: pixels.width / 2, height: pixels.height / 2))
            XCTAssertEqual(draft.bufferScale, 1)
            XCTAssertEqual(draft.destination, logical)
            XCTAssertNil(draft.source)
            XCTAssertEqual(draft.picture, Rect(size: draft.bufferSize))
        }
    }

    func test_theCPURasterizersAreKnownByName() {
        XCTAssertTrue(Graphics.isCPURasterizer("llvmpipe (LLVM 15.0.6, 256 bits)"))
        XCTAssertTrue(Graphics.isCPURasterizer("softpipe"))
        XCTAssertFalse(Graphics.isCPURasterizer("AMD Radeon RX 6600 (navy_flounder, LLVM 15.0.6, DRM 3.49, 6.1.0-18-amd64)"))
        XCTAssertFalse(Graphics.isCPURasterizer("Mesa Intel(R) UHD Graphics 620 (KBL GT2)"))
    }
}
