import WaylandOutputs
import XCTest
@testable import glout

final class ArgumentsTests: XCTestCase {
    func parse(_ line: String) throws(UsageError) -> Command {
        try Arguments.parse(line.split(separator: " ").map(String.init))
    }

    func assertUsageError(_ line: String, mentions text: String, file: StaticString = #filePath, line number: UInt = #line) {
        do {
            let command = try parse(line)
            XCTFail("'\(line)' parsed as \(command)", file: file, line: number)
        } catch {
            XCTAssertTrue(error.message.contains(text), "'\(error.message)' does not mention '\(text)'",
                          file: file, line: number)
        }
    }

    func test_noArgumentsRunsWithDefaults() throws {
        XCTAssertEqual(try parse(""), .run(RunOptions()))
    }

    func test_runOptionsInBothSpellings() throws {
        var expected = RunOptions()
        expected.layout = .mirror
        expected.primary = "DP-1"
        expected.outputs = ["DP-1", "HDMI-A-1"]
        expected.duration = 2.5
        expected.frozen = 0
        expected.statsJSON = "/tmp/s.json"
        expected.shaderDirectory = "shaders"
        XCTAssertEqual(try parse("run --layout mirror --primary DP-1 --outputs DP-1,HDMI-A-1 --duration 2.5 --frozen 0 --stats-json /tmp/s.json --shaders shaders"),
                       .run(expected))
        XCTAssertEqual(try parse("--layout=mirror --primary=DP-1 --outputs=DP-1,HDMI-A-1 --duration=2.5 --frozen=0 --stats-json=/tmp/s.json --shaders=shaders"),
                       .run(expected), "options without 'run' go to run")
    }

    func test_helpAndVersion() throws {
        XCTAssertEqual(try parse("--help"), .help(topic: nil))
        XCTAssertEqual(try parse("-h"), .help(topic: nil))
        XCTAssertEqual(try parse("run --help"), .help(topic: "run"))
        XCTAssertEqual(try parse("outputs -h"), .help(topic: "outputs"))
        XCTAssertEqual(try parse("help outputs"), .help(topic: "outputs"))
        XCTAssertEqual(try parse("--version"), .version)
        assertUsageError("help nothing", mentions: "no help for 'nothing'")
    }

    func test_outputsOptions() throws {
        XCTAssertEqual(try parse("outputs --json --primary HEADLESS-2"), .outputs(OutputsOptions(json: true, primary: "HEADLESS-2")))
        assertUsageError("outputs --layout mirror", mentions: "unknown option --layout for 'glout outputs'")
    }

    func test_spanOptions() throws {
        var expected = RunOptions()
        expected.layout = .span
        expected.showsControl = false
        expected.bezels = ["": BezelRequest("4")!, "DP-1": BezelRequest("0,12,0,12px")!]
        expected.machine = "left"
        expected.clock = .realtime
        XCTAssertEqual(try parse("run --layout span --control none --bezel 4 --bezel DP-1=0,12,0,12px --machine left --clock realtime"),
                       .run(expected))
        var wall = RunOptions()
        wall.wallFile = "wall.json"
        XCTAssertEqual(try parse("run --wall wall.json"), .run(wall))
        var canvas = SnapshotOptions(out: "c.png", canvas: true, canvasScale: 1.5)
        canvas.run.layout = .span
        XCTAssertEqual(try parse("snapshot --canvas --out c.png --canvas-scale 1.5"), .snapshot(canvas))
        XCTAssertEqual(try parse("snapshot --canvas --layout span --out c.png --canvas-scale 1.5"), .snapshot(canvas))
        XCTAssertEqual(try parse("outputs --wall-json --machine right --bezel 2px"),
                       .outputs(OutputsOptions(wallJSON: true, machine: "right", bezels: ["": BezelRequest("2px")!])))
        XCTAssertEqual(LayoutMode.independent.next, .mirror)
        XCTAssertEqual(LayoutMode.mirror.next, .span)
        XCTAssertEqual(LayoutMode.span.next, .independent)
    }

