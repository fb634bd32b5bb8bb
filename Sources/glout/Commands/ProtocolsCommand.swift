import Foundation
import WaylandOutputs

/// `glout protocols`: the globals the compositor offers, with versions, and which of them
/// glout uses and for what. The Compositors table of docs/compositors.md is made from its JSON.
enum ProtocolsCommand {
    /// What glout (through the library, or Mesa's EGL beside it) does with a global.
    static let uses: [String: String] = [
        "wl_compositor": "surfaces (v6: the compositor's preferred buffer scale and transform)",
        "wl_output": "the outputs: modes, scale, transform, names",
        "wl_seat": "keyboards, pointers and touch",
        "xdg_wm_base": "fullscreen windows",
        "zxdg_output_manager_v1": "logical position and size of each output",
        "wp_presentation": "when each frame reached the screen",
        "wp_viewporter": "scaling a buffer of another size (--mode, drafts, fractional scales)",
        "wp_fractional_scale_manager_v1": "fractional scales",
        "zwlr_output_manager_v1": "--set-mode",
        "zwlr_output_power_manager_v1": "a show's off dayparts: outputs turned off and on",
        "wl_shm": "llvmpipe's frames, in buffers of glout's own (Mesa's EGL binds it too)",
        "wl_drm": "Mesa's EGL: GPU buffers (older drivers)",
        "zwp_linux_dmabuf_v1": "Mesa's EGL: GPU buffers",
    ]
    /// Globals Mesa's EGL binds on its own connection queue, not the library.
    static let mesa: Set<String> = ["wl_drm", "zwp_linux_dmabuf_v1"]

    struct Report: Encodable {
        struct Entry: Encodable {
            var interface: String
            var version: UInt32
            /// The version glout binds (absent: glout does not bind it itself).
            var bound_version: UInt32?
            /// "glout", "mesa" (Mesa's EGL binds it) or absent.
            var used_by: String?
            var use: String?
        }
        var globals: [Entry]
    }

    static func report(_ globals: [CompositorGlobal]) -> Report {
        Report(globals: globals.map { global in
            let usedBy = global.boundVersion != nil ? "glout" : mesa.contains(global.interface) ? "mesa" : nil
            return .init(interface: global.interface, version: global.version, bound_version: global.boundVersion,
                         used_by: usedBy, use: usedBy == nil ? nil : uses[global.interface])
        })
    }

    static func table(_ report: Report) -> String {
        let width = max(9, report.globals.map { Log.printable($0.interface).count }.max() ?? 0)
        func pad(_ text: String, _ count: Int) -> String { text + String(repeating: " ", count: max(0, count - text.count)) }
        var text = pad("interface", width) + "  offered  bound  use\n"
        for entry in report.globals {
            let bound = entry.bound_version.map { "v\($0)" } ?? (entry.used_by == "mesa" ? "Mesa" : "-")
            text += pad(Log.printable(entry.interface), width) + "  " + pad("v\(entry.version)", 7) + "  "
                + pad(bound, 5) + "  " + (entry.use ?? "") + "\n"
        }
        return text
    }

    static func run(_ options: ProtocolsOptions, log: Log) throws {
        let display = try OutputSession(.init(appID: Stage.appID, input: false, log: log))
        let report = report(display.tracker.globals)
        print(options.json ? try OutputReport.encode(report, pretty: true) : table(report), terminator: options.json ? "\n" : "")
    }
}
