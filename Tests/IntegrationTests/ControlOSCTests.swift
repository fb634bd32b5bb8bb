import Foundation
import XCTest
@testable import glout

/// The control API over OSC (--osc) on the release binary: liblo-tools' oscsend drives it
/// as a show controller would, every message is answered to its sender, malformed packets
/// by the thousand change nothing, and --osc-allow keeps other senders out.
final class ControlOSCTests: SharedSwayTestCase {
    /// OSC messages of s and i arguments, made and read (Python).
    private static let codec = """
        import json, socket, struct, sys, time
        def pad(b): return b + b'\\0' * (4 - len(b) % 4)
        def message(path, args):
            tags, data = ',', b''
            for a in args:
                kind, value = a.split(':', 1)
                if kind == 's': tags += 's'; data += pad(value.encode())
                else: tags += 'i'; data += struct.pack('>i', int(value))
            return pad(path.encode()) + pad(tags.encode()) + data
        def reply(data):
            path_end = data.index(b'\\0'); pos = (path_end // 4 + 1) * 4
            tags_end = data.index(b'\\0', pos); tags = data[pos:tags_end].decode(); pos = (tags_end // 4 + 1) * 4
            values = []
            for t in tags[1:]:
                if t == 'i': values.append(struct.unpack('>i', data[pos:pos + 4])[0]); pos += 4
                else:
                    end = data.index(b'\\0', pos); values.append(data[pos:end].decode()); pos = (end // 4 + 1) * 4
            return data[:path_end].decode(), values

        """

    /// A UDP client in Python that sends an OSC message (`PORT PATH [s:TEXT|i:N]...`, or
    /// `PORT raw HEX`), again each second until it is answered (for at most 30 s), and
    /// prints the answer as JSON: [address, request's address, status, body].
    private static let client = codec + """
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.settimeout(1)
        port = int(sys.argv[1])
        packet = bytes.fromhex(sys.argv[3]) if sys.argv[2] == 'raw' else message(sys.argv[2], sys.argv[3:])
        # UDP may drop a datagram (a receive buffer full after a flood): asked again each second.
        for attempt in range(30):
            s.sendto(packet, ('127.0.0.1', port))
            try:
                data = s.recv(65536)
                break
            except socket.timeout:
                continue
        address, values = reply(data)
        print(json.dumps([address] + values))
        """

    /// Asks /glout/events ,i SECONDS [EXTRA...] from its own port and prints, one JSON line
    /// each, every datagram that comes back (the answer, then the events) for SECONDS.
    private static let listener = codec + """
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.settimeout(0.5)
        port, seconds = int(sys.argv[1]), int(sys.argv[2])
        ask = message('/glout/events', ['i:' + sys.argv[2]] + sys.argv[3:])
        end = time.monotonic() + seconds
        answered = False
        while time.monotonic() < end:
            if not answered: s.sendto(ask, ('127.0.0.1', port))
            try:
                data = s.recv(65536)
            except socket.timeout:
                continue
            address, values = reply(data)
            answered = answered or address == '/glout/reply'
            print(json.dumps([address] + values), flush=True)
        """

    /// glout with --osc 0 and --http 0, and both ports from its log.
    private func start(_ arguments: [String]) throws -> (glout: Child, osc: Int, http: String) {
        let glout = try sway.glout(["run", "--osc", "0", "--http", "0"] + arguments)
        var osc = 0, http = ""
        try waitUntil("glout says where OSC and HTTP listen; stderr:\n\(glout.stderr)") {
            guard glout.isRunning else { throw HarnessError("glout ended: \(glout.stderr)") }
            for line in glout.stderr.split(separator: "\n") {
                if let range = line.range(of: "OSC on udp://127.0.0.1:") {
                    osc = Int(line[range.upperBound...].prefix { $0.isNumber }) ?? 0
                }
                if let start = line.range(of: "control API on http://"), let end = line.range(of: "/api/v1/") {
                    http = String(line[start.upperBound..<end.lowerBound])
                }
            }
            return osc > 0 && !http.isEmpty
        }
        return (glout, osc, http)
    }

    /// oscsend localhost PORT PATH TYPES ARGS...
    private func oscsend(_ port: Int, _ path: String, _ types: String = "", _ arguments: String...) throws {
        let sent = try Child("/usr/bin/oscsend", ["localhost", "\(port)", path] + (types.isEmpty ? [] : [types]) + arguments).wait()
        XCTAssertEqual(sent.status, 0, "oscsend \(path): \(sent.stderr)")
    }

