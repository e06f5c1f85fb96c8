import PropertyBased
import SplitLines
import Testing

@Suite("LineQueue")
struct LineQueueTests {
    @Test func handsOutTheFramersLinesInOrderWhateverTheChunking() async {
        let lines = Gen.uint8(in: 0x20...0x7E).array(of: 0...40).array(of: 0...12)
        let chunks = Gen.int(in: 1...23).array(of: 1...8)
        await propertyCheck(count: 300, input: lines, chunks) { lines, chunks in
            let stream: [UInt8] = lines.flatMap { $0 + [UInt8(0x0A)] }
            var queue = LineQueue(maxLineLength: 64)
            var received: [[UInt8]] = []
            var offset = 0, index = 0
            while offset < stream.count {
                let end = min(stream.count, offset + chunks[index % chunks.count])
                queue.append(Array(stream[offset..<end]))
                while let line = queue.nextLine() { received.append(line) }
                offset = end
                index += 1
            }
            #expect(received == lines)
            #expect(queue.bufferedCount == 0)
        }
    }

    @Test func countsWhatIsNotTakenYet() {
        var queue = LineQueue(maxLineLength: 64)
        queue.append(Array("ab\ncd".utf8))
        #expect(queue.bufferedCount == 5)
        #expect(queue.nextLine() == Array("ab".utf8))
        #expect(queue.bufferedCount == 2)
        #expect(queue.nextLine() == nil)
    }

    @Test func keepsTheLinesBeforeAnOverlongOne() {
        var queue = LineQueue(maxLineLength: 4)
        queue.append(Array("ok\ntoo long\nnever\n".utf8))
        #expect(queue.isBroken)
        #expect(queue.nextLine() == Array("ok".utf8))
        #expect(queue.nextLine() == nil)
    }
}
