import Glibc

/// Splits a byte stream into `\n`-terminated lines (WIRE.md framing): the one framer of the
/// daemon's connections and, through `LineQueue`, of every blocking client.
///
/// The maximum line length is enforced before anything past it is buffered: a line that
/// would exceed it ends framing with `.tooLarge` and the rest of the stream is ignored, so a
/// peer cannot make the daemon hold more than `maxLineLength` bytes of one connection.
public struct LineFramer: Sendable {
    /// Why `feed` stopped.
    public enum Outcome: Equatable, Sendable {
        /// Every complete line was delivered; a trailing partial line is buffered.
        case consumed
        /// The line handler asked to stop; the remaining bytes were not looked at.
        case stopped
        /// A line longer than `maxLineLength`; framing is over for this stream.
        case tooLarge
    }

    /// Longest accepted line in bytes, excluding the `\n` terminator.
    public var maxLineLength: Int
    @usableFromInline var partial: [UInt8] = []
    @usableFromInline var broken = false

    /// True once a line exceeded `maxLineLength`: framing is over for this stream.
    public var isBroken: Bool { broken }

    public init(maxLineLength: Int) {
        precondition(maxLineLength > 0)
        self.maxLineLength = maxLineLength
    }

    /// After `.stopped`: how many bytes of the chunk were consumed (the rest was not looked at).
    public var stoppedAt: Int { stoppedOffset }
    @usableFromInline var stoppedOffset = 0

    /// Bytes of an incomplete line held until its newline arrives.
    public var bufferedByteCount: Int { partial.count }

    /// Delivers every complete line of `chunk` (without `\n`, and without a `\r` before it)
    /// to `onLine`, which answers false to stop. The line's bytes are valid only during the call.
    /// Inlinable: the daemon frames every request through it, and the line handler must be
    /// inlined into the loop's read callback, not called through a closure context.
    @inlinable
    public mutating func feed(
        _ chunk: UnsafeRawBufferPointer,
        onLine: (UnsafeRawBufferPointer) -> Bool
    ) -> Outcome {
        guard !broken else { return .tooLarge }
        guard let base = chunk.baseAddress, !chunk.isEmpty else { return .consumed }
        var start = 0
        while start < chunk.count {
            let remaining = chunk.count - start
            guard let found = memchr(base + start, 0x0A, remaining) else {
                return bufferTail(UnsafeRawBufferPointer(start: base + start, count: remaining))
            }
            let end = base.distance(to: UnsafeRawPointer(found))
            let segment = UnsafeRawBufferPointer(start: base + start, count: end - start)
            start = end + 1
            guard fits(partial.count + segment.count, endingWith: segment.last ?? partial.last) else {
                return breakStream()
            }
            let keepGoing: Bool
            if partial.isEmpty {
                keepGoing = onLine(trimCarriageReturn(segment))
            } else {
                partial.append(contentsOf: segment)
                keepGoing = partial.withUnsafeBytes { onLine(trimCarriageReturn($0)) }
                partial.removeAll(keepingCapacity: partial.count <= 4096)
            }
            if !keepGoing {
                stoppedOffset = start
                return .stopped
            }
        }
        return .consumed
    }

    /// Forgets a buffered partial line (used when a connection stops reading).
    public mutating func reset() {
        partial.removeAll()
    }

    @usableFromInline
    mutating func bufferTail(_ tail: UnsafeRawBufferPointer) -> Outcome {
        guard fits(partial.count + tail.count, endingWith: tail.last) else { return breakStream() }
        partial.append(contentsOf: tail)
        return .consumed
    }

    @usableFromInline
    mutating func breakStream() -> Outcome {
        broken = true
        partial = []
        return .tooLarge
    }

    /// Whether `count` bytes ending with `last` fit the limit. The limit counts the line
    /// without its terminator, and a `\r` before the `\n` is part of the terminator: a CRLF
    /// client may send as much as an LF one (one byte more is buffered, never more).
    @inlinable
    func fits(_ count: Int, endingWith last: UInt8?) -> Bool {
        count <= maxLineLength || (count == maxLineLength + 1 && last == 0x0D)
    }

    @inlinable
    func trimCarriageReturn(_ line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        guard let last = line.last, last == 0x0D else { return line }
        return UnsafeRawBufferPointer(rebasing: line.dropLast())
    }
}