    func test_everyBadValueSaysWhatIsWrong() {
        let mistakes: [(line: String, says: String)] = [
            ("frobnicate", "unknown command 'frobnicate'"),
            ("run --layout sideways", "--layout must be independent, mirror or span, not 'sideways'"),
            ("run --control all", "--control must be primary or none, not 'all'"),
            ("run --clock utc", "--clock must be monotonic or realtime, not 'utc'"),
            ("run --bezel 1,2,3", "--bezel needs [NAME=]MM or [NAME=]T,R,B,L"),
            ("run --bezel A=-1px", "not 'A=-1px'"),
            ("run --bezel 20000", "0 to 10000 each"),
            ("run --machine", "--machine needs a value"),
            ("run --machine a\tb", "--machine needs a machine name"),
            ("run --wall w.json --bezel 3px", "--bezel: the wall file gives every output's bezels"),
            ("snapshot --canvas --out dir", "--canvas writes one PNG"),
            ("snapshot --canvas --layout mirror --out c.png", "leave out --layout mirror"),
            ("snapshot --out dir --canvas-scale 2", "--canvas-scale applies to --canvas only"),
            ("snapshot --canvas --out c.png --canvas-scale 0", "--canvas-scale needs pixels per point, 0.25 to 8"),
            ("snapshot --canvas", "snapshot --canvas needs --out FILE.png"),
            ("outputs --wall-json --json", "leave out --json"),
            ("outputs --machine left", "--machine applies to --wall-json only"),
            ("run --layout", "--layout needs a value"),
            ("run --duration", "--duration needs a value"),
            ("run --duration abc", "--duration needs a number of seconds, more than 0 and at most 1000000000, not 'abc'"),
            ("run --duration 0", "more than 0"),
            ("run --duration -3", "not '-3'"),
            ("run --duration inf", "not 'inf'"),
            ("run --duration nan", "not 'nan'"),
            ("run --frozen -1", "--frozen needs a number of seconds, 0 or more"),
            ("run --outputs A,,B", "--outputs needs output names separated by commas"),
            ("run --outputs A,B,A", "--outputs names A twice"),
            ("run --primary A,B", "--primary needs one output name"),
            ("run --stats-json=", "--stats-json needs a path"),
            ("run --bogus", "unknown option --bogus for 'glout run'"),
            ("run extra", "unexpected argument 'extra'"),
            ("run --help=yes", "--help takes no value, not 'yes'"),
            ("outputs --json=1", "--json takes no value"),
            ("bench --pacing lockstep", "--pacing must be independent or coupled, not 'lockstep'"),
            ("bench --compare --pacing coupled", "--compare runs both pacings"),
            ("bench --plot out.svg", "--plot writes a PNG"),
            ("bench --compare=yes", "--compare takes no value"),
            ("run --stall HEADLESS-1", "--stall needs NAME=MS"),
            ("run --stall HEADLESS-1=-5", "not 'HEADLESS-1=-5'"),
            ("run --stall =30", "--stall needs NAME=MS"),
            ("run --stall A=99999", "0 to 10000 milliseconds"),
            ("run --fps 0", "--fps needs [NAME=]FPS"),
            ("run --fps =30", "--fps needs [NAME=]FPS"),
            ("run --fps A=fast", "not 'A=fast'"),
            ("run --scene cube", "--scene must be views, triangle or pacing, not 'cube'"),
            ("bench --json", "--json needs a value"),
        ]
        for mistake in mistakes { assertUsageError(mistake.line, mentions: mistake.says) }
    }

    func test_usageErrorsNameTheirCommandForTheHint() {
        do {
            _ = try parse("outputs --nope")
            XCTFail("parsed")
        } catch {
            XCTAssertEqual(error.command, "outputs")
        }
    }

    func test_benchOptionsAndDefaults() throws {
        var expected = BenchOptions()
        XCTAssertEqual(expected.run.duration, 30, "bench measures 30 s unless told")
        XCTAssertEqual(try parse("bench"), .bench(expected))
        expected.run.duration = 5
        expected.json = "/tmp/b.json"
        expected.plot = "/tmp/b.png"
        expected.compare = true
        expected.run.stalls = ["HEADLESS-2": 30, "HEADLESS-3": 2.5]
        expected.run.scene = .triangle
        expected.run.framesPerSecond = ["": 30, "HEADLESS-2": 72]
        expected.run.outputs = ["HEADLESS-2", "HEADLESS-3"]
        XCTAssertEqual(try parse("bench --duration 5 --json /tmp/b.json --plot /tmp/b.png --compare --stall HEADLESS-2=30 --stall=HEADLESS-3=2.5 --scene triangle --outputs HEADLESS-2,HEADLESS-3 --fps 30 --fps HEADLESS-2=72"),
                       .bench(expected))
        var coupled = BenchOptions()
        coupled.pacing = .coupled
        XCTAssertEqual(try parse("bench --pacing coupled"), .bench(coupled))
        XCTAssertEqual(try parse("bench --help"), .help(topic: "bench"))
        XCTAssertEqual(expected.run.framesPerSecond(for: "HEADLESS-2"), 72)
        XCTAssertEqual(expected.run.framesPerSecond(for: "HEADLESS-1"), 30, "the unnamed rate applies to the rest")
    }
}

/// --mode's grammar (the library's ModeRequest takes values; the text is glout's).
final class ModeTextTests: XCTestCase {
    func test_namesAndSizesParse() {
        XCTAssertEqual(ModeRequest("preferred"), .preferred)
        XCTAssertEqual(ModeRequest("lowest"), .lowest)
        XCTAssertEqual(ModeRequest("1920x1080"), .size(Size(width: 1920, height: 1080), refreshMilliHertz: nil))
        XCTAssertEqual(ModeRequest("800x600@59.94Hz"), .size(Size(width: 800, height: 600), refreshMilliHertz: 59940))
        XCTAssertEqual(ModeRequest("16384x16384@1000"), .size(Size(width: 16384, height: 16384), refreshMilliHertz: 1_000_000))
    }

    func test_badRequestsDoNotParse() {
        for text in ["", "big", "1024", "1024x", "x768", "0x768", "1024x768@", "1024x768@0", "1024x768@fast", "-5x3",
                     "16385x768", "1024x768@1000.1"] {
            XCTAssertNil(ModeRequest(text), text)
        }
    }
}
