import PropertyBased
import SplitCore
import Testing
@testable import SplitWire
import SplitTestSupport

/// `ResizeFastPath` reads plain `resize` lines without building a JSON tree. Every
/// line it accepts must decode to exactly what the general path (parse, then read the
/// tree) gives; everything else is left to the general path, errors included.
@Suite struct ResizeFastPathTests {
    /// SplitMix64 over a generated seed, so a failing line replays.
    struct Dice {
        var generator: SplitMix64
        init(_ seed: Int) { generator = SplitMix64(seed: UInt64(bitPattern: Int64(seed))) }
        mutating func next() -> UInt64 { generator.next() }
        mutating func pick<T>(_ items: [T]) -> T { items[Int(next() % UInt64(items.count))] }
        mutating func chance(_ percent: UInt64) -> Bool { next() % 100 < percent }
    }

    static let ids = [
        "7", #""r-1""#, "123456789012345678", "0", "1234567890123456789", "99999999999999999999999",
        "-3", "007", "1.0", "1e2",
        #""""#, #""a\"b""#, #""设置""#, #""a\u0041""#, "null", "true", "[1]",
    ]
    static let ops = [#""resize""#, #""resize""#, #""resize""#, #""Resize""#, #""intent""#, #""resize ""#, "1"]
    static let scenes = [
        #""s""#, #""bench-12""#, #""a b:c.d_e""#, #""""#, #""a\"b""#, #""设置""#, #""x\u0041""#,
        "5", "null",
    ]
    static let sides = [
        "1366", "1024", "375", "1", "100000", "100001", "0", "-5", "007", "1366.5", "1e3", "1E3",
        "9999999", "99999999999999999999999", #""1366""#, "null", "1366.0",
    ]
    static let revisions = ["3", "0", "17", "-1", "null", "1.5", "123456789012345678", #""3""#]

    /// A resize-like line: members in random order, sometimes odd values, duplicates, an
    /// extra member, spaces, a cut, with or without the newline.
    static func line(_ seed: Int) -> [UInt8] {
        var dice = Dice(seed)
        // Mostly the first (valid) values, so that many lines take the fast path.
        func value(_ choices: [String]) -> String {
            dice.chance(70) ? choices[Int(dice.next() % 3)] : dice.pick(choices)
        }
        var members = [
            ("id", value(ids)), ("op", value(ops)), ("scene", value(scenes)),
            ("width", value(sides)), ("height", value(sides)),
        ]
        if dice.chance(30) { members.append(("baseRevision", value(revisions))) }
        if dice.chance(10) { members.append(dice.pick(members)) }
        if dice.chance(10) { members.append(("extra", "1")) }
        if dice.chance(10) { members.removeLast() }
        for index in members.indices.reversed() {
            members.swapAt(index, Int(dice.next() % UInt64(index + 1)))
        }
        let space = dice.chance(10) ? " " : ""
        var text = "{" + members.map { "\"\($0.0)\":\(space)\($0.1)" }.joined(separator: ",") + "}"
        if dice.chance(10) { text = String(text.prefix(Int(dice.next() % UInt64(text.count)))) }
        if dice.chance(5) { text += " " }
        if dice.chance(50) { text += "\n" }
        return Array(text.utf8)
    }

    static func general(_ line: [UInt8]) -> Result<Request, RequestFailure> {
        do throws(RequestFailure) {
            let value: JSONValue
            do {
                value = try line.withUnsafeBytes { raw in
                    Result { () throws(JSONParseError) in try JSONParser().parse(raw) }
                }.get()
            } catch {
                throw RequestFailure(id: nil, error: WireError(.badJSON, "invalid JSON: \(error)"))
            }
            return .success(try RequestDecoder().decode(value))
        } catch {
            return .failure(error)
        }
    }

    @Test func whatTheFastPathAcceptsIsWhatTheGeneralPathDecodes() async {
        await propertyCheck(count: 3000, input: Gen.int(in: 0...Int.max)) { seed in
            let line = Self.line(seed)
            guard let fast = line.withUnsafeBytes({ ResizeFastPath.decode($0) }) else { return }
            #expect(Self.general(line) == .success(fast), "\(String(decoding: line, as: UTF8.self))")
        }
    }

    @Test func plainResizeLinesTakeTheFastPathAndDecodeAsBefore() throws {
        let lines = [
            #"{"id":1,"op":"resize","scene":"bench-0","width":1366,"height":1024}"#,
            #"{"op":"resize","height":1024,"width":375,"scene":"s","id":"r-9","baseRevision":12}"# + "\n",
        ]
        for text in lines {
            let line = Array(text.utf8)
            let fast = try #require(line.withUnsafeBytes { ResizeFastPath.decode($0) })
            #expect(Self.general(line) == .success(fast))
            #expect(try RequestDecoder.decode(line) == fast)
        }
        let refused = [
            #"{"id":1,"op":"resize","scene":"s","width":0,"height":1024}"#,
            #"{"id":1,"id":2,"op":"resize","scene":"s","width":10,"height":1024}"#,
        ]
        for text in refused {
            #expect(Array(text.utf8).withUnsafeBytes { ResizeFastPath.decode($0) } == nil)
            #expect(throws: RequestFailure.self) { try RequestDecoder.decode(text) }
        }
    }
}
