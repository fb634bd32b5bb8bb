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

    func test_everyBadValueSaysWhatIsWrong() {
        assertUsageError("frobnicate", mentions: "unknown command 'frobnicate'")
        assertUsageError("run --layout sideways", mentions: "--layout must be independent or mirror, not 'sideways'")
        assertUsageError("run --layout", mentions: "--layout needs a value")
        assertUsageError("run --duration", mentions: "--duration needs a value")
        assertUsageError("run --duration abc", mentions: "--duration needs a number of seconds, more than 0 and at most 1000000000, not 'abc'")
        assertUsageError("run --duration 0", mentions: "more than 0")
        assertUsageError("run --duration -3", mentions: "not '-3'")
        assertUsageError("run --duration inf", mentions: "not 'inf'")
        assertUsageError("run --duration nan", mentions: "not 'nan'")
        assertUsageError("run --frozen -1", mentions: "--frozen needs a number of seconds, 0 or more")
        assertUsageError("run --outputs A,,B", mentions: "--outputs needs output names separated by commas")
        assertUsageError("run --outputs A,B,A", mentions: "--outputs names A twice")
        assertUsageError("run --primary A,B", mentions: "--primary needs one output name")
        assertUsageError("run --stats-json=", mentions: "--stats-json needs a path")
        assertUsageError("run --bogus", mentions: "unknown option --bogus for 'glout run'")
        assertUsageError("run extra", mentions: "unexpected argument 'extra'")
        assertUsageError("run --help=yes", mentions: "--help takes no value, not 'yes'")
        assertUsageError("outputs --json=1", mentions: "--json takes no value")
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

    func test_benchAndStallMistakes() {
        assertUsageError("bench --pacing lockstep", mentions: "--pacing must be independent or coupled, not 'lockstep'")
        assertUsageError("bench --compare --pacing coupled", mentions: "--compare runs both pacings")
        assertUsageError("bench --plot out.svg", mentions: "--plot writes a PNG")
        assertUsageError("bench --compare=yes", mentions: "--compare takes no value")
        assertUsageError("run --stall HEADLESS-1", mentions: "--stall needs NAME=MS")
        assertUsageError("run --stall HEADLESS-1=-5", mentions: "not 'HEADLESS-1=-5'")
        assertUsageError("run --stall =30", mentions: "--stall needs NAME=MS")
        assertUsageError("run --stall A=99999", mentions: "0 to 10000 milliseconds")
        assertUsageError("run --fps 0", mentions: "--fps needs [NAME=]FPS")
        assertUsageError("run --fps =30", mentions: "--fps needs [NAME=]FPS")
        assertUsageError("run --fps A=fast", mentions: "not 'A=fast'")
        assertUsageError("run --scene cube", mentions: "--scene must be views or triangle, not 'cube'")
        assertUsageError("bench --json", mentions: "--json needs a value")
    }
}
