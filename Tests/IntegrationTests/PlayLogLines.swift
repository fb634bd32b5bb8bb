import Foundation
import XCTest

/// The lines of a play log (`--play-log`), each a JSON object.
func playLogLines(_ path: String) throws -> [[String: Any]] {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    return try text.split(separator: "\n").map { line in
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], String(line))
    }
}

/// The lines with each showing that a loop of a one-item list split in two made one
/// again. A list loops from 1970 on, so an item of `period` seconds begins again at every
/// multiple of it: a test that runs across such an instant finds the item logged twice,
/// ended and begun at the first refresh after it. Lines of one output and zone that meet
/// there, with the same item, become one line.
func joiningLoops(_ lines: [[String: Any]], every period: Double) -> [[String: Any]] {
    var joined: [[String: Any]] = []
    for line in lines {
        let key = { (line: [String: Any]) in [line["output"] as? String, line["zone"] as? String, line["item"] as? String] }
        let start = line["start"] as? Double ?? 0
        // The first refresh after the instant: within a tenth of a second of it.
        let afterALoop = start.truncatingRemainder(dividingBy: period) < 0.1
        if afterALoop, let index = joined.lastIndex(where: { key($0) == key(line) }),
           joined[index]["end"] as? Double == start, joined[index]["complete"] as? Bool == true {
            var both = joined[index]
            both["end"] = line["end"]
            both["complete"] = line["complete"]
            both["frames"] = (both["frames"] as? Int ?? 0) + (line["frames"] as? Int ?? 0)
            both["missed"] = (both["missed"] as? Int ?? 0) + (line["missed"] as? Int ?? 0)
            joined[index] = both
        } else {
            joined.append(line)
        }
    }
    return joined
}