    /// The answer to one message from our own client: [address, status, body].
    private func ask(_ port: Int, _ arguments: [String]) throws -> (address: String, status: Int, body: [String: Any]) {
        let asked = try Child("/usr/bin/python3", ["-c", ControlOSCTests.client, "\(port)"] + arguments).wait(timeout: 40)
        guard asked.status == 0, let reply = try JSONSerialization.jsonObject(with: Data(asked.stdout.utf8)) as? [Any],
              reply.count == 4 else {
            throw HarnessError("no OSC reply to \(arguments): \(asked.stdout) \(asked.stderr)")
        }
        let body = (try? JSONSerialization.jsonObject(with: Data((reply[3] as? String ?? "").utf8))) as? [String: Any] ?? [:]
        return (reply[1] as? String ?? "", reply[2] as? Int ?? 0, body)
    }

    /// The HTTP status resource, to see what OSC changed.
    private func status(_ http: String) throws -> [String: Any] {
        let got = try Child("/usr/bin/curl", ["-sS", "--max-time", "30", "http://\(http)/api/v1/status"]).wait(timeout: 40)
        return (try? JSONSerialization.jsonObject(with: Data(got.stdout.utf8))) as? [String: Any] ?? [:]
    }

    private func content(_ http: String, _ output: String) throws -> String? {
        let outputs = try status(http)["outputs"] as? [[String: Any]] ?? []
        let entry = outputs.first { $0["name"] as? String == output }
        return (entry?["content"] as? [String: Any])?["file"] as? String
    }

    func test_oscsendDrivesTheScreensAndEveryMessageIsAnsweredToItsSender() throws {
        let green = folder.appendingPathComponent("green.frag").path
        try """
            #version 300 es
            precision highp float;
            out vec4 fragColor;
            void main() { fragColor = vec4(0.0, 0.95, 0.0, 1.0); }
            """.write(toFile: green, atomically: true, encoding: .utf8)
        let (glout, port, http) = try start(["--layout", "independent"])
        try sway.waitForGlout(on: ["HEADLESS-1", "HEADLESS-2"], frozen: false)

        try oscsend(port, "/glout/outputs/HEADLESS-2/content", "s", green)
        try waitUntil("HEADLESS-2 shows the shader oscsend named") { try content(http, "HEADLESS-2") == green }
        // Status names it from the frame that took it, which the screen shows once presented.
        try waitUntil("green on HEADLESS-2's screen") {
            let screen = try sway.screenshot("HEADLESS-2").pixel(400, 300)
            return screen.g > 200 && screen.r < 30 && screen.b < 30
        }

        try oscsend(port, "/glout/layout", "s", "mirror")
        try waitUntil("HEADLESS-2 mirrors the control view") { isControlView(try sway.screenshot("HEADLESS-2")) }
        try oscsend(port, "/glout/layout", "s", "independent")
        try oscsend(port, "/glout/primary", "s", "HEADLESS-2")
        try waitUntil("HEADLESS-2 is the primary") { try status(http)["primary"] as? String == "HEADLESS-2" }
        try oscsend(port, "/glout/identify", "i", "1")
        try waitUntil("HEADLESS-1 shows its name") { IdentificationTests.showsBand(try sway.screenshot("HEADLESS-1")) }

        // Answers go back to the sender: the request's address, the status, the JSON.
        let answer = try ask(port, ["/glout/status"])
        XCTAssertEqual(answer.address, "/glout/status")
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual((answer.body["outputs"] as? [[String: Any]])?.count, 2, "\(answer.body)")
        XCTAssertEqual(try ask(port, ["/glout/outputs"]).status, 200)
        XCTAssertEqual(try ask(port, ["/glout/layout", "s:mirror"]).body["layout"] as? String, "mirror")
        XCTAssertEqual(try ask(port, ["/glout/nothing"]).status, 404)
        XCTAssertEqual(try ask(port, ["/glout/layout", "i:3"]).status, 400)
        XCTAssertEqual(try ask(port, ["/glout/content", "s:/no/such.png"]).status, 404)
        let garbage = try ask(port, ["raw", "00010203"])
        XCTAssertEqual(garbage.status, 400)
        XCTAssertFalse((garbage.body["error"] as? [String: Any])?["message"] as? String == nil, "\(garbage)")

        glout.signal(SIGTERM)
        let finished = glout.wait()
        XCTAssertEqual(finished.status, 0, finished.stderr)
    }

