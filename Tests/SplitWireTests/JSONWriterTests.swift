import Foundation
import PropertyBased
import SplitWire
import Testing

@Suite("JSONWriter")
struct JSONWriterTests {
    private func text(_ value: JSONValue) -> String { JSONWriter.string(value) }

    @Test("escapes quotes, backslashes and control characters only")
    func escaping() {
        #expect(text(.string("a\"b\\c")) == #""a\"b\\c""#)
        #expect(text(.string("\n\r\t\u{8}\u{C}")) == #""\n\r\t\b\f""#)
        #expect(text(.string("\u{0}\u{1}\u{1F}")) == #""\u0000\u0001\u001f""#)
        #expect(text(.string("/ é 微 😀 \u{7F}")) == "\"/ é 微 😀 \u{7F}\"")
        #expect(text(.object(["k\"ey": .string("v")])) == #"{"k\"ey":"v"}"#)
    }

    @Test(
        "finds a character to escape at any position of a long string",
        arguments: ["\"", "\\", "\n", "\u{0}", "\u{1F}"])
    func escapingAnywhere(special: String) throws {
        // The strict parser refuses raw control characters, and a raw quote or backslash
        // would end the string early or start a bogus escape: parsing back is the check.
        for filler in ["a", "é"] {
            for length in [1, 7, 8, 9, 15, 16, 17, 31] {
                for position in 0..<length {
                    var characters = Array(repeating: filler, count: length)
                    characters[position] = special
                    let original = characters.joined()
                    #expect(
                        try JSONParser.parse(text(.string(original))) == .string(original),
                        "at \(position)/\(length)")
                }
            }
        }
        // Bytes just outside the escaped ranges pass through.
        let plain = String(repeating: " !#[]~\u{7F}", count: 3)
        #expect(text(.string(plain)) == "\"" + plain + "\"")
    }

    @Test("writes integral doubles without a fraction")
    func integralDoubles() {
        #expect(text(.double(1366)) == "1366")
        #expect(text(.double(-320)) == "-320")
        #expect(text(.double(0)) == "0")
        #expect(text(.int(Int64.min)) == "-9223372036854775808")
        #expect(text(.int(Int64.max)) == "9223372036854775807")
    }

    @Test("writes the shortest text that parses back to the same double")
    func shortestDoubles() {
        #expect(text(.double(0.1)) == "0.1")
        #expect(text(.double(409.8)) == "409.8")
        #expect(text(.double(1.5)) == "1.5")
        let values = [0.1, 1.0 / 3, 1e-7, 1e21, Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude, 2.5e-308]
        for value in values {
            let written = text(.double(value))
            #expect(Double(written) == value)
            #expect(written.count <= "\(value)".count)
        }
    }

    @Test("never emits NaN or infinities")
    func nonFinite() {
        #expect(text(.array([.double(.nan), .double(.infinity), .double(-.infinity)])) == "[null,null,null]")
    }

    @Test("separates members and elements with commas")
    func structure() {
        var writer = JSONWriter()
        writer.beginObject()
        writer.rawKey("a")
        writer.beginArray()
        writer.write(1)
        writer.beginObject()
        writer.endObject()
        writer.writeNull()
        writer.endArray()
        writer.key("b")
        writer.writeRaw("tile")
        writer.endObject()
        writer.newline()
        writer.beginArray()
        writer.endArray()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "{\"a\":[1,{},null],\"b\":\"tile\"}\n[]")
    }

    @Test("appends to an existing buffer in place")
    func appendInPlace() {
        var buffer = Array("prefix ".utf8)
        JSONWriter.append(to: &buffer) { writer in writer.write(.array([.bool(true)])) }
        #expect(String(decoding: buffer, as: UTF8.self) == "prefix [true]")
    }

    @Test("Foundation's parser reads what the writer writes")
    func foundationReadsOutput() async {
        await propertyCheck(count: 300, input: JSONGenerators.value) { value throws in
            let bytes = JSONWriter.encode(.array([value]))
            #expect((try? JSONSerialization.jsonObject(with: Data(bytes))) != nil)
        }
    }

    @Test("round trip: write then parse gives back the value")
    func roundTrip() async {
        await propertyCheck(count: 1000, input: JSONGenerators.value) { value throws in
            let bytes = JSONWriter.encode(value)
            let parsed = try JSONParser.parse(bytes)
            #expect(parsed == value)
            // A second cycle is byte-identical: the writer's output is canonical.
            #expect(JSONWriter.encode(parsed) == bytes)
        }
    }
}

@Suite("JSONValue")
struct JSONValueTests {
    @Test("objects keep insertion order and compare regardless of it")
    func objectOrder() throws {
        let parsed = try JSONParser.parse(#"{"z":1,"a":2,"m":3}"#)
        #expect(parsed.object?.keys == ["z", "a", "m"])
        let reordered = try JSONParser.parse(#"{"a":2,"m":3,"z":1}"#)
        #expect(parsed == reordered)
        #expect(parsed.hashValue == reordered.hashValue)
        #expect(parsed != (try JSONParser.parse(#"{"a":2,"m":3,"z":2}"#)))
        #expect(parsed != (try JSONParser.parse(#"{"a":2,"m":3}"#)))
    }

    @Test("large objects index their keys")
    func largeObjects() throws {
        var object = JSONObject()
        for index in 0..<200 { object["k\(index)"] = .int(Int64(index)) }
        #expect(object.count == 200)
        #expect(object["k150"] == .int(150))
        object["k10"] = nil
        #expect(object["k10"] == nil)
        #expect(object["k199"] == .int(199))
        #expect(object.keys.first == "k0")
        let parsed = try JSONParser.parse(JSONWriter.encode(.object(object)))
        #expect(parsed == .object(object))
    }

    @Test("numbers compare by exact value")
    func numberEquality() {
        #expect(JSONValue.int(2) == .double(2))
        #expect(JSONValue.int(2).hashValue == JSONValue.double(2).hashValue)
        #expect(JSONValue.int(2) != .double(2.5))
        #expect(JSONValue.int((1 << 53) + 1) != .double(9_007_199_254_740_992))
        #expect(JSONValue.int(1) != .bool(true))
    }

    @Test("accessors answer only for their type")
    func accessors() throws {
        let value = try JSONParser.parse(#"{"s":"x","i":3,"d":2.5,"f":4.0,"b":false,"a":[1],"n":null}"#)
        #expect(value["s"]?.string == "x")
        #expect(value["i"]?.int == 3)
        #expect(value["d"]?.int == nil)
        #expect(value["d"]?.double == 2.5)
        #expect(value["f"]?.int == 4)
        #expect(value["b"]?.bool == false)
        #expect(value["a"]?[0]?.int == 1)
        #expect(value["a"]?[1] == nil)
        #expect(value["n"]?.isNull == true)
        #expect(value["missing"] == nil)
        #expect(value["s"]?.int == nil)
        #expect(value["i"]?.string == nil)
    }
}
