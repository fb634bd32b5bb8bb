import Foundation
import XCTest
@testable import glout

/// The control API (--http) of the release binary, driven by curl as a user drives it:
/// every resource as docs/openapi.json says, content switched while both outputs keep
/// drawing, and every refusal (token, content root, limits, a port taken).
final class ControlAPITests: SharedSwayTestCase {
    /// A glout serving the API on a port the system picked, and how to ask it things.
    private struct Controlled {
        let glout: Child
        var base: String
        var token: String?

        /// Starts `glout run ARGS --http 0` (or `address`) and waits for its log line.
        init(_ sway: Compositor, _ arguments: [String], address: String = "0", token: String? = nil) throws {
            glout = try sway.glout(["run", "--http", address] + arguments)
            var base = ""
            let glout = glout
            try waitUntil("glout says where the control API is; stderr:\n\(glout.stderr)") {
                guard glout.isRunning else { throw HarnessError("glout ended: \(glout.stderr)") }
                guard let line = glout.stderr.split(separator: "\n").first(where: { $0.contains("control API on http://") }),
                      let start = line.range(of: "http://"), let end = line.range(of: "/api/v1/") else { return false }
                base = String(line[start.lowerBound..<end.lowerBound]) + "/api/v1"
                return true
            }
            self.base = base
            self.token = token
        }

        struct Answer {
            var status: Int
            var body: Data
            var headers: String
            var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
            var text: String { String(decoding: body, as: UTF8.self) }
        }

        /// curl METHOD base+path, with `body` and `headers`.
        func request(_ method: String, _ path: String, body: String? = nil, headers: [String] = [],
                     bodyFile: String? = nil, maxTime: Int = 30) throws -> Answer {
            let folder = Paths.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let out = folder.appendingPathComponent("body").path, head = folder.appendingPathComponent("headers").path
            var arguments = ["-sS", "-X", method, "-o", out, "-D", head, "-w", "%{http_code}", "--max-time", String(maxTime)]
            if let token { arguments += ["-H", "Authorization: Bearer \(token)"] }
            for header in headers { arguments += ["-H", header] }
            if let body {
                let file = folder.appendingPathComponent("request").path
                try Data(body.utf8).write(to: URL(fileURLWithPath: file))
                arguments += ["--data-binary", "@" + file]
            }
            if let bodyFile { arguments += ["--data-binary", "@" + bodyFile] }
            let curl = try Child("/usr/bin/curl", arguments + [base + path]).wait(timeout: 40)
            let body = (try? Data(contentsOf: URL(fileURLWithPath: out))) ?? Data()
            let headers = (try? String(contentsOfFile: head, encoding: .utf8)) ?? ""
            return Answer(status: Int(curl.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0, body: body,
                          headers: headers)
        }

        /// The status resource's entry for `output`.
        func status(of output: String) throws -> [String: Any] {
            let outputs = try request("GET", "/status").json["outputs"] as? [[String: Any]] ?? []
            return outputs.first { $0["name"] as? String == output } ?? [:]
        }

        /// The file the API's content on `output` is, once an output shows it.
        func content(of output: String) throws -> [String: Any]? { try status(of: output)["content"] as? [String: Any] }

        func stop() -> Finished {
            glout.signal(SIGTERM)
            return glout.wait()
        }
    }

    private func write(_ text: String, _ name: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A fragment shader filling the canvas with `colour` (GLSL), moving with time.
    private func shader(_ name: String, _ colour: String) throws -> String {
        try write("""
            #version 300 es
            precision highp float;
            #include "frame.glsl"
            #include "canvas.glsl"
            out vec4 fragColor;
            void main() {
                float moving = fract(canvasPixel().x / u_canvas.z + u_timing.x) * 0.1;
                fragColor = vec4(\(colour), 1.0) * (0.9 + moving);
            }
            """, name)
    }

    /// A photo-sized JPEG (4032x3024, as a phone takes them, 4-5 MB): red on the left half,
    /// blue on the right, with noise in every pixel, made by Pillow.
    private func photo() throws -> String {
        let path = folder.appendingPathComponent("photo.jpg").path
        let script = """
            import sys
            from PIL import Image
            w, h = 4032, 3024
            noise = Image.effect_noise((w, h), 40)
            left = Image.new('L', (w // 2, h), 220)
            mask = Image.new('L', (w, h), 0)
            mask.paste(left, (0, 0))
            red = Image.merge('RGB', (mask, noise.point(lambda v: v // 8), Image.new('L', (w, h), 0)))
            blue = Image.merge('RGB', (Image.new('L', (w, h), 0), noise.point(lambda v: v // 8), mask.point(lambda v: 220 - v)))
            Image.composite(red, blue, mask).save(sys.argv[1], quality=92)
            """
        let made = try Child("/usr/bin/python3", ["-c", script, path]).wait(timeout: 120)
        guard made.status == 0 else { throw HarnessError("Pillow could not make the photo: \(made.stderr)") }
        return path
    }

    private func isRed(_ p: (r: Int, g: Int, b: Int)) -> Bool { p.r > 150 && p.b < 60 }
    private func isBlue(_ p: (r: Int, g: Int, b: Int)) -> Bool { p.b > 150 && p.r < 60 }
    private func isGreen(_ p: (r: Int, g: Int, b: Int)) -> Bool { p.g > 150 && p.r < 60 && p.b < 60 }

    /// Every operation docs/openapi.json lists answers with a status it documents; the
    /// document served is the repo's; outputs is `glout outputs --json`; status is filled.
    func test_everyResourceAnswersAsTheOpenAPIDocumentSays() throws {
        let api = try Controlled(sway, ["--layout", "independent"])
        try sway.waitForGlout(on: ["HEADLESS-1", "HEADLESS-2"], frozen: false)
        let image = folder.appendingPathComponent("dot.png").path
        try Bitmap(width: 4, height: 4, pixels: [UInt8](repeating: 200, count: 64)).writePNG(to: image)

        let served = try api.request("GET", "/openapi.json")
        XCTAssertEqual(served.status, 200)
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: Paths.packageRoot.appendingPathComponent("docs/openapi.json")))
        XCTAssertEqual(try JSONSerialization.jsonObject(with: served.body) as? NSDictionary, document as? NSDictionary,
                       "GET /openapi.json is not docs/openapi.json")
        let paths = (document as? [String: Any])?["paths"] as? [String: [String: Any]] ?? [:]

