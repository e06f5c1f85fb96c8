import SplitLines
import FuzzDriver

// Fuzzes `LineFramer` against a reference model of WIRE.md's framing: whatever the bytes
// and however they are cut into reads, the framer must deliver exactly the model's lines,
// refuse exactly the lines the model finds too long, and never buffer more than the limit
// (plus a `\r` that may start the line's terminator).
//
// Input layout: byte 0 picks the line limit (1...64, small so the fuzzer reaches it),
// byte 1 seeds the read sizes, byte 2 picks after which line a handler stops; the rest is
// the stream.

/// libFuzzer entry point: returns 0; a broken property traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLineFramer(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size >= 3 else { return 0 }
    let limit = Int(data[0] % 64) + 1
    let stream = Array(UnsafeBufferPointer(start: data + 3, count: size - 3))
    let expected = FramingModel.frame(stream, limit: limit)

    let chunked = frameInReads(stream, limit: limit, seed: data[1])
    check(chunked == expected, "chunked framing differs from the model", stream, limit)

    let stopAfter = Int(data[2] % 8) + 1
    let stopped = frameStopping(stream, limit: limit, after: stopAfter)
    let expectedStopped = Array(expected.lines.prefix(stopAfter))
    check(stopped == expectedStopped, "a handler answering false did not stop delivery", stream, limit)
    return 0
}

/// What framing a whole stream must produce.
struct Framed: Equatable {
    var lines: [[UInt8]] = []
    var tooLarge = false
    var buffered = 0
}

/// WIRE.md framing, written the obvious way: split at `\n`; a line longer than the limit
/// ends the stream, counted without its terminator (one `\r` before the `\n` is part of
/// it, and dropped); an unterminated tail is buffered unless it is already longer than the
/// limit (one `\r` at its end may still be a terminator).
enum FramingModel {
    static func frame(_ stream: [UInt8], limit: Int) -> Framed {
        var framed = Framed()
        let segments = stream.split(separator: 0x0A, omittingEmptySubsequences: false)
        for (index, segment) in segments.enumerated() {
            let isTail = index == segments.count - 1
            let terminator = segment.last == 0x0D ? 1 : 0
            if segment.count - terminator > limit {
                framed.tooLarge = true
                return framed
            }
            if isTail {
                framed.buffered = segment.count
            } else {
                framed.lines.append(Array(segment.last == 0x0D ? segment.dropLast() : segment))
            }
        }
        return framed
    }
}

/// Feeds `stream` in reads of 1...16 bytes chosen by a small generator seeded with `seed`.
func frameInReads(_ stream: [UInt8], limit: Int, seed: UInt8) -> Framed {
    var framer = LineFramer(maxLineLength: limit)
    var framed = Framed()
    var state = UInt32(seed) &* 2_654_435_761 | 1
    var offset = 0
    while offset < stream.count {
        state = state &* 1_103_515_245 &+ 12345
        let length = min(Int(state >> 16) % 16 + 1, stream.count - offset)
        let outcome = stream[offset..<offset + length].withUnsafeBytes { chunk in
            framer.feed(chunk) { line in
                framed.lines.append(Array(line))
                return true
            }
        }
        // One byte past the limit at most: a `\r` that may be the start of the terminator.
        check(framer.bufferedByteCount <= limit + 1, "buffered past the limit", stream, limit)
        offset += length
        if outcome == .tooLarge {
            framed.tooLarge = true
            // Once broken, nothing more is delivered.
            let after = [UInt8](repeating: 0x0A, count: 2).withUnsafeBytes { chunk in
                framer.feed(chunk) { _ in
                    trap("a line was delivered after the stream broke", stream, limit)
                }
            }
            check(after == .tooLarge && framer.isBroken, "a broken framer accepted more input", stream, limit)
            return framed
        }
    }
    framed.buffered = framer.bufferedByteCount
    return framed
}

/// Feeds `stream` at once with a handler that answers false after `count` lines.
func frameStopping(_ stream: [UInt8], limit: Int, after count: Int) -> [[UInt8]] {
    var framer = LineFramer(maxLineLength: limit)
    var lines: [[UInt8]] = []
    _ = stream.withUnsafeBytes { chunk in
        framer.feed(chunk) { line in
            lines.append(Array(line))
            return lines.count < count
        }
    }
    return lines
}

func check(_ condition: Bool, _ message: String, _ stream: [UInt8], _ limit: Int) {
    if !condition { trap(message, stream, limit) }
}

func trap(_ message: String, _ stream: [UInt8], _ limit: Int) -> Never {
    fatalError("FuzzFramer: \(message) (limit \(limit), \(stream.count) bytes: \(stream.prefix(64)))")
}

// libFuzzer's driver runs the target (FuzzDriver).
@_cdecl("FuzzFramer_main")
public func fuzzFramerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzLineFramer)
}
