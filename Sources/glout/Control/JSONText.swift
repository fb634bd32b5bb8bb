import Foundation

/// The control API's answers and events as JSON text: objects with their keys in byte
/// order, numbers as Swift writes them (shortest round trip), a number that is not finite
/// as null. Foundation's JSONSerialization sorts keys by the locale's collation (ICU, a
/// good part of a status request's CPU on Linux) and fails on NaN.
enum JSONText {
    static func encode(_ value: Any) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(value, into: &out)
        return out
    }

    private static func write(_ value: Any, into out: inout [UInt8]) {
        // Numbers JSONSerialization read (an object, not a Swift value): a Bool among them
        // is told by its type code.
        if type(of: value) is NSNumber.Type, let number = value as? NSNumber {
            switch String(cString: number.objCType) {
            case "c", "B": out += Array((number.boolValue ? "true" : "false").utf8)
            case "f", "d": write(number.doubleValue, into: &out)
            case "Q", "L", "I", "S", "C": out += Array(String(number.uint64Value).utf8)
            default: out += Array(String(number.int64Value).utf8)
            }
            return
        }
        switch value {
        case let text as String: write(string: text, into: &out)
        case let flag as Bool: out += Array((flag ? "true" : "false").utf8)
        case let number as Int: out += Array(String(number).utf8)
        case let number as Int64: out += Array(String(number).utf8)
        case let number as UInt64: out += Array(String(number).utf8)
        case let number as Int32: out += Array(String(number).utf8)
        case let number as UInt32: out += Array(String(number).utf8)
        case let number as Double: write(number, into: &out)
        case let number as Float: write(Double(number), into: &out)
        case let object as [String: Any]:
            out.append(UInt8(ascii: "{"))
            for (index, key) in object.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(string: key, into: &out)
                out.append(UInt8(ascii: ":"))
                write(object[key]!, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        case let list as [Any]:
            out.append(UInt8(ascii: "["))
            for (index, element) in list.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(element, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        default:
            // NSNull, and anything else: nothing a client could read.
            out += Array("null".utf8)
        }
    }

    private static func write(_ number: Double, into out: inout [UInt8]) {
        guard number.isFinite else {
            out += Array("null".utf8)
            return
        }
        // Whole numbers without ".0", as JSONSerialization writes them.
        if number == number.rounded(), abs(number) < 1e15 {
            out += Array(String(Int64(number)).utf8)
        } else {
            out += Array("\(number)".utf8)
        }
    }

    private static func write(string text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "\n"): out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\r"): out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case UInt8(ascii: "\t"): out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