    /// /glout/events: a sender that asks gets the event stream's events at its own port as
    /// /glout/event ,ss (name, JSON); one whose threshold is higher gets no refreshes-missed.
    func test_aSenderThatAsksGetsTheEvents() throws {
        let red = folder.appendingPathComponent("red.png").path
        try Bitmap(width: 16, height: 16, background: .init(255, 0, 0)).writePNG(to: red)
        // HEADLESS-1 stalled: its refreshes are missed every second.
        let (glout, port, _) = try start(["--layout", "independent", "--stall", "HEADLESS-1=40"])
        try sway.waitForGlout(on: ["HEADLESS-1", "HEADLESS-2"], frozen: false)
        let every = try Child("/usr/bin/python3", ["-c", ControlOSCTests.listener, "\(port)", "60"])
        let fewer = try Child("/usr/bin/python3", ["-c", ControlOSCTests.listener, "\(port)", "60", "i:1000000"])
        func lines(_ child: Child) -> [[Any]] {
            child.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [Any] }
        }
        func events(_ child: Child, _ name: String) -> [[String: Any]] {
            lines(child).filter { $0.first as? String == "/glout/event" && $0.count == 3 && $0[1] as? String == name }
                .compactMap { (try? JSONSerialization.jsonObject(with: Data(($0[2] as? String ?? "").utf8))) as? [String: Any] }
        }
        try waitUntil("both listeners are answered: \(every.stdout) \(fewer.stdout) \(every.stderr)") {
            [every, fewer].allSatisfy { child in lines(child).contains { $0.first as? String == "/glout/reply" && $0[2] as? Int == 200 } }
        }
        try oscsend(port, "/glout/outputs/HEADLESS-2/content", "s", red)
        try waitUntil("content-started reaches both: \(every.stdout.suffix(2000))") {
            [every, fewer].allSatisfy { events($0, "content-started").contains { $0["file"] as? String == red } }
        }
        try waitUntil("refreshes-missed on HEADLESS-1 reaches the first") {
            events(every, "refreshes-missed").contains { $0["output"] as? String == "HEADLESS-1" }
        }
        XCTAssertTrue(events(fewer, "refreshes-missed").isEmpty, fewer.stdout)
        XCTAssertEqual(try ask(port, ["/glout/events", "s:forever"]).status, 400)

