/// Splits a byte stream into newline-terminated lines (protocol 1 framing).
/// Pure value: the socket feeds bytes in, complete lines come out without their `\n`.
public struct LineBuffer: Sendable {
    /// A line longer than this is a protocol violation (guards memory, not the daemon's limit).
    public let maximumLineLength: Int
    private var pending: [UInt8] = []
    private var start = 0
    /// Where to resume looking for `\n`: bytes before it are known not to hold one.
    private var scanned = 0

    public init(maximumLineLength: Int = 64 << 20) {
        self.maximumLineLength = maximumLineLength
    }

    /// Bytes received but not yet returned as a line.
    public var bufferedCount: Int { pending.count - start }

    public mutating func append(_ bytes: [UInt8]) {
        if start > 0, start == pending.count {
            pending.removeAll(keepingCapacity: true)
            start = 0
            scanned = 0
        }
        pending.append(contentsOf: bytes)
    }

    /// The next complete line, without its terminator; nil if none is complete yet.
    public mutating func nextLine() throws(ClientError) -> [UInt8]? {
        guard let newline = pending[max(start, scanned)...].firstIndex(of: UInt8(ascii: "\n")) else {
            scanned = pending.count
            if bufferedCount > maximumLineLength {
                throw .protocolViolation("a line longer than \(maximumLineLength) bytes")
            }
            return nil
        }
        let line = Array(pending[start..<newline])
        start = newline + 1
        scanned = start
        if start > 65536, start * 2 > pending.count {
            pending.removeFirst(start)
            start = 0
            scanned = 0
        }
        return line
    }
}
