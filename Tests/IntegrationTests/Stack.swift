import Foundation

/// Which Debian's compositors the integration tests run against: the machine's own, or
/// with GLOUT_STACK=debian-13 those of the Debian 13 root (scripts/compositor,
/// scripts/debian13). Inside that root, its own are Debian 13's. What differs between the
/// two, as measured here, is written down once, in this type.
enum Stack: String, Sendable {
    case debian12 = "debian-12"
    case debian13 = "debian-13"

    static let current: Stack = {
        if let named = ProcessInfo.processInfo.environment["GLOUT_STACK"], let stack = Stack(rawValue: named) { return stack }
        let release = (try? String(contentsOfFile: "/etc/os-release", encoding: .utf8)) ?? ""
        return release.contains("VERSION_ID=\"13\"") ? .debian13 : .debian12
    }()

    /// Whether glout was built against a libwayland older than the compositors' (Debian
    /// 12's 1.21 glout against Debian 13's compositors): its listeners then end at
    /// wl_surface version 5, so it binds wl_compositor 4.
    static var hostBuilt: Bool {
        ProcessInfo.processInfo.environment["GLOUT_STACK"] == Stack.debian13.rawValue
            && !((try? String(contentsOfFile: "/etc/os-release", encoding: .utf8)) ?? "").contains("VERSION_ID=\"13\"")
    }

    /// sway 1.7 never answers wp_presentation_feedback for headless outputs (a few come back
    /// discarded); sway 1.10 answers every one, with times only (refresh 0, no sequence).
    var swayPresents: Bool { self == .debian13 }

    /// sway 1.10 applies wlr-output-management mode changes to headless outputs; sway 1.7
    /// describes them as off with no mode, and glout must fall back to scaling.
    var swaySetsHeadlessModes: Bool { self == .debian13 }

    /// sway 1.10 unplugs a headless output itself (`output NAME unplug`); on sway 1.7 only
    /// a nested sway's outputs can go.
    var swayUnplugs: Bool { self == .debian13 }

    /// What wl_output.geometry says of a headless output's make and model.
    var headlessMake: String { self == .debian13 ? "Unknown" : "headless" }

    /// How wlr-randr lists phoc's first headless mode: phoc 0.46 gives it no refresh.
    var phocStartMode: String { self == .debian13 ? "1280x720 px (current)" : "1280x720 px, 60.000000 Hz (current)" }

    /// cage 0.2 offers wlr-output-management (and switches headless modes); 0.1.4 does not.
    var cageSetsModes: Bool { self == .debian13 }

    /// weston 13 fixed kiosk-shell on a seatless headless backend, so kiosk weston 14 runs
    /// headless itself (its output is "headless"); weston 10's runs nested in a sway
    /// ("wayland0").
    var kioskWestonOutput: String { self == .debian13 ? "headless" : "wayland0" }
}
