import Glibc

/// A single-threaded epoll load generator for newline-delimited request/reply protocols,
/// modeled on the anchor's `loadgen.c` so both measure the same way: replies arrive in
/// request order per connection, and each one completes the oldest request in flight.
///
/// Connections are kept as parallel arrays indexed by connection number (no per-connection
/// objects, no allocation per request once buffers have grown).
final class LoadEngine {
    private let plan: LoadPlan
    private let count: Int
    private let ringSize: Int
    private var fds: [Int32]
    /// Send (or scheduled) times of the requests in flight: `ringSize` slots per connection.
    private var sentAt: [UInt64]
    private var ringHead: [Int]
    private var inFlight: [Int]
    private var counters: [Int]
    private var nextTemplate: [Int]
    private var output: [[UInt8]]
    private var outputOffset: [Int]
    private var watchingWrites: [Bool]
    /// The start of a reply line that arrived split across reads.
    private var partialLine: [[UInt8]]
    private var isOpen: [Bool]

    private let epoll = Epoll()
    private var readBuffer: UnsafeMutableRawBufferPointer
    private var latencies: Latencies
    private var totalInFlight = 0
    private var sent = 0
    private var answered = 0
    private var errorReplies = 0
    private var unexpectedLines = 0
    private var connectionFailures = 0
    private var skippedSends = 0
    private var firstError: String?
    private var measureStart: UInt64 = 0
    private var measureEnd: UInt64 = 0
    private var sending = true
    /// Whether `plan.maxRequests` ended the sending before `measureSeconds` did.
    private var stoppedAtRequestCap = false

    init(plan: LoadPlan) {
        self.plan = plan
        count = plan.connections
        switch plan.pacing {
        case .closed(let depth): ringSize = max(1, depth)
        case .paced(_, let maxInFlight): ringSize = max(1, maxInFlight)
        }
        fds = Array(repeating: -1, count: count)
        sentAt = Array(repeating: 0, count: count * ringSize)
        ringHead = Array(repeating: 0, count: count)
        inFlight = Array(repeating: 0, count: count)
        counters = Array(repeating: 0, count: count)
        nextTemplate = Array(repeating: 0, count: count)
        output = Array(repeating: [], count: count)
        outputOffset = Array(repeating: 0, count: count)
        watchingWrites = Array(repeating: false, count: count)
        partialLine = Array(repeating: [], count: count)
        isOpen = Array(repeating: false, count: count)
        readBuffer = .allocate(byteCount: 256 * 1024, alignment: 64)
        latencies = Latencies()
        for index in 0..<count {
            output[index].reserveCapacity(512 * ringSize)
        }
    }

    deinit {
        for fd in fds where fd >= 0 { close(fd) }
        readBuffer.deallocate()
    }