        glout.signal(SIGTERM)
        let finished = glout.wait()
        XCTAssertEqual(finished.status, 0, finished.stderr)
        for child in [every, fewer] { child.signal(SIGTERM) }
    }

    /// A fuzzer's worth of packets: random bytes, valid messages with bytes flipped, cut
    /// or grown, random type tags, bundles with wrong sizes. None crashes or stalls glout,
    /// nothing changes, and a valid message is answered after them.
    func test_malformedOSCPacketsChangeNothing() throws {
        let (glout, port, http) = try start(["--layout", "independent"])
        try sway.waitForGlout(on: ["HEADLESS-1", "HEADLESS-2"], frozen: false)
        let before = try status(http)
        let fuzz = try Child("/usr/bin/python3", ["-c", """
            import random, socket, struct, sys
            random.seed(int(sys.argv[2]))
            def pad(b): return b + b'\\0' * (4 - len(b) % 4)
            valid = [pad(b'/glout/status') + pad(b','), pad(b'/glout/layout') + pad(b',s') + pad(b'mirror'),
                     pad(b'/glout/content') + pad(b',ss') + pad(b'HEADLESS-2') + pad(b'/no/such.png'),
                     pad(b'/glout/identify') + pad(b',i') + struct.pack('>i', 1)]
            def bundle(elements, size=None):
                out = b'#bundle\\0' + struct.pack('>Q', 1)
                for e in elements: out += struct.pack('>i', len(e) if size is None else size) + e
                return out
            def mutate(p):
                p = bytearray(p)
                kind = random.randrange(6)
                if kind == 0 and p:
                    for _ in range(random.randint(1, 8)): p[random.randrange(len(p))] ^= 1 << random.randrange(8)
                elif kind == 1: p = p[:random.randrange(len(p) + 1)]
                elif kind == 2: p += bytes(random.randrange(256) for _ in range(random.randrange(64)))
                elif kind == 3: p = bytearray(pad(b'/glout/status') + pad(b',' + bytes(random.choice(b'ifsbhdtcmTFNI[]') for _ in range(random.randrange(12)))) + bytes(random.randrange(256) for _ in range(random.randrange(48))))
                elif kind == 4: p = bytearray(bundle([bytes(p)], size=random.choice([0, -4, 3, 4, len(p) + 4, 1 << 30])))
                else: p = bytearray(bundle([bytes(p)] * random.randrange(1, 80)))
                return bytes(p)
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            s.setblocking(False)
            sent = replies = 0
            for i in range(int(sys.argv[3])):
                if i % 3 == 0: packet = bytes(random.randrange(256) for _ in range(random.randrange(200)))
                else: packet = mutate(random.choice(valid))
                if b'mirror' in packet or b'identify' in packet: continue
                try:
                    s.sendto(packet, ('127.0.0.1', int(sys.argv[1]))); sent += 1
                except OSError: pass
                while True:
                    try: s.recv(65536); replies += 1
                    except BlockingIOError: break
            print(sent, replies)
            """, "\(port)", "20261206", "6000"]).wait(timeout: 300)
        XCTAssertEqual(fuzz.status, 0, fuzz.stderr)
        print("OSC fuzz: packets sent, replies read: \(fuzz.stdout)")
        XCTAssertTrue(glout.isRunning, glout.stderr)
        // A valid message after them is answered, and nothing changed.
        let answer = try ask(port, ["/glout/status"])
        XCTAssertEqual(answer.status, 200)
        let after = try status(http)
        XCTAssertEqual(after["layout"] as? String, before["layout"] as? String)
        XCTAssertEqual(after["primary"] as? String, before["primary"] as? String)
        XCTAssertNil(try content(http, "HEADLESS-2"))
        glout.signal(SIGTERM)
        let finished = glout.wait()
        XCTAssertEqual(finished.status, 0, finished.stderr)
        XCTAssertFalse(finished.stderr.contains("control: "), "a fuzzed packet changed something:\n\(finished.stderr)")
    }

    /// Off loopback, senders outside --osc-allow are not answered, and glout says so once.
    func test_oscAllowKeepsOtherSendersOut() throws {
        let refused = try sway.glout(["run", "--osc", "0.0.0.0:0"]).wait()
        XCTAssertEqual(refused.status, 2, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("--osc-allow"), refused.stderr)

        let root = folder.path
        let glout = try sway.glout(["run", "--osc", "0.0.0.0:0", "--osc-allow", "10.0.0.0/8", "--content-root", root])
        var port = 0
        try waitUntil("glout says where OSC listens; stderr:\n\(glout.stderr)") {
            guard let line = glout.stderr.split(separator: "\n").first(where: { $0.contains("OSC on udp://0.0.0.0:") }),
                  let range = line.range(of: "OSC on udp://0.0.0.0:") else { return false }
            port = Int(line[range.upperBound...].prefix { $0.isNumber }) ?? 0
            return true
        }
        try oscsend(port, "/glout/layout", "s", "mirror")
        try waitUntil("glout says it ignored 127.0.0.1") { glout.stderr.contains("OSC: ignoring 127.0.0.1") }
        XCTAssertFalse(glout.stderr.contains("control: layout"), glout.stderr)
        glout.signal(SIGTERM)
        XCTAssertEqual(glout.wait().status, 0)

        let allowed = try sway.glout(["run", "--osc", "0.0.0.0:0", "--osc-allow", "127.0.0.0/8", "--content-root", root])
        try waitUntil("glout says where OSC listens") { allowed.stderr.contains("OSC on udp://0.0.0.0:") }
        let line = allowed.stderr.split(separator: "\n").first { $0.contains("OSC on udp://0.0.0.0:") } ?? ""
        let allowedPort = line.range(of: "OSC on udp://0.0.0.0:").map { Int(line[$0.upperBound...].prefix { $0.isNumber }) ?? 0 } ?? 0
        XCTAssertEqual(try ask(allowedPort, ["/glout/status"]).status, 200)
        // Under the root: a path out of it is refused.
        XCTAssertEqual(try ask(allowedPort, ["/glout/content", "s:/etc/passwd"]).status, 403)
        allowed.signal(SIGTERM)
        XCTAssertEqual(allowed.wait().status, 0)
    }
}
