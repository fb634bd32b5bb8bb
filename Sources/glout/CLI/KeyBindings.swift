/// What glout's keys do. Pure: keysyms in, actions out. Listed in --help, the README and
/// on the dashboard.
enum KeyAction: Sendable, Equatable, CaseIterable {
    /// m: the next layout (independent, mirror, span), without re-creating anything.
    case toggleLayout
    /// space: a new random accent colour for the secondaries' content.
    case newAccent
    /// Tab: the next output in order becomes the primary.
    case nextPrimary
    /// f: freeze or unfreeze scene time.
    case toggleFreeze
    /// i: show every output's name in large type for a few seconds (again: hide them).
    case identify
    /// q, Esc: quit, status 0.
    case quit

    /// The key's label and what it does, for help texts and the dashboard.
    var help: (key: String, action: String) {
        switch self {
        case .toggleLayout: ("m", "next layout")
        case .newAccent: ("space", "new content colour")
        case .nextPrimary: ("Tab", "next primary")
        case .toggleFreeze: ("f", "freeze time")
        case .identify: ("i", "identify outputs")
        case .quit: ("q, Esc", "quit")
        }
    }
}

enum KeyBindings {
    // XKB keysyms (xkbcommon-keysyms.h).
    static let space: UInt32 = 0x20, tab: UInt32 = 0xff09, leftTab: UInt32 = 0xfe20, escape: UInt32 = 0xff1b

    /// The action of a key press, nil for keys glout does not use.
    static func action(for keysym: UInt32) -> KeyAction? {
        switch keysym {
        case UInt32(UInt8(ascii: "m")), UInt32(UInt8(ascii: "M")): .toggleLayout
        case space: .newAccent
        case tab, leftTab: .nextPrimary
        case UInt32(UInt8(ascii: "f")), UInt32(UInt8(ascii: "F")): .toggleFreeze
        case UInt32(UInt8(ascii: "i")), UInt32(UInt8(ascii: "I")): .identify
        case UInt32(UInt8(ascii: "q")), UInt32(UInt8(ascii: "Q")), escape: .quit
        default: nil
        }
    }

    /// One line per binding, for --help.
    static var helpText: String {
        KeyAction.allCases.map { action in
            let (key, what) = action.help
            return "  " + key.padding(toLength: 8, withPad: " ", startingAt: 0) + what
        }.joined(separator: "\n")
    }
}