    /// Opens the connections, runs warm-up, measured period and drain, and reports.
    func run() -> LoadResult {
        openConnections()
        var daemonCPU = CPUMeter(pid: plan.daemonPID)
        let probe = ProcessProbe(pid: plan.daemonPID ?? -1)
        var memory: [MemorySample] = []
        let start = monotonicNanoseconds()
        measureStart = start + nanoseconds(seconds: plan.warmupSeconds)
        measureEnd = measureStart + nanoseconds(seconds: plan.measureSeconds)
        let drainEnd = measureEnd + nanoseconds(seconds: plan.drainSeconds)
        let sampleEvery = plan.memorySampleSeconds.map { nanoseconds(seconds: $0) }
        var nextSample = start
        var measuring = false
        var clientCPUStart = 0.0
        var clientCPU: Double?
        var daemonCPUPercent: Double?

        if case .closed = plan.pacing {
            for index in 0..<count where isOpen[index] { topUp(index, now: monotonicNanoseconds()) }
        }
        var paceSlot = 0
        while true {
            let now = monotonicNanoseconds()
            if !measuring && now >= measureStart {
                measuring = true
                daemonCPU.start()
                clientCPUStart = processCPUSeconds()
            }
            if sending && (now >= measureEnd || sent >= plan.maxRequests) {
                sending = false
                if now < measureEnd {
                    // The request cap ended the run early: the measured period ends here, so
                    // that rates are over the time requests were sent, not the time asked for.
                    stoppedAtRequestCap = true
                    measureStart = min(measureStart, now)
                    measureEnd = now
                }
                if measuring {
                    daemonCPUPercent = daemonCPU.percent()
                    clientCPU =
                        (processCPUSeconds() - clientCPUStart) / max(1e-9, Double(now - measureStart) / 1e9) * 100
                }
            }
            if let sampleEvery, now >= nextSample, let resident = probe.residentBytes() {
                memory.append(MemorySample(seconds: Double(now - start) / 1e9, residentBytes: resident))
                nextSample += sampleEvery
            }
            if !sending && (totalInFlight == 0 || now >= drainEnd) { break }
            if connectionFailures == count { break }
            var timeout: Int32 = 20
            if sending, case .paced(let hertz, _) = plan.pacing {
                paceSlot = sendDue(from: paceSlot, start: start, hertz: hertz, now: now)
                timeout = 1
            }
            let ready = epoll.wait(milliseconds: timeout)
            for slot in 0..<ready {
                let (flags, index) = epoll.event(at: slot)
                if flags & (Epoll.readable | Epoll.hungUp | Epoll.failed) != 0 {
                    readReplies(index)
                }
                if isOpen[index] && flags & Epoll.writable != 0 {
                    flush(index)
                }
            }
        }
        let unanswered = totalInFlight
        let seconds = Double(measureEnd - measureStart) / 1e9
        return LoadResult(
            plan: plan, seconds: seconds, answered: answered, stoppedAtRequestCap: stoppedAtRequestCap,
            requestsPerSecond: seconds > 0 ? Double(answered) / seconds : 0,
            latency: latencies.summary(), sent: sent, errorReplies: errorReplies,
            unexpectedLines: unexpectedLines, unanswered: unanswered,
            connectionFailures: connectionFailures, skippedSends: skippedSends, firstError: firstError,
            daemonCPUPercent: daemonCPUPercent, clientCPUPercent: clientCPU,
            daemonResidentBytes: probe.residentBytes(), daemonPeakResidentBytes: probe.peakResidentBytes(),
            memory: memory)
    }

    // MARK: Connections

    private func openConnections() {
        for index in 0..<count {
            guard let fd = connectUnix(path: plan.socketPath) else {
                fail(index, "connect \(plan.socketPath): \(errnoText())")
                continue
            }
            makeNonBlocking(fd)
            fds[index] = fd
            isOpen[index] = true
            epoll.add(fd, interest: Epoll.readable, token: index)
        }
    }

    private func fail(_ index: Int, _ reason: String) {
        connectionFailures += 1
        if firstError == nil { firstError = "connection \(index): \(reason)" }
        if fds[index] >= 0 {
            epoll.remove(fds[index])
            close(fds[index])
            fds[index] = -1
        }
        isOpen[index] = false
        totalInFlight -= inFlight[index]
        // Requests lost with the connection are counted as connection failures, not unanswered.
        inFlight[index] = 0
    }

    // MARK: Sending

    /// Closed loop: fills the connection up to its depth.
    private func topUp(_ index: Int, now: UInt64) {
        guard sending, isOpen[index] else { return }
        let depth = ringSize
        var queued = false
        while inFlight[index] < depth && sent < plan.maxRequests {
            enqueue(index, at: now)
            queued = true
        }
        if queued { flush(index) }
    }

    /// Paced: sends every request whose time has come; answers the next slot.
    private func sendDue(from slot: Int, start: UInt64, hertz: Double, now: UInt64) -> Int {
        let interval = 1e9 / (hertz * Double(count))
        var slot = slot
        while true {
            let due = start + UInt64(Double(slot) * interval)
            guard due <= now, sent < plan.maxRequests else { return slot }
            let index = slot % count
            slot += 1
            guard isOpen[index] else { continue }
            if inFlight[index] >= ringSize {
                skippedSends += 1
                continue
            }
            enqueue(index, at: due)
            flush(index)
        }
    }

    private func enqueue(_ index: Int, at time: UInt64) {
        counters[index] += 1
        let template = plan.templates[nextTemplate[index]]
        nextTemplate[index] = nextTemplate[index] + 1 == plan.templates.count ? 0 : nextTemplate[index] + 1
        template.append(connection: index, counter: counters[index], to: &output[index])
        let slot = (ringHead[index] + inFlight[index]) % ringSize
        sentAt[index * ringSize + slot] = time
        inFlight[index] += 1
        totalInFlight += 1
        sent += 1
    }

