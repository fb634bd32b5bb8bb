import Foundation

extension ControlRoutes {
    /// How many actions a cue may hold, and how far ahead it may be (a year).
    static let maximumCueActions = 64
    static let maximumCueLead = 366.0 * 86400

    /// POST /cues's body: `{"at": SECONDS, "actions": [ACTION, ...]}`, SECONDS on
    /// CLOCK_REALTIME, each ACTION `{"file": PATH, "output": NAME}` (`output` optional:
    /// every output), `{"layout": LAYOUT}` or `{"primary": NAME}` (each of the last two once).
    static func cue(in body: [UInt8], path: String) throws(ControlError) -> ControlCommand {
        let shape = #"{"at": SECONDS, "actions": [{"file": PATH, "output": NAME} or {"layout": LAYOUT} or {"primary": NAME}, ...]}"#
        let object = try object(body, path: path)
        if let other = object.keys.sorted().first(where: { $0 != "at" && $0 != "actions" }) {
            throw ControlError(400, "\(path): unknown member \(quoted(other)); the body is \(shape)")
        }
        guard let at = object["at"].flatMap(number), let list = object["actions"] as? [Any] else {
            throw ControlError(400, "\(path): the body is \(shape)")
        }
        try checkCueTime(at, in: path)
        guard (1...maximumCueActions).contains(list.count) else {
            throw ControlError(400, "\(path): a cue holds 1 to \(maximumCueActions) actions, not \(list.count)")
        }
        var actions: [CueAction] = []
        var changes = CueChanges()
        for (index, item) in list.enumerated() {
            if let action = item as? [String: Any], action.count == 1, action["file"] == nil {
                try change(action, index: index, into: &changes, path: path)
                continue
            }
            guard let action = item as? [String: Any], let file = action["file"] as? String,
                  action.keys.allSatisfy({ $0 == "file" || $0 == "output" }),
                  action["output"] == nil || action["output"] is String else {
                throw ControlError(400, "\(path): action \(index + 1) is not {\"file\": PATH}, {\"file\": PATH, \"output\": NAME}, "
                                   + "{\"layout\": LAYOUT} or {\"primary\": NAME}")
            }
            let output = try (action["output"] as? String).map { name throws(ControlError) in
                try checked(name, name: "action \(index + 1)'s output", in: path)
            }
            actions.append(CueAction(output: output, file: try checked(file, name: "action \(index + 1)'s file", in: path)))
        }
        return .addCue(at: at, actions: actions, changes: changes)
    }

    /// A cue's `{"layout": LAYOUT}` or `{"primary": NAME}`, each at most once.
    private static func change(_ action: [String: Any], index: Int, into changes: inout CueChanges, path: String) throws(ControlError) {
        let what = "action \(index + 1)"
        if let name = action["layout"] {
            guard let text = name as? String, let layout = LayoutMode(rawValue: text) else {
                throw ControlError(400, "\(path): \(what)'s layout is none of " + LayoutMode.allCases.map(\.rawValue).joined(separator: ", "))
            }
            guard changes.layout == nil else { throw ControlError(400, "\(path): \(what) gives the cue's layout a second time") }
            changes.layout = layout
        } else if let name = action["primary"] {
            guard let text = name as? String else { throw ControlError(400, "\(path): \(what)'s primary is an output's name") }
            guard changes.primary == nil else { throw ControlError(400, "\(path): \(what) gives the cue's primary a second time") }
            changes.primary = try checked(text, name: "\(what)'s primary", in: path)
        } else {
            throw ControlError(400, "\(path): \(what) is not {\"file\": PATH}, {\"file\": PATH, \"output\": NAME}, "
                               + "{\"layout\": LAYOUT} or {\"primary\": NAME}")
        }
    }

    /// A cue's time: a number of seconds since 1970, at most a year ahead.
    static func checkCueTime(_ at: Double, in path: String) throws(ControlError) {
        let now = Date().timeIntervalSince1970
        guard at.isFinite, at > 0, at <= now + maximumCueLead else {
            throw ControlError(400, "\(path): at is CLOCK_REALTIME seconds (now \(String(format: "%.3f", now))), at most a "
                               + "year ahead; not \(at)")
        }
    }

    /// A JSON number (not a boolean, which Foundation also gives as a number).
    private static func number(_ value: Any) -> Double? {
        guard let number = value as? NSNumber, String(cString: number.objCType) != "c" else { return nil }
        return number.doubleValue
    }
}
