import XCTest
import WaylandOutputs
@testable import glout

/// Every option of every command, as --help lists them, walked through values that can
/// break arithmetic or text handling: each is either refused with one line naming the
/// option, or accepted within the range its arithmetic can hold. (IntegrationTests'
/// OptionAbuseTests runs the same values through the glout binary on a compositor.)
final class OptionLimitsTests: XCTestCase {
    /// What has crashed glout before (huge numbers), and what often breaks parsers.
    static let extremes: [String] = [
        "0", "-1", "-0", "0.0000001", "1e11", "1e300", "-1e300", "99999999999999999999", "inf", "-inf", "nan", "",
        String(repeating: "9", count: 10_000), String(repeating: "x", count: 10_000),
        String(decoding: [0xFF, 0xFE, 0xC3], as: UTF8.self), "NO-SUCH-OUTPUT",
        "NO-SUCH-OUTPUT=1", "HEADLESS-1=1e300", "HEADLESS-1=nan", "HEADLESS-1=-1", "HEADLESS-1=", "=1",
        "1x1", "16385x16385", "100000x1@1e300", "1280x720@0", "1280x720@nan", "scale:1e300", "inset:nan",
        "inset:1e300,0,0,0", "1e300,0,0,0", "0,0,0",
    ]

    static func options(of command: String) -> [String] { Help.options(of: command).map(\.name) }

    /// What a command needs besides the option under test to parse at all.
    static func base(_ command: String, option: String) -> [String] {
        switch (command, option) {
        case ("snapshot", "--out"): ["snapshot"]
        case ("snapshot", _): ["snapshot", "--out", "/tmp/glout-snapshot"]
        case ("outputs", "--duration"): ["outputs", "--watch"]
        case ("outputs", "--machine"), ("outputs", "--bezel"): ["outputs", "--wall-json"]
        case ("snapshot", "--canvas-scale"): ["snapshot", "--canvas", "--out", "/tmp/glout-canvas.png"]
        default: [command]
        }
    }

    func test_helpListsTheOptionsOfEveryCommand() {
        XCTAssertEqual(Set(OptionLimitsTests.options(of: "outputs")),
                       ["--json", "--primary", "--watch", "--duration", "--wall-json", "--machine", "--bezel"])
        let bench = Dictionary(uniqueKeysWithValues: Help.options(of: "bench").map { ($0.name, $0.takesValue) })
        XCTAssertEqual(bench["--json"], true)
        XCTAssertEqual(bench["--compare"], false)
        XCTAssertEqual(bench["--layout"], true)
        XCTAssertEqual(Help.options(of: "outputs").first { $0.name == "--json" }?.takesValue, false)
        XCTAssertTrue(OptionLimitsTests.options(of: "run").contains("--frozen"))
        XCTAssertTrue(OptionLimitsTests.options(of: "bench").contains("--plot"))
        XCTAssertTrue(OptionLimitsTests.options(of: "snapshot").contains("--out"))
        for command in Arguments.commands {
            for option in OptionLimitsTests.options(of: command) {
                // A listed option is one the parser knows (it may still refuse the value).
                do {
                    _ = try Arguments.parse(OptionLimitsTests.base(command, option: option) + [option, "x"])
                } catch {
                    XCTAssertFalse(error.message.contains("unknown option"), "\(command) \(option): \(error.message)")
                }
            }
        }
    }

    func test_everyOptionRefusesOrBoundsEveryExtremeValue() {
        var checked = 0
        for command in Arguments.commands {
            for option in OptionLimitsTests.options(of: command) {
                for value in OptionLimitsTests.extremes {
                    let arguments = OptionLimitsTests.base(command, option: option) + ["\(option)=\(value)"]
                    checked += 1
                    do {
                        let parsed = try Arguments.parse(arguments)
                        assertWithinLimits(parsed, "\(command) \(option)=\(value.prefix(40))")
                    } catch {
                        let what = "\(command) \(option)=\(value.prefix(40))"
                        XCTAssertTrue(error.message.contains(option) || error.message.contains("unexpected value"),
                                      "\(what): '\(error.message.prefix(200))' does not name the option")
                        XCTAssertFalse(error.message.contains("\n"), "\(what): more than one line")
                    }
                }
            }
        }
        XCTAssertGreaterThan(checked, 1000)
    }

