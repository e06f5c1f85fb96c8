import Glibc

/// Attach fan-out: one writer resizes a scene while `viewers` clients attached to it as
/// viewers receive the layout push of every revision. A push's latency runs from the moment
/// the writer wrote the request to the moment a viewer read the push. The writer waits for
/// its reply and for every viewer's push before the next write (closed loop), so the figure
/// is the fan-out cost, not queueing.
enum Fanout {
    struct Result {
        var viewers: Int
        var seconds: Double
        /// Writes whose every push arrived during the measured period.
        var writes: Int
        var pushesPerSecond: Double
        /// Write -> one viewer's receipt, over every push.
        var pushLatency: LatencySummary
        /// Write -> the last viewer's receipt, per write.
        var lastViewerLatency: LatencySummary
        /// Write -> the writer's own reply.
        var replyLatency: LatencySummary
        var errors: Int
        var firstError: String?
        var daemonCPUPercent: Double?
    }

    static let scene = "fanout-0"

    static func run(
        socket: String, pid: Int32?, viewers viewerCount: Int, warmup: Double,
        seconds: Double
    ) throws -> Result {
        let setup = try LineClient(path: socket)
        try setup.call(
            #"{"id":1,"op":"scene.create","scene":"\#(scene)","device":"ipad-pro-12.9","size":{"width":1366,"height":1024}}"#
        )
        var viewers: [LineClient] = []
        for index in 0..<viewerCount {
            let viewer = try LineClient(path: socket)
            try viewer.call(#"{"id":\#(index + 1),"op":"scene.attach","scene":"\#(scene)","role":"viewer"}"#)
            makeNonBlocking(viewer.fd)
            viewers.append(viewer)
        }
        let writer = try LineClient(path: socket)
        let reply = try writer.call(#"{"id":0,"op":"scene.get","scene":"\#(scene)"}"#)
        guard let revision = integer(after: #""revision":"#, in: Array(reply.utf8)) else {
            throw BenchError("scene.get reply without a revision: \(reply.prefix(200))")
        }
        makeNonBlocking(writer.fd)
        var run = Run(writer: writer.fd, viewers: viewers.map(\.fd), revision: revision, pid: pid)
        let result = run.drive(warmup: warmup, seconds: seconds)
        withExtendedLifetime((viewers, writer, setup)) {}
        return result
    }

    /// The first integer after `key` in `bytes`.
    static func integer(after key: String, in bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBytes { raw in integer(after: Array(key.utf8), in: raw) }
    }

    static func integer(after key: [UInt8], in line: UnsafeRawBufferPointer) -> Int? {
        guard let position = find(key, in: line) else { return nil }
        var value = 0
        var index = position + key.count
        var digits = 0
        while index < line.count, line[index] >= 0x30, line[index] <= 0x39 {
            value = value * 10 + Int(line[index] - 0x30)
            index += 1
            digits += 1
        }
        return digits > 0 ? value : nil
    }

    /// The epoll loop of one fan-out run.
    private struct Run {
        let writer: Int32
        let viewers: [Int32]
        var revision: Int
        let pid: Int32?
        var partial: [[UInt8]]
        var sentAt: UInt64 = 0
        var awaitingReply = false
        var pushesMissing = 0
        var lastReceipt: UInt64 = 0
        var writes = 0
        var counter = 0
        var pushLatency = Latencies()
        var lastViewerLatency = Latencies()
        var replyLatency = Latencies()
        var errors = 0
        var firstError: String?
        var measureStart: UInt64 = 0
        var measureEnd: UInt64 = 0
        let revisionKey = Array(#""revision":"#.utf8)

        init(writer: Int32, viewers: [Int32], revision: Int, pid: Int32?) {
            self.writer = writer
            self.viewers = viewers
            self.revision = revision
            self.pid = pid
            partial = Array(repeating: [], count: viewers.count + 1)
        }

        mutating func drive(warmup: Double, seconds: Double) -> Result {
            let epoll = Epoll(capacity: 256)
            for (index, fd) in ([writer] + viewers).enumerated() {
                epoll.add(fd, interest: Epoll.readable, token: index)
            }
            var cpu = CPUMeter(pid: pid)
            let start = monotonicNanoseconds()
            measureStart = start + nanoseconds(seconds: warmup)
            measureEnd = measureStart + nanoseconds(seconds: seconds)
            var measuring = false
            var cpuPercent: Double?
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 64)
            defer { buffer.deallocate() }
            write()
            var stalledSince = monotonicNanoseconds()
            while true {
                let now = monotonicNanoseconds()
                if !measuring && now >= measureStart {
                    measuring = true
                    cpu.start()
                }
                if now >= measureEnd {
                    cpuPercent = cpu.percent()
                    if !awaitingReply && pushesMissing == 0 { break }
                    if now >= measureEnd + 2_000_000_000 {
                        errors += pushesMissing + (awaitingReply ? 1 : 0)
                        note("\(pushesMissing) pushes of revision \(revision) never arrived")
                        break
                    }
                }
                if !awaitingReply && pushesMissing == 0 {
                    if now < measureEnd { write() }
                    stalledSince = now
                } else if now - stalledSince > 5_000_000_000 {
                    errors += pushesMissing + (awaitingReply ? 1 : 0)
                    note("stalled: \(pushesMissing) pushes of revision \(revision) missing after 5 s")
                    break
                }
                let ready = epoll.wait(milliseconds: 20)
                for slot in 0..<ready {
                    let index = epoll.event(at: slot).token
                    let fd = index == 0 ? writer : viewers[index - 1]
                    while true {
                        let got = read(fd, buffer.baseAddress!, buffer.count)
                        if got > 0 {
                            lines(
                                UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[0..<got]), from: index,
                                now: monotonicNanoseconds())
                            continue
                        }
                        if got < 0 && (errno == EAGAIN || errno == EINTR) { break }
                        errors += 1
                        note("connection \(index) closed")
                        epoll.remove(fd)
                        break
                    }
                }
            }
            let measured = Double(measureEnd - measureStart) / 1e9
            return Result(
                viewers: viewers.count, seconds: measured, writes: writes,
                pushesPerSecond: Double(writes * viewers.count) / measured,
                pushLatency: pushLatency.summary(), lastViewerLatency: lastViewerLatency.summary(),
                replyLatency: replyLatency.summary(), errors: errors, firstError: firstError,
                daemonCPUPercent: cpuPercent)
        }

        private mutating func write() {
            counter += 1
            let width = counter % 2 == 1 ? 375 : 1366
            let line =
                Array(
                    #"{"id":\#(counter),"op":"resize","scene":"\#(Fanout.scene)","width":\#(width),"height":1024}"#.utf8
                ) + [0x0A]
            sentAt = monotonicNanoseconds()
            let written = line.withUnsafeBytes { Glibc.write(writer, $0.baseAddress!, $0.count) }
            guard written == line.count else {
                errors += 1
                note("writer: short write")
                return
            }
            revision += 1
            awaitingReply = true
            pushesMissing = viewers.count
            lastReceipt = 0
        }

        private mutating func lines(_ bytes: UnsafeRawBufferPointer, from index: Int, now: UInt64) {
            var start = 0
            while let newline = bytes[start...].firstIndex(of: 0x0A) {
                if partial[index].isEmpty {
                    line(UnsafeRawBufferPointer(rebasing: bytes[start..<newline]), from: index, now: now)
                } else {
                    partial[index] += bytes[start..<newline]
                    let whole = partial[index]
                    partial[index].removeAll(keepingCapacity: true)
                    whole.withUnsafeBytes { line($0, from: index, now: now) }
                }
                start = newline + 1
            }
            partial[index] += bytes[start...]
        }

        private mutating func line(_ line: UnsafeRawBufferPointer, from index: Int, now: UInt64) {
            let measured = sentAt >= measureStart && sentAt < measureEnd
            if index == 0 {
                guard awaitingReply, !isErrorReply(line) else {
                    errors += 1
                    note("writer: unexpected line \(String(decoding: line.prefix(200), as: UTF8.self))")
                    return
                }
                awaitingReply = false
                if measured { replyLatency.record(now - sentAt) }
            } else {
                guard Fanout.integer(after: revisionKey, in: line) == revision, pushesMissing > 0 else {
                    errors += 1
                    note("viewer \(index): unexpected line \(String(decoding: line.prefix(200), as: UTF8.self))")
                    return
                }
                pushesMissing -= 1
                lastReceipt = max(lastReceipt, now)
                if measured { pushLatency.record(now - sentAt) }
                if pushesMissing == 0 && measured {
                    lastViewerLatency.record(lastReceipt - sentAt)
                    writes += 1
                }
            }
        }

        private mutating func note(_ error: String) {
            if firstError == nil { firstError = error }
        }
    }
}