        // One request for each operation, as a client would make it.
        let requests: [(method: String, path: String, body: String?)] = [
            ("GET", "/outputs", nil), ("GET", "/status", nil), ("GET", "/openapi.json", nil),
            ("PUT", "/content", #"{"file": "\#(image)"}"#),
            ("PUT", "/outputs/{name}/content", #"{"file": "\#(image)"}"#),
            ("PUT", "/layout", #"{"layout": "independent"}"#),
            ("PUT", "/primary", #"{"output": "HEADLESS-1"}"#),
            // Without --show: 409 (ShowPlaybackTests has it with one).
            ("PUT", "/show", #"{"file": "\#(image)"}"#),
            ("POST", "/identify", nil),
            ("GET", "/outputs/{name}/screenshot", nil),
            ("POST", "/cues", #"{"at": \#(Date().timeIntervalSince1970 + 60), "actions": [{"file": "\#(image)"}]}"#),
            ("GET", "/cues", nil), ("DELETE", "/cues/{id}", nil), ("DELETE", "/cues", nil), ("GET", "/events", nil),
        ]
        var documented: Set<String> = []
        for (path, operations) in paths {
            for method in operations.keys where ["get", "put", "post", "delete"].contains(method) {
                documented.insert(method.uppercased() + " " + path.replacingOccurrences(of: "/api/v1", with: ""))
            }
        }
        XCTAssertEqual(documented, Set(requests.map { $0.method + " " + $0.path }), "the test asks what the document lists")
        for request in requests {
            let concrete = request.path.replacingOccurrences(of: "{name}", with: "HEADLESS-2")
                .replacingOccurrences(of: "{id}", with: "1")
            // The stream goes on until the client goes: its head and first lines are enough.
            let answer = try api.request(request.method, concrete, body: request.body,
                                         maxTime: concrete == "/events" ? 2 : 30)
            let responses = (paths["/api/v1" + request.path]?[request.method.lowercased()] as? [String: Any])?["responses"] as? [String: Any] ?? [:]
            XCTAssertTrue(responses.keys.contains(String(answer.status)),
                          "\(request.method) \(concrete): \(answer.status) is not documented (\(responses.keys.sorted())): \(answer.text)")
            if concrete.hasSuffix("/screenshot") {
                XCTAssertTrue(answer.headers.lowercased().contains("content-type: image/png"), answer.headers)
                XCTAssertTrue(answer.body.starts(with: [0x89, 0x50, 0x4e, 0x47]), "\(concrete): not a PNG")
                continue
            }
            if concrete == "/events" {
                XCTAssertTrue(answer.headers.lowercased().contains("content-type: text/event-stream"), answer.headers)
                XCTAssertTrue(answer.text.hasPrefix("retry: 2000\n: glout events\n\n"), answer.text)
                continue
            }
            XCTAssertTrue(answer.headers.lowercased().contains("content-type: application/json"), answer.headers)
            XCTAssertNotNil(try? JSONSerialization.jsonObject(with: answer.body), "\(concrete): \(answer.text)")
        }
        // Each documented error answer is {"error": {"status", "message"}}.
        for (method, path, body) in [("GET", "/nothing", nil), ("PUT", "/content", "{"), ("DELETE", "/status", nil),
                                     ("PUT", "/outputs/NOPE/content", #"{"file": "\#(image)"}"#)] as [(String, String, String?)] {
            let answer = try api.request(method, path, body: body)
            let error = answer.json["error"] as? [String: Any]
            XCTAssertEqual(error?["status"] as? Int, answer.status, "\(method) \(path): \(answer.text)")
            XCTAssertFalse((error?["message"] as? String ?? "").isEmpty, "\(method) \(path): \(answer.text)")
            XCTAssertTrue((400..<500).contains(answer.status), "\(method) \(path): \(answer.status)")
        }

        let outputs = try api.request("GET", "/outputs")
        let cli = try sway.glout(["outputs", "--json"]).wait()
        XCTAssertEqual(cli.status, 0, cli.stderr)
        XCTAssertEqual(try JSONSerialization.jsonObject(with: outputs.body) as? NSDictionary,
                       try JSONSerialization.jsonObject(with: Data(cli.stdout.utf8)) as? NSDictionary, "GET /outputs")

        let status = try api.request("GET", "/status").json
        XCTAssertFalse((status["version"] as? String ?? "").isEmpty)
        XCTAssertGreaterThan(status["uptime_s"] as? Double ?? 0, 0)
        XCTAssertEqual(status["layout"] as? String, "independent")
        XCTAssertEqual(status["primary"] as? String, "HEADLESS-1")
        let entries = status["outputs"] as? [[String: Any]] ?? []
        XCTAssertEqual(entries.compactMap { $0["name"] as? String }, ["HEADLESS-1", "HEADLESS-2"])
        let first = entries.first ?? [:]
        XCTAssertEqual(first["refresh_mhz"] as? Int, 60000)
        XCTAssertEqual(first["view"] as? String, "control")
        XCTAssertGreaterThan(first["frames"] as? Int ?? 0, 0)
        for key in ["fps", "on_time_pct", "missed"] { XCTAssertNotNil(first[key] as? Double, "\(key): \(first)") }
        let finished = api.stop()
        XCTAssertEqual(finished.status, 0, finished.stderr)
    }

    /// GET .../screenshot is the picture the output presents: the same pixels grim
    /// captures of it, at its size.
    func test_aScreenshotIsWhatGrimCaptures() throws {
        var pixels: [UInt8] = []
        for y in 0..<90 { for x in 0..<160 { pixels += [UInt8(x), UInt8(y * 2), x < 80 ? 220 : 30, 255] } }
        let image = folder.appendingPathComponent("ramp.png").path
        try Bitmap(width: 160, height: 90, pixels: pixels).writePNG(to: image)
        let api = try Controlled(sway, ["--layout", "independent", "--content", "HEADLESS-2=" + image])
        try sway.waitForGlout(on: ["HEADLESS-1", "HEADLESS-2"], frozen: false)
        func screenshot(_ name: String) throws -> Image {
            let answer = try api.request("GET", "/outputs/\(name)/screenshot")
            guard answer.status == 200 else { throw HarnessError("screenshot of \(name): \(answer.status) \(answer.text)") }
            let png = folder.appendingPathComponent("\(name).png").path, ppm = png + ".ppm"
            try answer.body.write(to: URL(fileURLWithPath: png))
            let converted = try Child("/usr/bin/python3", ["-c", "import sys; from PIL import Image; "
                                                           + "Image.open(sys.argv[1]).convert('RGB').save(sys.argv[2], 'PPM')", png, ppm]).wait()
            XCTAssertEqual(converted.status, 0, converted.stderr)
            return try Image(ppm: Data(contentsOf: URL(fileURLWithPath: ppm)))
        }
        // HEADLESS-2's still picture: glout's buffer and the compositor's capture agree.
        let ours = try screenshot("HEADLESS-2")
        let grims = try sway.screenshot("HEADLESS-2")
        XCTAssertEqual(ours.width, 800)
        XCTAssertEqual(ours.height, 600)
        let differences = zip(ours.pixels, grims.pixels).map { abs(Int($0) - Int($1)) }
        XCTAssertLessThanOrEqual(differences.max() ?? 255, 2, "glout's screenshot and grim's capture differ")
        XCTAssertFalse(ours.isUniform, "the picture is blank")
        // The control view, moving, is read at its size too.
        let control = try screenshot("HEADLESS-1")
        XCTAssertEqual(control.width, 1280)
        XCTAssertTrue(isControlView(control))
        XCTAssertEqual(try api.request("GET", "/outputs/NOPE/screenshot").status, 404)
        let finished = api.stop()
        XCTAssertEqual(finished.status, 0, finished.stderr)
    }

    /// Layout, primary and identify change what the screens show.
    func test_layoutPrimaryAndIdentifyChangeTheScreens() throws {
        let api = try Controlled(sway, ["--layout", "independent"])
        try sway.waitForGlout(on: ["HEADLESS-1", "HEADLESS-2"], frozen: false)
        XCTAssertFalse(isControlView(try sway.screenshot("HEADLESS-2")))

        XCTAssertEqual(try api.request("PUT", "/layout", body: #"{"layout":"mirror"}"#).status, 200)
        try waitUntil("HEADLESS-2 mirrors the control view") { isControlView(try sway.screenshot("HEADLESS-2")) }
        XCTAssertEqual(try api.request("PUT", "/layout", body: #"{"layout":"independent"}"#).status, 200)
        try waitUntil("HEADLESS-2 shows the content view again") { !isControlView(try sway.screenshot("HEADLESS-2")) }

        let primary = try api.request("PUT", "/primary", body: #"{"output":"HEADLESS-2"}"#)
        XCTAssertEqual(primary.json["primary"] as? String, "HEADLESS-2", primary.text)
        try waitUntil("HEADLESS-2, the primary, shows the control view") {
            let second = try sway.screenshot("HEADLESS-2"), first = try sway.screenshot("HEADLESS-1")
            return isControlView(second) && !isControlView(first)
        }
        XCTAssertEqual(try api.request("GET", "/status").json["primary"] as? String, "HEADLESS-2")
        XCTAssertEqual(try api.request("PUT", "/primary", body: #"{"output":"NOPE"}"#).status, 404)

        XCTAssertEqual(try api.request("POST", "/identify").status, 200)
        for name in ["HEADLESS-1", "HEADLESS-2"] {
            try waitUntil("\(name) shows its name") { IdentificationTests.showsBand(try sway.screenshot(name)) }
        }
        let finished = api.stop()
        XCTAssertEqual(finished.status, 0, finished.stderr)
    }

    /// A cue's layout and primary: listed while they wait, on no screen before the
    /// instant, on the screens from it (mirror: the primary's control view everywhere),
    /// glout's own state after; a cancelled one changes nothing.
    func test_aCueChangesTheLayoutAndThePrimaryAtItsInstant() throws {
        let api = try Controlled(sway, ["--layout", "independent"])
        try sway.waitForGlout(on: ["HEADLESS-1", "HEADLESS-2"], frozen: false)
        let at = (Date().timeIntervalSince1970 + 4).rounded()
        let cue = try api.request("POST", "/cues", body: #"{"at": \#(at), "actions": [{"layout": "mirror"}, {"primary": "HEADLESS-2"}]}"#)
        XCTAssertEqual(cue.status, 201, cue.text)
        let listed = try api.request("GET", "/cues").json["cues"] as? [[String: Any]] ?? []
        let actions = listed.first?["actions"] as? [[String: Any]] ?? []
        XCTAssertEqual(actions.count, 2, "\(listed)")
        XCTAssertEqual(actions.first?["layout"] as? String, "mirror")
        XCTAssertEqual(actions.last?["primary"] as? String, "HEADLESS-2")
        XCTAssertEqual(try api.request("POST", "/cues", body: #"{"at": \#(at), "actions": [{"primary": "NOPE"}]}"#).status, 404)
        guard Date().timeIntervalSince1970 < at - 1 else { throw XCTSkip("the cue was due before the test could look") }
        XCTAssertFalse(isControlView(try sway.screenshot("HEADLESS-2")), "the layout before the cue")
        XCTAssertEqual(try api.request("GET", "/status").json["layout"] as? String, "independent")
        try waitUntil("HEADLESS-2, the primary of a mirror, shows the control view") {
            let (second, first) = (try sway.screenshot("HEADLESS-2"), try sway.screenshot("HEADLESS-1"))
            return isControlView(second) && isControlView(first)
        }
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince1970, at - 0.05, "the layout changed before the cue's instant")
        try waitUntil("glout's state is the cue's") {
            let status = try api.request("GET", "/status").json
            return status["layout"] as? String == "mirror" && status["primary"] as? String == "HEADLESS-2"
        }
        XCTAssertTrue(api.glout.stderr.contains("control: cue 1 fired: layout mirror, primary HEADLESS-2"), api.glout.stderr)
        // One cancelled before its instant changes nothing.
        let later = try api.request("POST", "/cues", body: #"{"at": \#(at + 60), "actions": [{"layout": "independent"}]}"#)
        XCTAssertEqual(later.status, 201, later.text)
        let id = try XCTUnwrap(later.json["id"] as? Int)
        XCTAssertEqual(try api.request("DELETE", "/cues/\(id)").json["cancelled"] as? [Int], [id])
        XCTAssertEqual((try api.request("GET", "/cues").json["cues"] as? [Any])?.count, 0)
        let finished = api.stop()
        XCTAssertEqual(finished.status, 0, finished.stderr)
    }

    /// PUT content: a shader, a photo-sized JPEG and back, each on the screen once the
    /// status says so; the outputs keep drawing while the photo decodes; the switch frame
    /// follows the one before it by one refresh; a file that cannot be shown changes nothing.
    func test_aContentSwitchShowsTheNewPictureWhileEveryOutputKeepsDrawing() throws {
        let moving = try shader("moving.frag", "0.1, 0.1, 0.9")
        let green = try shader("green.frag", "0.0, 0.95, 0.0")
        let photo = try photo()
        let landings = folder.appendingPathComponent("landings.json").path
        let api = try Controlled(sway, ["--layout", "independent", "--content", "HEADLESS-2=" + moving,
                                        "--landings-json", landings])
        try sway.waitForGlout(on: ["HEADLESS-1", "HEADLESS-2"], frozen: false)

        // Shader to shader, then the photo, then a shader again.
        var shown: [String: [String: Any]] = [:]
        for file in [green, photo, moving] {
            let answer = try api.request("PUT", "/outputs/HEADLESS-2/content", body: #"{"file": "\#(file)"}"#)
            XCTAssertEqual(answer.status, 202, answer.text)
            XCTAssertEqual(answer.json["outputs"] as? [String], ["HEADLESS-2"], answer.text)
            try waitUntil("HEADLESS-2 shows \(file)") { try api.content(of: "HEADLESS-2")?["file"] as? String == file }
            shown[file] = try api.content(of: "HEADLESS-2")
            // Status names it from the frame that took it, which the screen shows once presented.
            switch file {
            case green:
                try waitUntil("green on the screen") { isGreen(try sway.screenshot("HEADLESS-2").pixel(400, 300)) }
            case photo:
                try waitUntil("the photo's red and blue halves on the screen") {
                    let screen = try sway.screenshot("HEADLESS-2")
                    return isRed(screen.pixel(200, 300)) && isBlue(screen.pixel(600, 300))
                }
            default:
                try waitUntil("blue on the screen") { isBlue(try sway.screenshot("HEADLESS-2").pixel(400, 300)) }
            }
            XCTAssertTrue(isControlView(try sway.screenshot("HEADLESS-1")), "HEADLESS-1 keeps its control view")
        }
        XCTAssertNil(try api.content(of: "HEADLESS-1"), "HEADLESS-1 was not named")

        // What cannot be shown is refused with the reason, and nothing changes.
        let before = try api.content(of: "HEADLESS-2")
        let junk = folder.appendingPathComponent("junk.bin").path
        try Data(repeating: 0, count: 4096).write(to: URL(fileURLWithPath: junk))
        for (body, status) in [(#"{"file": "/no/such.png"}"#, 404), (#"{"file": "\#(folder.path)"}"#, 422),
                               (#"{"file": "\#(try write("not a shader", "broken.frag"))"}"#, 422),
                               (#"{"file": "\#(junk)"}"#, 415)] {
            let answer = try api.request("PUT", "/outputs/HEADLESS-2/content", body: body)
            XCTAssertEqual(answer.status, status, answer.text)
        }
        let bad = try write("#version 300 es\nvoid main() { nonsense; }\n", "bad.frag")
        let refused = try api.request("PUT", "/outputs/HEADLESS-2/content", body: #"{"file": "\#(bad)"}"#)
        XCTAssertEqual(refused.status, 422, refused.text)
        XCTAssertTrue(refused.text.contains("bad.frag"), refused.text)
        XCTAssertEqual(try api.content(of: "HEADLESS-2")?["since_frame"] as? Int, before?["since_frame"] as? Int)

        let finished = api.stop()
        XCTAssertEqual(finished.status, 0, finished.stderr)
        let log = try readJSON(landings)
        let outputs = log["outputs"] as? [[String: Any]] ?? []
        func frames(_ name: String) -> [Int: Double] {
            let frames = outputs.first { $0["name"] as? String == name }?["frames"] as? [[String: Any]] ?? []
            var byIndex: [Int: Double] = [:]
            for frame in frames {
                if let index = frame["index"] as? Int, let target = (frame["target_ns"] as? NSNumber)?.doubleValue {
                    byIndex[index] = target
                }
            }
            return byIndex
        }
        let second = frames("HEADLESS-2"), first = frames("HEADLESS-1")
        // The shader switch: the first green frame follows the last blue one by one refresh
        // (30 Hz), give or take a scheduling delay.
        let switchFrame = shown[green]?["since_frame"] as? Int ?? 0
        if let before = second[switchFrame - 1], let at = second[switchFrame] {
            XCTAssertLessThan((at - before) / 1e6, 33.4 * 1.5, "the switch frame \(switchFrame) came late")
        } else {
            XCTFail("frames \(switchFrame - 1) and \(switchFrame) of HEADLESS-2 are not both in the landings")
        }
        // While the photo decoded (load_ms), both outputs kept drawing: at least a quarter of
        // the refreshes of that time have a frame (an output the decode held up would have
        // none; on a loaded 2-core machine half was once missed by two frames).
        let photoFrame = shown[photo]?["since_frame"] as? Int ?? 0
        let load = (shown[photo]?["load_ms"] as? Double ?? 0) * 1e6
        if let last = second[photoFrame - 1] {
            let during = second.values.filter { $0 > last - load && $0 <= last }.count
            XCTAssertGreaterThanOrEqual(Double(during), (load / 33.3e6) / 4 - 1, "HEADLESS-2 frames while the photo decoded")
            let control = first.values.filter { $0 > last - load && $0 <= last }.count
            XCTAssertGreaterThanOrEqual(Double(control), (load / 16.7e6) / 4 - 1, "HEADLESS-1 frames while the photo decoded")
        } else {
            XCTFail("frame \(photoFrame - 1) of HEADLESS-2 is not in the landings")
        }
    }

    /// A video and a playlist given through the API play from their start; once no
    /// output shows the video, its decoder stops and glout's threads are back to what they were.
    func test_aVideoOrPlaylistPlaysFromItsStartAndItsDecoderGoesAfter() throws {
        let clip = folder.appendingPathComponent("coded.mp4").path
        try CodedClip.make(at: clip, fps: 24, seconds: 5)
        let red = folder.appendingPathComponent("red.png").path, blue = folder.appendingPathComponent("blue.png").path
        try Bitmap(width: 64, height: 64, background: .init(255, 0, 0)).writePNG(to: red)
        try Bitmap(width: 64, height: 64, background: .init(0, 0, 255)).writePNG(to: blue)
        let list = try write("\(red) 0.6\n\(blue) 0.6\n", "list.txt")
        let api = try Controlled(sway, ["--layout", "independent"])
        try sway.waitForGlout(on: ["HEADLESS-1", "HEADLESS-2"], frozen: false)
        func threads() -> Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(api.glout.pid)/task").count) ?? 0 }
        func put(_ file: String) throws {
            let answer = try api.request("PUT", "/outputs/HEADLESS-2/content", body: #"{"file": "\#(file)"}"#)
            XCTAssertEqual(answer.status, 202, answer.text)
        }
        try put(red)
        try waitUntil("HEADLESS-2 shows the red picture") { isRed(try sway.screenshot("HEADLESS-2").pixel(400, 300)) }
        let before = threads()

        // Before the request: the clip's clock starts when its file is ready, within it.
        let asked = Date()
        try put(clip)
        var first: (number: Int, after: Double)?
        try waitUntil("a frame of the clip on HEADLESS-2") {
            guard let number = CodedClip.frameNumber(try sway.screenshot("HEADLESS-2"), width: 800, row: 300) else { return false }
            first = (number, Date().timeIntervalSince(asked))
            return true
        }
        let (number, after) = first!
        XCTAssertLessThanOrEqual(number, Int(after * 24) + 3, "the clip starts at its start: frame \(number) \(after) s after the request")
        try waitUntil("the clip plays on from frame \(number)") {
            // Another frame (after its last, 119, it loops to 0).
            CodedClip.frameNumber(try sway.screenshot("HEADLESS-2"), width: 800, row: 300).map { $0 != number } ?? false
        }
        XCTAssertGreaterThan(threads(), before, "the clip's decoder runs")

        try put(list)
        try waitUntil("the list's blue picture") { isBlue(try sway.screenshot("HEADLESS-2").pixel(400, 300)) }
        try waitUntil("the list's red picture after it") { isRed(try sway.screenshot("HEADLESS-2").pixel(400, 300)) }
        try waitUntil("glout's threads are back to \(before) (now \(threads()))") { threads() <= before }
        let finished = api.stop()
        XCTAssertEqual(finished.status, 0, finished.stderr)
    }

    /// A cue at a wall-clock instant, given to two glouts on two compositors: each output
    /// switches at its first refresh targeted at or after it, so the two switch frames
    /// target the same refresh; cues are listed and cancelled.
    func test_aCueSwitchesTwoGloutsOnTwoCompositorsAtTheSameRefresh() throws {
        let other = try Compositor.sway(["1280x720@60"])
        let moving = try shader("moving.frag", "0.1, 0.1, 0.9")
        let green = try shader("green.frag", "0.0, 0.95, 0.0")
        var logs: [String] = []
        var apis: [Controlled] = []
        for (index, compositor) in [sway, other].enumerated() {
            let log = folder.appendingPathComponent("landings-\(index).json").path
            logs.append(log)
            apis.append(try Controlled(compositor, ["--control", "none", "--content", moving, "--landings-json", log]))
        }
        try sway.waitForGlout(on: ["HEADLESS-1"], frozen: false)
        try other.waitForGlout(on: ["HEADLESS-1"], frozen: false)

        // Listed, then cancelled.
        let later = try apis[0].request("POST", "/cues", body: #"{"at": \#(Date().timeIntervalSince1970 + 300), "actions": [{"file": "\#(green)"}]}"#)
        XCTAssertEqual(later.status, 201, later.text)
        let id = later.json["id"] as? Int ?? 0
        XCTAssertEqual((try apis[0].request("GET", "/cues").json["cues"] as? [[String: Any]])?.compactMap { $0["id"] as? Int }, [id])
        XCTAssertEqual(try apis[0].request("DELETE", "/cues/\(id)").json["cancelled"] as? [Int], [id])
        XCTAssertEqual((try apis[0].request("GET", "/cues").json["cues"] as? [Any])?.count, 0)
        XCTAssertEqual(try apis[0].request("DELETE", "/cues/\(id)").status, 404)
        XCTAssertEqual(try apis[0].request("POST", "/cues", body: #"{"at": true, "actions": [{"file": "\#(green)"}]}"#).status, 400)
        XCTAssertEqual(try apis[0].request("POST", "/cues", body: #"{"at": 1e12, "actions": [{"file": "\#(green)"}]}"#).status, 400)

        // The same cue on both, 1.5 s ahead.
        let at = Date().timeIntervalSince1970 + 1.5
        for api in apis {
            let cue = try api.request("POST", "/cues", body: #"{"at": \#(at), "actions": [{"file": "\#(green)", "output": "HEADLESS-1"}]}"#)
            XCTAssertEqual(cue.status, 201, cue.text)
        }
        var switchFrames: [Int] = []
        for api in apis {
            try waitUntil("both glouts take the cue") { try api.content(of: "HEADLESS-1")?["file"] as? String == green }
            switchFrames.append(try api.content(of: "HEADLESS-1")?["since_frame"] as? Int ?? 0)
        }
        for api in apis {
            let finished = api.stop()
            XCTAssertEqual(finished.status, 0, finished.stderr)
        }
        // Each switch frame is the first whose target is at or after the cue's instant.
        let period = 1e9 / 60
        var targets: [Double] = []
        for (index, path) in logs.enumerated() {
            let log = try readJSON(path)
            let offset = (log["realtime_minus_monotonic_ns"] as? NSNumber)?.doubleValue ?? 0
            let due = at * 1e9 - offset
            let frames = ((log["outputs"] as? [[String: Any]])?.first { $0["name"] as? String == "HEADLESS-1" }?["frames"]
                          as? [[String: Any]]) ?? []
            func target(_ frame: Int) -> Double? {
                (frames.first { $0["index"] as? Int == frame }?["target_ns"] as? NSNumber)?.doubleValue
            }
            guard let at = target(switchFrames[index]), let before = target(switchFrames[index] - 1) else {
                XCTFail("glout \(index): frames \(switchFrames[index] - 1) and \(switchFrames[index]) are not in the landings")
                continue
            }
            XCTAssertLessThan(before, due, "glout \(index): the frame before the switch was due after the cue")
            XCTAssertGreaterThanOrEqual(at, due - 1e6, "glout \(index): the switch frame came before the cue")
            XCTAssertLessThan(at - due, 2 * period, "glout \(index): the switch came a refresh late")
            targets.append(at)
        }
        if targets.count == 2 {
            print("cue: switch frames' targets \(String(format: "%.2f", abs(targets[0] - targets[1]) / 1e6)) ms apart")
            XCTAssertLessThan(abs(targets[0] - targets[1]), 2 * period, "the two switch frames")
        }
    }

    /// Off loopback: a token and a content root. The token is checked, paths stay under the
    /// root, and the limits hold; a port taken is a clear error.
    func test_theRefusals() throws {
        let root = folder.appendingPathComponent("root")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("sub"), withIntermediateDirectories: true)
        let inside = root.appendingPathComponent("sub/dot.png").path
        try Bitmap(width: 4, height: 4, pixels: [UInt8](repeating: 90, count: 64)).writePNG(to: inside)
        try Bitmap(width: 4, height: 4, pixels: [UInt8](repeating: 90, count: 64)).writePNG(to: folder.appendingPathComponent("secret.png").path)
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("out.png").path,
                                                   withDestinationPath: folder.appendingPathComponent("secret.png").path)
        let token = "t0ken-" + UUID().uuidString
        let tokenFile = try write(token + "\n", "token")

        // Off loopback without both: a usage error before anything starts.
        for extra in [[], ["--http-token-file", tokenFile], ["--content-root", root.path]] {
            let refused = try sway.glout(["run", "--http", "0.0.0.0:0"] + extra).wait()
            XCTAssertEqual(refused.status, 2, refused.stderr)
            XCTAssertTrue(refused.stderr.contains("--http-token-file"), refused.stderr)
        }

        var api = try Controlled(sway, ["--layout", "independent", "--http-token-file", tokenFile, "--content-root", root.path],
                                 address: "0.0.0.0:0")
        api.base = api.base.replacingOccurrences(of: "0.0.0.0", with: "127.0.0.1")
        try sway.waitForGlout(on: ["HEADLESS-1", "HEADLESS-2"], frozen: false)
        let none = try api.request("GET", "/status")
        XCTAssertEqual(none.status, 401, none.text)
        XCTAssertTrue(none.headers.contains("WWW-Authenticate: Bearer"), none.headers)
        XCTAssertEqual(try api.request("GET", "/status", headers: ["Authorization: Bearer " + token + "x"]).status, 401)
        XCTAssertEqual(try api.request("GET", "/status", headers: ["Authorization: Basic " + token]).status, 401)
        api.token = token
        XCTAssertEqual(try api.request("GET", "/status").status, 200)

        // A playlist under the root names only files under it.
        try "dot.png 1\n\(folder.appendingPathComponent("secret.png").path) 1\n"
            .write(to: root.appendingPathComponent("sub/out.list"), atomically: true, encoding: .utf8)
        try "dot.png 1\n../../secret.png 1\n".write(to: root.appendingPathComponent("sub/up.list"), atomically: true, encoding: .utf8)
        try "dot.png 1\n../out.png 1\n".write(to: root.appendingPathComponent("sub/link.list"), atomically: true, encoding: .utf8)
        try "dot.png 1\n".write(to: root.appendingPathComponent("sub/in.list"), atomically: true, encoding: .utf8)
        for (name, status) in [("sub/dot.png", 202), ("../secret.png", 403), ("sub/../../secret.png", 403),
                               (folder.appendingPathComponent("secret.png").path, 403), ("out.png", 403), ("none.png", 404),
                               ("sub/out.list", 403), ("sub/up.list", 403), ("sub/link.list", 403), ("sub/in.list", 202)] {
            let answer = try api.request("PUT", "/outputs/HEADLESS-2/content", body: #"{"file": "\#(name)"}"#)
            XCTAssertEqual(answer.status, status, "\(name): \(answer.text)")
        }

        // Limits: a body over 1 MiB, headers over 16 KiB.
        let big = folder.appendingPathComponent("big").path
        try Data(repeating: 0x20, count: 2 << 20).write(to: URL(fileURLWithPath: big))
        XCTAssertEqual(try api.request("PUT", "/content", bodyFile: big).status, 413)
        XCTAssertEqual(try api.request("GET", "/status", headers: ["X-Padding: " + String(repeating: "a", count: 20 << 10)]).status, 431)
        // A chunked body past the limit: the connection closes; glout goes on.
        _ = try api.request("PUT", "/content", headers: ["Transfer-Encoding: chunked"], bodyFile: big)

        // Clients that connect and say nothing hold a connection each, up to 64, until 10 s
        // of silence closes them; meanwhile the outputs draw and others are answered once
        // a place is free.
        let port = api.base.split(separator: ":").last.map { String($0.prefix { $0.isNumber }) } ?? ""
        let framesBefore = try api.status(of: "HEADLESS-1")["frames"] as? Int ?? 0
        let idle = try Child("/usr/bin/python3", ["-c", """
            import socket, sys, time
            held = []
            for _ in range(70):
                s = socket.create_connection(('127.0.0.1', int(sys.argv[1])))
                held.append(s)
            start = time.monotonic()
            for s in held:
                s.settimeout(40)
                try:
                    s.recv(1)
                except OSError:
                    pass
            print(round(time.monotonic() - start, 1))
            """, port])
        let held = idle.wait(timeout: 60)
        XCTAssertEqual(held.status, 0, held.stderr)
        XCTAssertLessThan(Double(held.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 99, 30,
                          "idle connections were not closed")
        XCTAssertGreaterThan(try api.status(of: "HEADLESS-1")["frames"] as? Int ?? 0, framesBefore + 60,
                             "HEADLESS-1 kept drawing while clients held every connection")

        // The same port again: a clear error, not a crash.
        let taken = try sway.glout(["run", "--http", port, "--duration", "30"]).wait()
        XCTAssertEqual(taken.status, 1, taken.stderr)
        XCTAssertTrue(taken.stderr.contains("the port is taken"), taken.stderr)

        let finished = api.stop()
        XCTAssertEqual(finished.status, 0, finished.stderr)
    }

    /// One server-sent event as a client reads it.
    private struct StreamedEvent {
        var name: String
        var data: [String: Any]
    }

    /// The events in what `curl -N .../events` wrote so far (the last one only once whole).
    private func events(in text: String) -> [StreamedEvent] {
        text.components(separatedBy: "\n\n").dropLast().compactMap { block in
            var name = "message", data = ""
            for line in block.split(separator: "\n") {
                if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
                if line.hasPrefix("data: ") { data += line.dropFirst(6) }
            }
            guard !data.isEmpty else { return nil }
            return StreamedEvent(name: name, data: (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any] ?? [:])
        }
    }

    /// GET /events streams what happens, as it happens: content started and ended with its
    /// frames, a cue fired, an output connected and disconnected, refreshes an output
    /// stalled on missed (and not to a stream whose threshold is higher); the streams end
    /// when glout does.
    func test_theEventStreamTellsWhatHappens() throws {
        // Outputs this test unplugs and plugs (a nested sway on Debian 12: WL-1, WL-2...).
        let rig = try HotplugRig(outputs: 2)
        let own = rig.compositor
        let (first, second, third) = (rig.name(1), rig.name(2), rig.name(3))
        let red = folder.appendingPathComponent("red.png").path, blue = folder.appendingPathComponent("blue.png").path
        try Bitmap(width: 64, height: 64, background: .init(255, 0, 0)).writePNG(to: red)
        try Bitmap(width: 64, height: 64, background: .init(0, 0, 255)).writePNG(to: blue)
        // The first output's control view draws on, each frame 40 ms: two of every three refreshes missed.
        let api = try Controlled(own, ["--layout", "independent", "--stall", first + "=40"])
        try own.waitForGlout(on: [first, second], frozen: false)
        for bad in ["0", "x", "-1", "1000001"] {
            let refused = try api.request("GET", "/events?missed=" + bad)
            XCTAssertEqual(refused.status, 400, "missed=\(bad): \(refused.text)")
        }
        let stream = try Child("/usr/bin/curl", ["-sSN", api.base + "/events"])
        let quiet = try Child("/usr/bin/curl", ["-sSN", api.base + "/events?missed=1000000"])
        try waitUntil("both streams begin") { stream.stdout.contains(": glout events") && quiet.stdout.contains(": glout events") }
        func wait(for name: String, _ what: String, _ match: @escaping ([String: Any]) -> Bool) throws -> [String: Any] {
            var found: [String: Any]?
            try waitUntil("an event \(name) \(what); the stream:\n\(stream.stdout.suffix(3000))\nglout:\n\(api.glout.stderr)") {
                found = events(in: stream.stdout).last { $0.name == name && match($0.data) }?.data
                return found != nil
            }
            return found!
        }

        for file in [red, blue] {
            XCTAssertEqual(try api.request("PUT", "/outputs/\(second)/content", body: #"{"file": "\#(file)"}"#).status, 202)
            let started = try wait(for: "content-started", "for \(file)") { $0["file"] as? String == file }
            XCTAssertEqual(started["output"] as? String, second)
            XCTAssertNotNil(started["frame"] as? Int, "\(started)")
            XCTAssertGreaterThan(started["at"] as? Double ?? 0, 1.7e9)
        }
        let ended = try wait(for: "content-ended", "for the red picture") { $0["file"] as? String == red }
        XCTAssertGreaterThanOrEqual(ended["frames"] as? Int ?? 0, 1, "\(ended)")

        let at = Date().timeIntervalSince1970 + 1
        let cue = try api.request("POST", "/cues", body: #"{"at": \#(at), "actions": [{"output": "\#(second)", "file": "\#(red)"}]}"#)
        XCTAssertEqual(cue.status, 201, cue.text)
        let fired = try wait(for: "cue-fired", "for cue \(cue.json["id"] ?? "")") { $0["cue"] as? Int == cue.json["id"] as? Int }
        XCTAssertEqual(fired["output"] as? String, second)
        XCTAssertGreaterThanOrEqual(fired["target"] as? Double ?? 0, at - 0.001, "\(fired): the first refresh at or after the cue")

        try rig.plug()
        let connected = try wait(for: "output-connected", "for \(third)") { $0["name"] as? String == third }
        XCTAssertNotNil(connected["modes"] as? [[String: Any]], "\(connected)")
        try rig.unplug(third)
        _ = try wait(for: "output-disconnected", "for \(third)") { $0["name"] as? String == third }

        let missed = try wait(for: "refreshes-missed", "on \(first)") { $0["output"] as? String == first }
        XCTAssertGreaterThanOrEqual(missed["missed"] as? Int ?? 0, 1, "\(missed)")
        XCTAssertTrue(events(in: quiet.stdout).allSatisfy { $0.name != "refreshes-missed" }, quiet.stdout)
        XCTAssertTrue(events(in: quiet.stdout).contains { $0.name == "content-started" }, "the other events reach it: \(quiet.stdout)")

        let finished = api.stop()
        XCTAssertEqual(finished.status, 0, finished.stderr)
        // glout ends each stream as it stops: curl sees a whole response.
        for curl in [stream, quiet] {
            let done = curl.wait(timeout: 20)
            XCTAssertEqual(done.status, 0, "curl: \(done.stderr)")
        }
    }
}