    private func flush(_ index: Int) {
        let fd = fds[index]
        let total = output[index].count
        var offset = outputOffset[index]
        while offset < total {
            let written = output[index].withUnsafeBytes { raw in
                write(fd, raw.baseAddress! + offset, total - offset)
            }
            if written > 0 {
                offset += written
                continue
            }
            if written < 0 && errno == EINTR { continue }
            if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { break }
            fail(index, "write: \(errnoText())")
            return
        }
        if offset == total {
            output[index].removeAll(keepingCapacity: true)
            outputOffset[index] = 0
            if watchingWrites[index] { watch(index, writes: false) }
        } else {
            outputOffset[index] = offset
            if !watchingWrites[index] { watch(index, writes: true) }
        }
    }

    private func watch(_ index: Int, writes: Bool) {
        watchingWrites[index] = writes
        epoll.modify(fds[index], interest: Epoll.readable | (writes ? Epoll.writable : 0), token: index)
    }

    // MARK: Receiving

    private func readReplies(_ index: Int) {
        while isOpen[index] {
            let got = read(fds[index], readBuffer.baseAddress!, readBuffer.count)
            if got > 0 {
                let now = monotonicNanoseconds()
                take(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(readBuffer)[0..<got]), on: index, now: now)
                if case .closed = plan.pacing { topUp(index, now: monotonicNanoseconds()) }
                if got < readBuffer.count { return }
                continue
            }
            if got < 0 && errno == EINTR { continue }
            if got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return }
            fail(index, got == 0 ? "closed by the daemon" : "read: \(errnoText())")
            return
        }
    }

    /// Splits `bytes` into reply lines, keeping an unfinished last line for the next read.
    private func take(_ bytes: UnsafeRawBufferPointer, on index: Int, now: UInt64) {
        let base = bytes.baseAddress!
        var start = 0
        while start < bytes.count {
            guard let found = memchr(base + start, 0x0A, bytes.count - start) else {
                partialLine[index].append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start...]))
                return
            }
            let end = base.distance(to: UnsafeRawPointer(found))
            if partialLine[index].isEmpty {
                complete(UnsafeRawBufferPointer(rebasing: bytes[start..<end]), on: index, now: now)
            } else {
                partialLine[index].append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
                let line = partialLine[index]
                partialLine[index].removeAll(keepingCapacity: true)
                line.withUnsafeBytes { complete($0, on: index, now: now) }
            }
            start = end + 1
        }
    }

    private func complete(_ line: UnsafeRawBufferPointer, on index: Int, now: UInt64) {
        guard inFlight[index] > 0 else {
            unexpectedLines += 1
            note("unexpected line on connection \(index): \(preview(line))")
            return
        }
        let sentTime = sentAt[index * ringSize + ringHead[index]]
        ringHead[index] = ringHead[index] + 1 == ringSize ? 0 : ringHead[index] + 1
        inFlight[index] -= 1
        totalInFlight -= 1
        if sentTime >= measureStart && sentTime < measureEnd {
            latencies.record(now &- sentTime)
        }
        if now >= measureStart && now < measureEnd { answered += 1 }
        if isErrorReply(line) {
            errorReplies += 1
            note("error reply on connection \(index): \(preview(line))")
        }
    }

    private func note(_ error: String) {
        if firstError == nil { firstError = error }
    }

    private func preview(_ line: UnsafeRawBufferPointer) -> String {
        String(decoding: line.prefix(300), as: UTF8.self)
    }
}

private let okTrue = Array(#""ok":true"#.utf8)
private let okFalse = Array(#""ok":false"#.utf8)

/// True when a reply line carries `"ok":false`. splitd writes `{"id":..,"ok":..` first, so
/// the common case is decided in the first few dozen bytes; anything else is searched whole.
@inline(__always)
func isErrorReply(_ line: UnsafeRawBufferPointer) -> Bool {
    if find(okTrue, in: UnsafeRawBufferPointer(rebasing: line.prefix(64))) != nil { return false }
    return find(okFalse, in: line) != nil
}

/// The offset of the first occurrence of `pattern` in `bytes`.
func find(_ pattern: [UInt8], in bytes: UnsafeRawBufferPointer) -> Int? {
    guard pattern.count <= bytes.count, let first = pattern.first else { return nil }
    let base = bytes.baseAddress!
    var offset = 0
    let last = bytes.count - pattern.count
    while offset <= last {
        guard let hit = memchr(base + offset, Int32(first), last - offset + 1) else { return nil }
        let position = base.distance(to: UnsafeRawPointer(hit))
        if pattern.withUnsafeBytes({ memcmp(base + position, $0.baseAddress!, pattern.count) }) == 0 {
            return position
        }
        offset = position + 1
    }
    return nil
}

/// CPU seconds this process used so far (all threads).
func processCPUSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
