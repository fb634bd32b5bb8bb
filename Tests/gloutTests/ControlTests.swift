import Foundation
import XCTest
@testable import glout

/// The control API's pure parts: routes and bodies, listen addresses, the bearer token,
/// the content root, and the rule that an address off loopback needs both.
final class ControlTests: XCTestCase {
    private func command(_ method: String, _ path: String, _ body: String = "") throws(ControlError) -> ControlCommand {
        try ControlRoutes.command(method: method, path: path, body: Array(body.utf8))
    }

    private func refusal(_ method: String, _ path: String, _ body: String = "") -> ControlError? {
        do {
            let command = try command(method, path, body)
            XCTFail("\(method) \(path) \(body) was taken as \(command)")
            return nil
        } catch {
            return error
        }
    }

    func test_eachResourceIsItsCommand() throws {
        XCTAssertEqual(try command("GET", "/api/v1/outputs"), .outputs)
        XCTAssertEqual(try command("GET", "/api/v1/status"), .status)
        XCTAssertEqual(try command("GET", "/api/v1/openapi.json"), .openAPI)
        XCTAssertEqual(try command("PUT", "/api/v1/content", #"{"file": "a.png"}"#), .setContent(output: nil, file: "a.png"))
        XCTAssertEqual(try command("PUT", "/api/v1/outputs/DP-1/content", #"{"file":"/x/b.frag"}"#),
                       .setContent(output: "DP-1", file: "/x/b.frag"))
        XCTAssertEqual(try command("PUT", "/api/v1/layout", #"{"layout":"mirror"}"#), .setLayout(.mirror))
        XCTAssertEqual(try command("PUT", "/api/v1/primary", #"{"output":"HDMI-A-1"}"#), .setPrimary("HDMI-A-1"))
        XCTAssertEqual(try command("PUT", "/api/v1/show", #"{"file":"shows/lobby.json"}"#), .setShow("shows/lobby.json"))
        XCTAssertEqual(try command("POST", "/api/v1/identify"), .identify)
        XCTAssertEqual(try command("POST", "/api/v1/identify", "{}"), .identify)
        XCTAssertEqual(try command("GET", "/api/v1/outputs/DP-1/screenshot"), .screenshot("DP-1"))
    }

    func test_anUnknownPathIs404AndAWrongMethod405() {
        for path in ["/", "/api", "/api/v1", "/api/v1/", "/api/v2/status", "/api/v1/status/", "/api/v1/outputs//content",
                     "/api/v1/outputs/DP-1", "/api/v1/outputs/DP-1/content/x", "/api/v1/../v1/status"] {
            XCTAssertEqual(refusal("GET", path)?.status, 404, path)
        }
        XCTAssertEqual(refusal("POST", "/api/v1/status")?.status, 405)
        XCTAssertEqual(refusal("GET", "/api/v1/content")?.status, 405)
        XCTAssertEqual(refusal("DELETE", "/api/v1/layout")?.status, 405)
        XCTAssertEqual(refusal("GET", "/api/v1/identify")?.status, 405)
        XCTAssertEqual(refusal("PUT", "/api/v1/outputs/DP-1/screenshot")?.status, 405)
        XCTAssertEqual(refusal("GET", "/api/v1/outputs//screenshot")?.status, 404)
    }

    func test_aBodyThatIsNotTheResourcesIs400AndSaysWhy() {
        let cases: [(String, String)] = [
            ("", "not JSON (it is empty)"),
            ("{", "not JSON"),
            ("[]", "must be a JSON object"),
            ("\"a.png\"", "must be a JSON object"),
            ("{}", "file is missing"),
            (#"{"file": 3}"#, "{\"file\": STRING}"),
            (#"{"file": null}"#, "{\"file\": STRING}"),
            (#"{"file": ""}"#, "1 to 4096 bytes"),
            (#"{"file": "a\u0000b"}"#, "no NUL"),
            (#"{"file": "a.png", "loop": true}"#, "unknown member \"loop\""),
            ("{\"file\": \"" + String(repeating: "x", count: 4097) + "\"}", "1 to 4096 bytes"),
        ]
        for (body, reason) in cases {
            let error = refusal("PUT", "/api/v1/content", body)
            XCTAssertEqual(error?.status, 400, body)
            XCTAssertTrue(error?.message.contains(reason) ?? false, "\(body): '\(error?.message ?? "")' does not say '\(reason)'")
        }
        XCTAssertTrue(refusal("PUT", "/api/v1/layout", #"{"layout":"grid"}"#)?.message.contains("mirror") ?? false)
        XCTAssertEqual(refusal("POST", "/api/v1/identify", #"{"seconds": 3}"#)?.status, 400)
    }

    func test_aCueIsAnInstantAndItsActions() throws {
        // Exact in binary, so that its JSON text reads back as the same double on every Foundation.
        let soon = Double(Int(Date().timeIntervalSince1970) + 10) + 0.25
        XCTAssertEqual(try command("POST", "/api/v1/cues", #"{"at": \#(soon), "actions": [{"file": "a.png"}, {"file": "b.frag", "output": "DP-1"}]}"#),
                       .addCue(at: soon, actions: [CueAction(output: nil, file: "a.png"), CueAction(output: "DP-1", file: "b.frag")]))
        // A layout and a primary at the instant, with a file or on their own.
        XCTAssertEqual(try command("POST", "/api/v1/cues", #"{"at": \#(soon), "actions": [{"layout": "mirror"}, {"primary": "DP-1"}, {"file": "a.png"}]}"#),
                       .addCue(at: soon, actions: [CueAction(output: nil, file: "a.png")], changes: CueChanges(layout: .mirror, primary: "DP-1")))
        XCTAssertEqual(try command("POST", "/api/v1/cues", #"{"at": \#(soon), "actions": [{"layout": "span"}]}"#),
                       .addCue(at: soon, actions: [], changes: CueChanges(layout: .span)))
        for (body, reason) in [(#"[{"layout": "grid"}]"#, "none of"), (#"[{"layout": "span"}, {"layout": "mirror"}]"#, "second time"),
                               (#"[{"primary": "A"}, {"primary": "B"}]"#, "second time"), (#"[{"primary": 3}]"#, "an output's name"),
                               (#"[{"primary": ""}]"#, "1 to 4096 bytes"), (#"[{"layout": "span", "primary": "A"}]"#, "is not"),
                               (#"[{"mode": "fast"}]"#, "is not")] {
            let error = refusal("POST", "/api/v1/cues", #"{"at": \#(soon), "actions": \#(body)}"#)
            XCTAssertEqual(error?.status, 400, body)
            XCTAssertTrue(error?.message.contains(reason) ?? false, "\(body): \(error?.message ?? "")")
        }
        XCTAssertEqual(CueChanges(layout: .mirror, primary: "DP-1").json.count, 2)
        XCTAssertEqual(try command("GET", "/api/v1/cues"), .listCues)
        XCTAssertEqual(try command("DELETE", "/api/v1/cues"), .cancelCues(nil))
        XCTAssertEqual(try command("DELETE", "/api/v1/cues/7"), .cancelCues(7))
        XCTAssertEqual(refusal("PUT", "/api/v1/cues")?.status, 405)
        XCTAssertEqual(refusal("GET", "/api/v1/cues/7")?.status, 405)
        for id in ["0", "-1", "+3", "x", ""] { XCTAssertEqual(refusal("DELETE", "/api/v1/cues/" + id)?.status, 404, id) }
        let bad = [#"{"at": true, "actions": [{"file": "a"}]}"#, #"{"at": "soon", "actions": [{"file": "a"}]}"#,
                   #"{"at": -1, "actions": [{"file": "a"}]}"#, #"{"at": 1e300, "actions": [{"file": "a"}]}"#,
                   #"{"at": \#(soon), "actions": []}"#, #"{"at": \#(soon), "actions": [{"file": 3}]}"#,
                   #"{"at": \#(soon), "actions": [{"file": "a", "loop": true}]}"#, #"{"at": \#(soon)}"#,
                   #"{"at": \#(soon), "actions": [{"file": "a", "output": ""}]}"#, #"{"at": \#(soon), "actions": {}}"#,
                   #"{"at": \#(soon), "actions": [{"file": "a"}], "repeat": 2}"#,
                   #"{"at": \#(soon), "actions": ["# + Array(repeating: #"{"file": "a"}"#, count: 65).joined(separator: ",") + "]}"]
        for body in bad { XCTAssertEqual(refusal("POST", "/api/v1/cues", body)?.status, 400, body) }
        XCTAssertEqual(try OSCRoutes.command(path: "/glout/cue", arguments: [.double(soon), .string("a.png")]),
                       .addCue(at: soon, actions: [CueAction(output: nil, file: "a.png")]))
        XCTAssertEqual(try OSCRoutes.command(path: "/glout/cue", arguments: [.integer(Int64(soon)), .string("DP-1"), .string("a.png")]),
                       .addCue(at: Double(Int64(soon)), actions: [CueAction(output: "DP-1", file: "a.png")]))
        XCTAssertEqual(try OSCRoutes.command(path: "/glout/cue/layout", arguments: [.double(soon), .string("mirror")]),
                       .addCue(at: soon, actions: [], changes: CueChanges(layout: .mirror)))
        XCTAssertEqual(try OSCRoutes.command(path: "/glout/cue/primary", arguments: [.integer(Int64(soon)), .string("DP-1")]),
                       .addCue(at: Double(Int64(soon)), actions: [], changes: CueChanges(primary: "DP-1")))
        for (path, arguments) in [("/glout/cue/layout", [OSCArgument.double(soon), .string("grid")]),
                                  ("/glout/cue/layout", [.double(soon)]), ("/glout/cue/primary", [.string("DP-1")]),
                                  ("/glout/cue/primary", [.double(-1), .string("DP-1")]), ("/glout/cue/primary", [.double(soon), .string("")])] {
            XCTAssertThrowsError(try OSCRoutes.command(path: path, arguments: arguments), "\(path) \(arguments)")
        }
        XCTAssertEqual(try OSCRoutes.command(path: "/glout/cues", arguments: []), .listCues)
        XCTAssertEqual(try OSCRoutes.command(path: "/glout/cues/cancel", arguments: []), .cancelCues(nil))
        XCTAssertEqual(try OSCRoutes.command(path: "/glout/cues/cancel", arguments: [.integer(4)]), .cancelCues(4))
        for arguments: [OSCArgument] in [[.real(soon), .string("a")], [.double(soon)], [.string("a")], [.double(-5), .string("a")],
                                         [.double(soon), .string("a"), .string("b"), .string("c")]] {
            XCTAssertThrowsError(try OSCRoutes.command(path: "/glout/cue", arguments: arguments), "\(arguments)")
        }
    }

    func test_errorsAreJSONWithTheirStatus() throws {
        let reply = ControlReply.error(ControlError(404, "no output named \"X\""))
        XCTAssertEqual(reply.status, 404)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(reply.body)) as? [String: [String: Any]])
        XCTAssertEqual(object["error"]?["status"] as? Int, 404)
        XCTAssertEqual(object["error"]?["message"] as? String, "no output named \"X\"")
    }

    func test_clientTextIsQuotedWithControlsEscapedAndCut() {
        XCTAssertEqual(ControlRoutes.quoted("a\"b\\c"), #""a\"b\\c""#)
        XCTAssertEqual(ControlRoutes.quoted("\u{1b}[2J\n\u{9b}\u{202e}"), #""\x1b[2J\n\u{9b}\u{202e}""#)
        let long = ControlRoutes.quoted(String(repeating: "é", count: 300))
        XCTAssertTrue(long.hasSuffix("...\""))
        XCTAssertEqual(long.unicodeScalars.count, 200 + 5)
    }

    func test_listenAddresses() throws {
        XCTAssertEqual(ListenAddress("8080"), ListenAddress("127.0.0.1:8080"))
        XCTAssertEqual(ListenAddress("0")?.port, 0)
        XCTAssertEqual(ListenAddress("[::1]:9000")?.description, "[::1]:9000")
        XCTAssertEqual(ListenAddress("0.0.0.0:80")?.host, "0.0.0.0")
        XCTAssertTrue(try XCTUnwrap(ListenAddress("127.0.0.2:1")).isLoopback)
        XCTAssertTrue(try XCTUnwrap(ListenAddress("[::1]:1")).isLoopback)
        XCTAssertFalse(try XCTUnwrap(ListenAddress("0.0.0.0:1")).isLoopback)
        XCTAssertFalse(try XCTUnwrap(ListenAddress("[::]:1")).isLoopback)
        XCTAssertFalse(try XCTUnwrap(ListenAddress("192.168.1.2:1")).isLoopback)
        for bad in ["", ":", "65536", "-1", "+80", "localhost:80", "::1:80", "[::1]80", "[::1", "1.2.3:80", "80 ", "[x]:1"] {
            XCTAssertNil(ListenAddress(bad), bad)
        }
    }

    func test_theTokenIsTheWholeBearerValue() throws {
        let token = BearerToken("0123456789abcdef0123")
        XCTAssertTrue(token.accepts(authorization: "Bearer 0123456789abcdef0123"))
        XCTAssertFalse(token.accepts(authorization: nil))
        XCTAssertFalse(token.accepts(authorization: "0123456789abcdef0123"))
        XCTAssertFalse(token.accepts(authorization: "Bearer 0123456789abcdef012"))
        XCTAssertFalse(token.accepts(authorization: "Bearer 0123456789abcdef01234"))
        XCTAssertFalse(token.accepts(authorization: "Bearer 0123456789abcdef0124"))
        XCTAssertFalse(token.accepts(authorization: "Basic 0123456789abcdef0123"))
    }

    func test_aTokenFileHoldsOnePrintableToken() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glout-token-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func file(_ text: String) throws -> String {
            let url = folder.appendingPathComponent(UUID().uuidString)
            try Data(text.utf8).write(to: url)
            return url.path
        }
        XCTAssertTrue(try BearerToken(file: file("abcdefghijklmnop\n")).accepts(authorization: "Bearer abcdefghijklmnop"))
        for bad in ["short\n", "with a space inside it\n", String(repeating: "a", count: 4097), "", "abcdefghijklmnop\nq"] {
            XCTAssertThrowsError(try BearerToken(file: file(bad)), bad)
        }
        XCTAssertThrowsError(try BearerToken(file: folder.appendingPathComponent("none").path))
    }

    func test_theContentRootKeepsPathsUnderIt() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("glout-root-\(getpid())")
        let root = base.appendingPathComponent("root")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("sub"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: base) }
        try Data("x".utf8).write(to: root.appendingPathComponent("sub/a.png"))
        try Data("y".utf8).write(to: base.appendingPathComponent("secret.png"))
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("out.png").path,
                                                   withDestinationPath: base.appendingPathComponent("secret.png").path)
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("in.png").path,
                                                   withDestinationPath: "sub/a.png")
        let contentRoot = try ContentRoot(root.path)
        let real = try XCTUnwrap(contentRoot.path)
        XCTAssertEqual(try contentRoot.resolve("sub/a.png"), real + "/sub/a.png")
        XCTAssertEqual(try contentRoot.resolve("in.png"), real + "/sub/a.png")
        func status(_ name: String) -> Int? {
            do { _ = try contentRoot.resolve(name); return nil } catch { return error.status }
        }
        XCTAssertEqual(status("../secret.png"), 403)
        XCTAssertEqual(status("sub/../../secret.png"), 403)
        XCTAssertEqual(status(base.appendingPathComponent("secret.png").path), 403)
        XCTAssertEqual(status("out.png"), 403)
        XCTAssertEqual(status("none.png"), 404)
        // Without a root, a path is the client's to choose (loopback only).
        XCTAssertEqual(try ContentRoot(nil).resolve("/any/where.png"), "/any/where.png")
        XCTAssertThrowsError(try ContentRoot(root.appendingPathComponent("sub/a.png").path))
        XCTAssertThrowsError(try ContentRoot(base.appendingPathComponent("missing").path))
    }

    func test_anAddressOffLoopbackNeedsATokenAndARoot() throws {
        func parse(_ line: String) throws(UsageError) -> Command { try Arguments.parse(line.split(separator: " ").map(String.init)) }
        guard case .run(let options) = try parse("run --http 8080") else { return XCTFail("not run") }
        XCTAssertEqual(options.http, ListenAddress("127.0.0.1:8080"))
        for line in ["run --http 0.0.0.0:8080", "run --http 0.0.0.0:8080 --http-token-file /t",
                     "run --http 0.0.0.0:8080 --content-root /srv", "run --http-token-file /t", "run --content-root /srv",
                     "run --http localhost:80", "run --http 70000", "outputs --http 8080"] {
            XCTAssertThrowsError(try parse(line), line)
        }
        guard case .run(let open) = try parse("run --http 0.0.0.0:8080 --http-token-file /t --content-root /srv") else {
            return XCTFail("not run")
        }
        XCTAssertEqual(open.httpTokenFile, "/t")
        XCTAssertEqual(open.contentRoot, "/srv")
    }

    func test_eachOSCAddressIsItsCommand() throws {
        func command(_ path: String, _ arguments: [OSCArgument] = []) throws(ControlError) -> ControlCommand {
            try OSCRoutes.command(path: path, arguments: arguments)
        }
        XCTAssertEqual(try command("/glout/outputs"), .outputs)
        XCTAssertEqual(try command("/glout/status"), .status)
        XCTAssertEqual(try command("/glout/content", [.string("a.png")]), .setContent(output: nil, file: "a.png"))
        XCTAssertEqual(try command("/glout/content", [.string("DP-1"), .string("a.png")]), .setContent(output: "DP-1", file: "a.png"))
        XCTAssertEqual(try command("/glout/outputs/DP-1/content", [.string("b.frag")]), .setContent(output: "DP-1", file: "b.frag"))
        XCTAssertEqual(try command("/glout/layout", [.string("span")]), .setLayout(.span))
        XCTAssertEqual(try command("/glout/primary", [.string("HDMI-A-1")]), .setPrimary("HDMI-A-1"))
        XCTAssertEqual(try command("/glout/show", [.string("lobby.json")]), .setShow("lobby.json"))
        XCTAssertEqual(try command("/glout/identify"), .identify)
        XCTAssertEqual(try command("/glout/identify", [.integer(1)]), .identify)
        XCTAssertEqual(try command("/glout/identify", [.real(0)]), .identify)
    }

    func test_anUnknownOSCAddressIs404AndWrongArguments400() {
        func status(_ path: String, _ arguments: [OSCArgument] = []) -> Int? {
            do {
                let command = try OSCRoutes.command(path: path, arguments: arguments)
                XCTFail("\(path) \(arguments) was taken as \(command)")
                return nil
            } catch {
                return error.status
            }
        }
        for path in ["", "/", "/glout", "/glout/", "/glout/nothing", "/glout/outputs/", "/glout/outputs//content",
                     "/glout/outputs/DP-1", "/glout/status/x", "/other/status", "glout/status"] {
            XCTAssertEqual(status(path), 404, path)
        }
        XCTAssertEqual(status("/glout/status", [.integer(1)]), 400)
        XCTAssertEqual(status("/glout/content"), 400)
        XCTAssertEqual(status("/glout/content", [.integer(3)]), 400)
        XCTAssertEqual(status("/glout/content", [.string("")]), 400)
        XCTAssertEqual(status("/glout/content", [.string("a"), .string("b"), .string("c")]), 400)
        XCTAssertEqual(status("/glout/layout", [.string("grid")]), 400)
        XCTAssertEqual(status("/glout/primary", [.other("T")]), 400)
        XCTAssertEqual(status("/glout/identify", [.string("now")]), 400)
        XCTAssertEqual(status("/glout/identify", [.integer(1), .integer(2)]), 400)
    }

    /// A message, built and read back by liblo; a bundle's messages in order, nested too;
    /// and what is not OSC refused with a reason.
    func test_oscPacketsAndBundles() throws {
        let reply = OSCServer.encode(ControlReply.json(["layout": "mirror"]), for: "/glout/layout")
        let read = try OSCServer.decode(reply[...])
        XCTAssertEqual(read.path, OSCRoutes.replyAddress)
        XCTAssertEqual(read.arguments, [.string("/glout/layout"), .integer(200), .string(#"{"layout":"mirror"}"#)])

        func element(_ bytes: [UInt8]) -> [UInt8] {
            withUnsafeBytes(of: UInt32(bytes.count).bigEndian) { Array($0) } + bytes
        }
        let header = Array("#bundle\0".utf8) + [0, 0, 0, 0, 0, 0, 0, 1]
        let inner = header + element(reply)
        let bundle = header + element(reply) + element(inner)
        let messages = try OSCPacket.messages(in: bundle[...])
        XCTAssertEqual(messages.map { Array($0) }, [reply, reply])
        XCTAssertEqual(try OSCPacket.messages(in: header[...]).count, 0)

        func refusal(_ packet: [UInt8]) -> ControlError? {
            do {
                let messages = try OSCPacket.messages(in: packet[...])
                for message in messages { _ = try OSCServer.decode(message) }
                XCTFail("\(packet) was read")
                return nil
            } catch {
                return error
            }
        }
        XCTAssertEqual(refusal(Array("#bundl".utf8))?.status, 400)
        XCTAssertEqual(refusal(header + [0, 0, 0])?.status, 400)
        XCTAssertEqual(refusal(header + [0, 0, 0, 8, 1, 2, 3])?.status, 400)
        XCTAssertEqual(refusal(header + [0, 0, 0, 3, 1, 2, 3])?.status, 400)
        XCTAssertEqual(refusal(header + [0xff, 0xff, 0xff, 0xfc])?.status, 400)
        XCTAssertEqual(refusal(Array("/glout/status".utf8))?.status, 400, "no NUL ends the address")
        XCTAssertEqual(refusal([])?.status, 400)
        XCTAssertEqual(refusal(Array(reply.dropLast(4)))?.status, 400, "a message cut short")
        var deep = reply
        for _ in 0...OSCPacket.maximumDepth { deep = header + element(deep) }
        XCTAssertEqual(refusal(deep)?.status, 400)
        let many = header + Array(repeating: element(reply), count: OSCPacket.maximumMessages + 1).flatMap { $0 }
        XCTAssertEqual(refusal(many)?.status, 413)
    }

    func test_addressPrefixes() throws {
        let network = try XCTUnwrap(AddressPrefix("192.168.1.0/24"))
        XCTAssertTrue(network.contains([192, 168, 1, 77]))
        XCTAssertFalse(network.contains([192, 168, 2, 1]))
        XCTAssertFalse(network.contains([UInt8](repeating: 0, count: 16)))
        XCTAssertEqual(network.description, "192.168.1.0/24")
        let one = try XCTUnwrap(AddressPrefix("10.0.0.7"))
        XCTAssertTrue(one.contains([10, 0, 0, 7]))
        XCTAssertFalse(one.contains([10, 0, 0, 6]))
        XCTAssertTrue(try XCTUnwrap(AddressPrefix("0.0.0.0/0")).contains([8, 8, 8, 8]))
        let v6 = try XCTUnwrap(AddressPrefix("fd00::/8"))
        XCTAssertTrue(v6.contains([0xfd] + [UInt8](repeating: 1, count: 15)))
        XCTAssertFalse(v6.contains([0xfe] + [UInt8](repeating: 1, count: 15)))
        XCTAssertTrue(try XCTUnwrap(AddressPrefix("10.1.2.3/9")).contains([10, 127, 0, 1]))
        for bad in ["", "/", "10.0.0.0/33", "10.0.0.0/-1", "10.0.0.0/+8", "10.0.0.0/", "host/8", "::/129", "10.0.0/8"] {
            XCTAssertNil(AddressPrefix(bad), bad)
        }
    }

    func test_oscOffLoopbackNeedsAllowedSendersAndARoot() throws {
        func parse(_ line: String) throws(UsageError) -> Command { try Arguments.parse(line.split(separator: " ").map(String.init)) }
        guard case .run(let options) = try parse("run --osc 9000 --osc-allow 10.0.0.0/8 --osc-allow ::1") else {
            return XCTFail("not run")
        }
        XCTAssertEqual(options.osc, ListenAddress("127.0.0.1:9000"))
        XCTAssertEqual(options.oscAllow, [AddressPrefix("10.0.0.0/8"), AddressPrefix("::1")].compactMap { $0 })
        for line in ["run --osc 0.0.0.0:9000", "run --osc 0.0.0.0:9000 --osc-allow 10.0.0.0/8",
                     "run --osc 0.0.0.0:9000 --content-root /srv", "run --osc-allow 10.0.0.0/8", "run --osc 9000 --osc-allow x",
                     "run --content-root /srv"] {
            XCTAssertThrowsError(try parse(line), line)
        }
        XCTAssertNoThrow(try parse("run --osc 0.0.0.0:9000 --osc-allow 10.0.0.0/8 --content-root /srv"))
        XCTAssertNoThrow(try parse("run --osc 9000 --content-root /srv"))
    }
}
