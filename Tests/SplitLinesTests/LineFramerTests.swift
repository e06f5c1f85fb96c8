import PropertyBased
import SplitLines
import Testing

@Suite("LineFramer")
struct LineFramerTests {
    /// Feeds `chunks` of `bytes` and collects the delivered lines.
    private func frame(
        _ bytes: [UInt8], chunks: [Int], max: Int
    ) -> (lines: [[UInt8]], outcome: LineFramer.Outcome, maxBuffered: Int) {
        var framer = LineFramer(maxLineLength: max)
        var lines: [[UInt8]] = []
        var outcome = LineFramer.Outcome.consumed
        var offset = 0
        var index = 0
        var maxBuffered = 0
        while offset < bytes.count, outcome == .consumed {
            let size = Swift.min(
                chunks.isEmpty ? bytes.count : Swift.max(chunks[index % chunks.count], 1), bytes.count - offset)
            index += 1
            outcome = bytes[offset..<(offset + size)].withUnsafeBytes { chunk in
                framer.feed(chunk) { line in
                    lines.append(Array(line))
                    return true
                }
            }
            maxBuffered = Swift.max(maxBuffered, framer.bufferedByteCount)
            offset += size
        }
        return (lines, outcome, maxBuffered)
    }

    @Test func splitsLinesAcrossChunksAndStripsCarriageReturns() {
        let text = Array("{\"a\":1}\r\n\n{\"b\":2}\npartial".utf8)
        let result = frame(text, chunks: [3], max: 64)
        #expect(result.lines.map { String(decoding: $0, as: UTF8.self) } == ["{\"a\":1}", "", "{\"b\":2}"])
        #expect(result.outcome == .consumed)
    }

    @Test func acceptsALineOfExactlyTheMaximum() {
        let line = [UInt8](repeating: UInt8(ascii: "x"), count: 32) + [0x0A]
        #expect(frame(line, chunks: [5], max: 32).lines.count == 1)
        #expect(frame(line, chunks: [5], max: 31).outcome == .tooLarge)
    }

    /// The limit counts the line without its terminator, `\r\n` as well as `\n`: a CRLF
    /// client may send as much as an LF one, and not a byte more, however it is chunked.
    @Test(arguments: [[1], [5], [31], [32], [33], [100]])
    func aCRLFLineOfExactlyTheMaximumIsAccepted(chunks: [Int]) {
        let body = [UInt8](repeating: UInt8(ascii: "x"), count: 32)
        let accepted = frame(body + [0x0D, 0x0A], chunks: chunks, max: 32)
        #expect(accepted.lines == [body])
        #expect(accepted.outcome == .consumed)
        #expect(accepted.maxBuffered <= 33)
        // One byte more, whatever it is (a second `\r` included), is too long.
        #expect(frame(body + [UInt8(ascii: "x"), 0x0D, 0x0A], chunks: chunks, max: 32).outcome == .tooLarge)
        #expect(frame(body + [0x0D, 0x0D, 0x0A], chunks: chunks, max: 32).outcome == .tooLarge)
        // A `\r` inside the line is data: 32 bytes then `\r` then more is refused.
        #expect(frame(body + [0x0D, UInt8(ascii: "y"), 0x0A], chunks: chunks, max: 32).outcome == .tooLarge)
    }

    @Test func refusesAnOverlongLineBeforeItsNewlineArrives() {
        // No newline at all: the framer must give up as soon as the limit is passed.
        let endless = [UInt8](repeating: UInt8(ascii: "y"), count: 1000)
        let result = frame(endless, chunks: [7], max: 100)
        #expect(result.outcome == .tooLarge)
        #expect(result.maxBuffered <= 100)
        #expect(result.lines.isEmpty)
    }

    @Test func stopsWhenTheHandlerSaysSo() {
        var framer = LineFramer(maxLineLength: 16)
        var seen = 0
        let outcome = Array("a\nb\nc\n".utf8).withUnsafeBytes { chunk in
            framer.feed(chunk) { _ in
                seen += 1
                return seen < 2
            }
        }
        #expect(outcome == .stopped)
        #expect(seen == 2)
    }

    // Backpressure resumes from `stoppedAt`: feeding the rest later delivers every line once.
    @Test func resumingFromWhereItStoppedDeliversTheRestOnce() {
        var framer = LineFramer(maxLineLength: 16)
        let stream = Array("one\ntwo\nthree\nfour\n".utf8)
        var lines: [String] = []
        var rest = stream[...]
        while !rest.isEmpty {
            var taken = 0
            let outcome = Array(rest).withUnsafeBytes { chunk in
                framer.feed(chunk) { line in
                    lines.append(String(decoding: line, as: UTF8.self))
                    taken += 1
                    return taken < 1
                }
            }
            guard outcome == .stopped else { break }
            rest = rest.dropFirst(framer.stoppedAt)
        }
        #expect(lines == ["one", "two", "three", "four"])
    }

    @Test func deliversExactlyTheLinesUpToTheFirstOverlongOneWhateverTheChunking() async {
        let lines = Gen.uint8(in: 0x20...0x7E).array(of: 0...40).array(of: 0...12)
        let chunks = Gen.int(in: 1...23).array(of: 1...8)
        await propertyCheck(count: 300, input: lines, chunks) { lines, chunks in
            let max = 32
            let stream: [UInt8] = lines.flatMap { $0 + [UInt8(0x0A)] }
            let result = frame(stream, chunks: chunks, max: max)
            let expectedCount = lines.firstIndex { $0.count > max } ?? lines.count
            #expect(result.lines == Array(lines.prefix(expectedCount)))
            #expect(result.outcome == (expectedCount < lines.count ? .tooLarge : .consumed))
            #expect(result.maxBuffered <= max)
        }
    }
}