    func test_theLongestDurationStillFitsTheClock() throws {
        let longest = "\(Int(OptionReader.maximumSeconds))"
        guard case .run(let options) = try Arguments.parse(["run", "--duration", longest, "--frozen", longest]) else {
            return XCTFail("not a run")
        }
        XCTAssertEqual(options.duration, OptionReader.maximumSeconds)
        // The deadline and the freeze arithmetic of a run that has been going for a year fit
        // in the nanoseconds they are kept in.
        let now = MonotonicInstant.now.nanoseconds + 365 * 86_400 * 1_000_000_000
        let nanoseconds = try XCTUnwrap(UInt64(exactly: (options.duration! * 1e9).rounded()))
        XCTAssertFalse(now.addingReportingOverflow(nanoseconds).overflow)
        XCTAssertNotNil(Int64(exactly: (options.frozen! * 1e9).rounded()), "a frozen time of \(options.frozen!) s in Int64 ns")
        XCTAssertThrowsError(try Arguments.parse(["run", "--duration", "1000000001"]))
    }

    /// Whatever parsed must be safe to turn into nanoseconds, sizes and rates.
    func assertWithinLimits(_ command: Command, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        func seconds(_ value: Double?) {
            guard let value else { return }
            XCTAssertTrue(value.isFinite && value >= 0 && value <= OptionReader.maximumSeconds, "\(what): \(value) s",
                          file: file, line: line)
        }
        func scene(_ options: RunOptions) {
            seconds(options.duration)
            seconds(options.frozen)
            for (name, rate) in options.framesPerSecond {
                XCTAssertTrue(rate.isFinite && rate > 0 && rate <= 1000, "\(what): fps \(name)=\(rate)", file: file, line: line)
            }
            for (name, stall) in options.stalls {
                XCTAssertTrue(stall.isFinite && stall >= 0 && stall <= 10_000, "\(what): stall \(name)=\(stall)",
                              file: file, line: line)
            }
            for request in Array(options.renderModes.values) + Array(options.setModes.values) {
                if case let .size(size, refresh) = request {
                    XCTAssertTrue((1...16384).contains(size.width) && (1...16384).contains(size.height), "\(what): \(size)",
                                  file: file, line: line)
                    XCTAssertTrue(refresh.map { (1...1_000_000).contains($0) } ?? true, "\(what): refresh", file: file, line: line)
                }
            }
            for insets in options.safeAreas.values {
                XCTAssertTrue([insets.top, insets.right, insets.bottom, insets.left].allSatisfy { $0.isFinite && $0 >= 0 && $0 <= 10_000 },
                              "\(what): safe area \(insets)", file: file, line: line)
            }
            for overscan in options.overscan.values {
                switch overscan {
                case .none: break
                case .scale(let percent):
                    XCTAssertTrue(percent.isFinite && percent >= 0 && percent < 100, "\(what): \(percent)%", file: file, line: line)
                case .inset(let insets):
                    XCTAssertTrue([insets.top, insets.right, insets.bottom, insets.left].allSatisfy { $0.isFinite && $0 >= 0 }
                                  && insets.left + insets.right < 100 && insets.top + insets.bottom < 100,
                                  "\(what): inset \(insets)", file: file, line: line)
                }
            }
        }
        switch command {
        case .run(let options): scene(options)
        case .bench(let options): scene(options.run)
        case .snapshot(let options): scene(options.run)
        case .outputs(let options): seconds(options.duration)
        case .help, .manual, .completion, .version, .protocols: break
        }
    }
}
