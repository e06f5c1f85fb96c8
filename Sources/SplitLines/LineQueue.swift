/// Framing for blocking clients: bytes go in as they are read, complete lines come out one
/// at a time (copied, without their terminator). `LineFramer` does the framing.
public struct LineQueue: Sendable {
    private var framer: LineFramer
    private var lines: [[UInt8]] = []
    private var head = 0
    /// Bytes of the complete lines not yet taken, one terminator byte each.
    private var queuedBytes = 0

    public init(maxLineLength: Int) {
        framer = LineFramer(maxLineLength: maxLineLength)
    }

    /// Longest accepted line in bytes, excluding its terminator.
    public var maxLineLength: Int { framer.maxLineLength }

    /// Bytes appended but not yet taken as a line.
    public var bufferedCount: Int { queuedBytes + framer.bufferedByteCount }

    /// True once a line exceeded `maxLineLength`; the lines before it can still be taken.
    public var isBroken: Bool { framer.isBroken }

    public mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if head > 0, head == lines.count {
            lines.removeAll(keepingCapacity: true)
            head = 0
        }
        var framed = lines
        lines = []
        var framedBytes = 0
        _ = framer.feed(bytes) { line in
            framed.append(Array(line))
            framedBytes += line.count + 1
            return true
        }
        lines = framed
        queuedBytes += framedBytes
    }

    /// The next complete line; nil if none is complete yet (or the stream broke, see `isBroken`).
    public mutating func nextLine() -> [UInt8]? {
        guard head < lines.count else { return nil }
        let line = lines[head]
        head += 1
        queuedBytes -= line.count + 1
        return line
    }
}
