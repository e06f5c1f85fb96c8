import Glibc
import SplitWire
import Testing
@testable import SplitServer

/// A viewer that never reads is throttled (its later lines wait unread in the kernel) and its
/// pushes are coalesced; a well-behaved client changing the scenes it watches must still get
/// every answer, and the viewer's waiting lines are answered once it reads.
///
/// A client harness can seem to show the opposite: a viewer's `sendall` with a timeout waits
/// on poll(), which on AF_UNIX reports POLLOUT only while the sender's unread bytes (skb
/// truesize) are under a quarter of its SO_SNDBUF, ~70 unread attach lines, so the harness
/// hangs while the daemon has answered every request.
@Suite struct NeverReadingViewerTests {
    @Test func aWriterIsAnsweredWhileANeverReadingViewerOfItsScenesIsThrottled() throws {
        // Small limits so that the viewer passes the soft limit within a few scenes.
        let daemon = try TestDaemon {
            $0.outputSoftLimit = 16 << 10
            $0.coalescesSlowReaderPushes = true
            $0.coreLimits.maxStackDepth = 16
        }
        defer { daemon.stop() }
        let writer = try daemon.connect()
        let viewer = try TestClient(path: daemon.socketPath, receiveBuffer: 4096)
        let scenes = 60
        var attachesSent = 0
        for index in 0..<scenes {
            let scene = JSONValue.string("deep-\(index)")
            let created = try writer.request([
                "op": "scene.create", "scene": scene, "device": "ipad-pro-12.9",
                "config": ["roots": ["primary": "inbox", "secondary": "detail"]],
            ])
            #expect(created.isOK)
            let attach = #"{"id":\#(index),"op":"scene.attach","scene":"deep-\#(index)","role":"viewer"}"# + "\n"
            if viewer.sendWithoutWaiting(attach) { attachesSent += 1 }
            for column in ["primary", "secondary"] {
                var depth = 1
                while true {
                    // `request` fails unless this request's own answer comes next.
                    let pushed = try writer.request([
                        "op": "intent", "scene": scene,
                        "intent": ["kind": "push", "column": .string(column), "vc": .string("vc\(depth)")],
                    ])
                    guard pushed.isOK else {
                        #expect(pushed.errorCode == "limit_exceeded")
                        break
                    }
                    depth += 1
                }
                #expect(depth > 1)
            }
            for width in [375, 1366] {
                let resized = try writer.request([
                    "op": "resize", "scene": scene, "width": .int(Int64(width)), "height": 1024,
                ])
                #expect(resized.isOK || resized.errorCode == "limit_exceeded")
            }
        }
        // The scenario exercised backpressure: some of the viewer's attach lines were not read.
        let attached = try #require(try writer.request(["op": "stats"])["attachments"]?.int)
        #expect(attachesSent == scenes)
        #expect(attached < attachesSent)
        // Once the viewer reads, each attach it sent gets exactly one answer, in order.
        var answered: [Int] = []
        while answered.count < attachesSent, let line = try viewer.readLine(timeout: 5_000) {
            let message = try JSONParser.parse(line)
            if let id = message["id"]?.int {
                #expect(message.isOK)
                answered.append(id)
            }
        }
        #expect(answered == Array(0..<attachesSent))
        let after = try #require(try writer.request(["op": "stats"])["attachments"]?.int)
        #expect(after == scenes)
    }
}
