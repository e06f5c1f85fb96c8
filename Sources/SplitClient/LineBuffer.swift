import SplitLines

/// Splits the daemon's output into newline-terminated lines (protocol 1 framing, by
/// SplitLines' framer). Pure value: the socket feeds bytes in, complete lines come out
/// without their `\n`.
public struct LineBuffer: Sendable {
    private var queue: LineQueue

    public init(maximumLineLength: Int = 64 << 20) {
        queue = LineQueue(maxLineLength: maximumLineLength)
    }

    /// A line longer than this is a protocol violation (guards memory, not the daemon's limit).
    public var maximumLineLength: Int { queue.maxLineLength }

    /// Bytes received but not yet returned as a line.
    public var bufferedCount: Int { queue.bufferedCount }

    public mutating func append(_ bytes: [UInt8]) {
        queue.append(bytes)
    }

    /// The next complete line, without its terminator; nil if none is complete yet.
    public mutating func nextLine() throws(ClientError) -> [UInt8]? {
        if let line = queue.nextLine() { return line }
        if queue.isBroken { throw .protocolViolation("a line longer than \(maximumLineLength) bytes") }
        return nil
    }
}
