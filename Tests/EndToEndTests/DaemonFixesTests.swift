import Foundation
import Glibc
import SplitClient
import Testing

extension EndToEnd {
    /// Daemon fixes that need separate processes (issue 3 findings).
    @Suite struct DaemonFixes {
        /// `scene.get` answers byte for byte the same in two daemon processes (member order
        /// does not depend on the process's hash seed).
        @Test func sceneGetIsByteForByteReproducibleAcrossProcesses() throws {
            var answers: [String] = []
            for _ in 0..<2 {
                try withDaemon { daemon in
                    let fd = try connectBlocking(daemon.socketPath)
                    defer { close(fd) }
                    let lines = [
                        #"{"id":1,"op":"scene.create","scene":"mail","device":"ipad-pro-12.9","config":{"style":"tripleColumn","sizePolicy":"latest"}}"#,
                        #"{"id":2,"op":"intent","scene":"mail","intent":{"kind":"push","column":"secondary","vc":"m1"}}"#,
                        #"{"id":3,"op":"scene.get","scene":"mail"}"#,
                    ]
                    let request = Array((lines.joined(separator: "\n") + "\n").utf8)
                    #expect(request.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == request.count)
                    let received = try readLines(fd, count: 3)
                    answers.append(String(decoding: received[2], as: UTF8.self))
                }
            }
            #expect(answers.count == 2)
            #expect(answers.first?.contains(#""state":{"#) == true)
            #expect(answers.first == answers.last)
        }
    }
}

/// The first `count` lines read from `fd` (each without its newline).
private func readLines(_ fd: Int32, count: Int) throws -> [[UInt8]] {
    var lines: [[UInt8]] = []
    var current: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while lines.count < count {
        let read = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard read > 0 else { throw ReadFailure() }
        for byte in chunk[0..<read] {
            if byte == 0x0A {
                lines.append(current)
                current = []
            } else {
                current.append(byte)
            }
        }
    }
    return lines
}

private struct ReadFailure: Error {}
