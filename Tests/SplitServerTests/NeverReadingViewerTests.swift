import Glibc
import SplitWire
import Testing
@testable import SplitServer

/// A viewer that never reads is throttled (its later lines wait unread in the kernel) and its
/// pushes are coalesced; a well-behaved client changing the scenes it watches must still get
/// every answer, and the viewer's waiting lines are answered once it reads.
///
/// Issue 6 reported the opposite from Scripts/hostile's "deep" phase, but what hung there was
/// the harness: its viewer's `sendall` with a timeout waits on poll(), which on AF_UNIX reports
/// POLLOUT only while the sender's unread bytes (skb truesize) are under a quarter of its
/// SO_SNDBUF, ~70 unread attach lines: scene 80 (10 read before the throttle + 70). The
/// daemon had answered every request of the deep client.
@Suite struct NeverReadingViewerTests {
    @Test func aWriterIsAnsweredWhileANeverReadingViewerOfItsScenesIsThrottled() throws {
        // Small limits so that the viewer passes the soft limit within a few scenes.
        let daemon = try TestDaemon {
            $0.outputSoftLimit = 16 << 10
            $0.coreLimits.maxStackDepth = 16
        }
        defer { daemon.stop() }
        let writer = try daemon.connect()
        let viewer = try RawSocket(path: daemon.socketPath, receiveBuffer: 4096)
        let scenes = 60
        var attachesSent = 0
        for index in 0..<scenes {
            let scene = JSONValue.string("deep-\(index)")
            let created = try writer.request(["op": "scene.create", "scene": scene, "device": "ipad-pro-12.9",
                                              "config": ["roots": ["primary": "inbox", "secondary": "detail"]]])
            #expect(created.isOK)
            let attach = #"{"id":\#(index),"op":"scene.attach","scene":"deep-\#(index)","role":"viewer"}"# + "\n"
            if viewer.sendWithoutWaiting(attach) { attachesSent += 1 }
            for column in ["primary", "secondary"] {
                var depth = 1
                while true {
                    // `request` fails unless this request's own answer comes next.
                    let pushed = try writer.request(["op": "intent", "scene": scene,
                                                     "intent": ["kind": "push", "column": .string(column), "vc": .string("vc\(depth)")]])
                    guard pushed.isOK else {
                        #expect(pushed.errorCode == "limit_exceeded")
                        break
                    }
                    depth += 1
                }
                #expect(depth > 1)
            }
            for width in [375, 1366] {
                let resized = try writer.request(["op": "resize", "scene": scene, "width": .int(Int64(width)), "height": 1024])
                #expect(resized.isOK || resized.errorCode == "limit_exceeded")
            }
        }
        // The scenario exercised backpressure: some of the viewer's attach lines were not read.
        let attached = try #require(try writer.request(["op": "stats"])["attachments"]?.int)
        #expect(attachesSent == scenes)
        #expect(attached < attachesSent)
        // Once the viewer reads, each attach it sent gets exactly one answer, in order.
        var answered: [Int] = []
        while answered.count < attachesSent, let line = viewer.readLine(timeout: 5_000) {
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

/// A raw client socket for a peer that sends without waiting and reads only when told.
private final class RawSocket {
    private let fd: Int32
    private var buffer: [UInt8] = []

    init(path: String, receiveBuffer: Int32) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var size = receiveBuffer
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        guard var address = UnixSocketAddress(path: path),
              address.withSockaddr({ Glibc.connect(fd, $0, $1) }) == 0 else {
            Glibc.close(fd)
            throw TestFailure("connect failed: \(errno)")
        }
    }

    deinit { Glibc.close(fd) }

    /// Sends `text` if the kernel takes all of it now; false if it would have to wait.
    func sendWithoutWaiting(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        return sent == bytes.count
    }

    /// The next line; nil at end of stream or after `timeout` ms of silence.
    func readLine(timeout: Int32) -> [UInt8]? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = Array(buffer[..<newline])
                buffer.removeFirst(newline + 1)
                return line
            }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, timeout) > 0 else { return nil }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = recv(fd, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            buffer += chunk.prefix(count)
        }
    }
}
