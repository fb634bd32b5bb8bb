import Foundation
import XCTest
@testable import glout

/// The control API's JSON: what a client's parser reads back, keys in byte order, no
/// failure on a number that is not finite.
final class JSONTextTests: XCTestCase {
    private func text(_ value: Any) -> String { String(decoding: JSONText.encode(value), as: UTF8.self) }

    func test_valuesComeBackAsTheyWent() throws {
        let value: [String: Any] = [
            "name": "HDMI-A-1 \"left\"\\\n\t\u{1b}é/", "on": true, "off": false, "frames": 12_345, "big": UInt64.max,
            "fps": 59.940059940059939, "at": 1_796_000_000.123456, "nothing": NSNull(),
            "list": [1, "two", [3.5], ["k": -4]] as [Any], "empty": [String: Any](),
        ]
        let parsed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(JSONText.encode(value))) as? [String: Any])
        XCTAssertEqual(parsed["name"] as? String, "HDMI-A-1 \"left\"\\\n\t\u{1b}é/")
        XCTAssertEqual(parsed["on"] as? Bool, true)
        XCTAssertEqual(parsed["off"] as? Bool, false)
        XCTAssertEqual(parsed["frames"] as? Int, 12_345)
        XCTAssertEqual((parsed["big"] as? NSNumber)?.uint64Value, UInt64.max)
        XCTAssertEqual(parsed["fps"] as? Double, 59.940059940059939, "a double read back exactly")
        XCTAssertEqual(parsed["at"] as? Double, 1_796_000_000.123456)
        XCTAssertTrue(parsed["nothing"] is NSNull)
        XCTAssertEqual((parsed["list"] as? [Any])?.count, 4)
        XCTAssertEqual(((parsed["list"] as? [Any])?[3] as? [String: Any])?["k"] as? Int, -4)
        XCTAssertEqual((parsed["empty"] as? [String: Any])?.count, 0)
    }

    func test_keysInByteOrderAndControlsEscaped() {
        XCTAssertEqual(text(["b": 1, "a": 2, "B": 3, "é": 4, "aa": 5]), #"{"B":3,"a":2,"aa":5,"b":1,"é":4}"#)
        XCTAssertEqual(text(["\u{1}\u{1f}"]), #"["\u0001\u001f"]"#)
        XCTAssertEqual(text([2.0, 0.5, -3.0]), "[2,0.5,-3]")
    }

    func test_aNumberThatIsNotFiniteIsNull() {
        XCTAssertEqual(text(["p50": Double.nan, "max": Double.infinity, "min": -Double.infinity]),
                       #"{"max":null,"min":null,"p50":null}"#)
    }

    func test_numbersJSONSerializationReadKeepTheirKind() throws {
        let read = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(#"{"scale": 1, "primary": true, "x": 2.5}"#.utf8)))
        XCTAssertEqual(text(read), #"{"primary":true,"scale":1,"x":2.5}"#)
    }
}
