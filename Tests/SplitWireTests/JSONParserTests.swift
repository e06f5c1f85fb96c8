import PropertyBased
import SplitWire
import Testing

@Suite("JSONParser")
struct JSONParserTests {
    @Test(
        "parses every kind of value",
        arguments: [
            ("null", JSONValue.null),
            ("true", .bool(true)),
            ("false", .bool(false)),
            ("0", .int(0)),
            ("-0", .int(0)),
            ("1366", .int(1366)),
            ("-42", .int(-42)),
            ("9223372036854775807", .int(Int64.max)),
            ("-9223372036854775808", .int(Int64.min)),
            ("1.5", .double(1.5)),
            ("-0.25", .double(-0.25)),
            ("1e3", .double(1000)),
            ("1E+3", .double(1000)),
            ("2.5e-3", .double(0.0025)),
            ("\"\"", .string("")),
            ("\"hello\"", .string("hello")),
            ("[]", .array([])),
            ("{}", .object([:])),
            (" \t\r\n[1, \"a\", null] \n", .array([.int(1), .string("a"), .null])),
            ("{\"a\":{\"b\":[true]}}", .object(["a": .object(["b": .array([.bool(true)])])])),
        ])
    func parsesValid(text: String, expected: JSONValue) throws {
        #expect(try JSONParser.parse(text) == expected)
    }

    @Test("keeps integers exact and types them as integers")
    func integersStayExact() throws {
        let value = try JSONParser.parse(
            "[9007199254740993, 1.0, 2.50e1, 1.5, 1.0000000000000001, 9007199254740993.0, 1e-400]")
        guard case .int(let big) = value[0] else { Issue.record("not an int: \(value)"); return }
        #expect(big == 9_007_199_254_740_993)
        // A whole number below 2^53 written with a fraction or an exponent is an integer too.
        guard case .int(1) = value[1], case .int(25) = value[2] else { Issue.record("\(value)"); return }
        // Anything else is a Double: a fraction, even one a Double rounds to a whole number,
        // and a magnitude a Double only approximates.
        for index in 3...6 {
            guard case .double = value[index] else { Issue.record("not a double: \(value[index])"); continue }
        }
    }

    @Test("integers beyond Int64 become doubles")
    func hugeIntegers() throws {
        let value = try JSONParser.parse("18446744073709551616")
        guard case .double(let number) = value else { Issue.record("\(value)"); return }
        #expect(number == 18_446_744_073_709_551_616.0)
        let many = try JSONParser.parse("1" + String(repeating: "0", count: 300))
        #expect(many.double == 1e300)
    }

    @Test(
        "doubles are correctly rounded",
        arguments: [
            "0.1", "3.141592653589793", "1e-7", "123456789012345678e-3", "2.2250738585072014e-308",
            "4.9e-324", "1.7976931348623157e308", "0.30000000000000004", "9007199254740993.0",
            "1.00000000000000011102230246251565404236316680908203125",
        ])
    func doublesRoundCorrectly(text: String) throws {
        // The standard library's parser is correctly rounded: the reference.
        #expect(try JSONParser.parse(text).double == Double(text))
    }

    @Test("decodes escapes and surrogate pairs")
    func escapes() throws {
        let text = #""a\"b\\c\/d\b\f\n\r\t\u0041\u00e9\u20AC\ud83d\ude00\u0000""#
        #expect(try JSONParser.parse(text) == .string("a\"b\\c/d\u{8}\u{C}\n\r\tA\u{E9}\u{20AC}\u{1F600}\u{0}"))
    }

    @Test("passes UTF-8 through")
    func utf8() throws {
        let text = "\"微信 iPad 😀 é\""
        #expect(try JSONParser.parse(text) == .string("微信 iPad 😀 é"))
    }

    @Test("accepts nesting up to the limit and refuses one more")
    func depthLimit() throws {
        let limit = JSONParser.defaultMaxDepth
        let atLimit = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(throws: Never.self) { try JSONParser.parse(atLimit) }
        let beyond = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        #expect(reason(of: beyond) == .tooDeep(limit: limit))
        let deepObjects = String(repeating: "{\"a\":", count: 100_000) + "1" + String(repeating: "}", count: 100_000)
        #expect(reason(of: deepObjects) == .tooDeep(limit: limit))
        let custom = JSONParser(maxDepth: 2)
        #expect(throws: Never.self) { try custom.parse("[[1]]") }
        #expect(throws: JSONParseError.self) { try custom.parse("[[[1]]]") }
    }

    @Test(
        "refuses invalid documents",
        arguments: [
            "", "   ", "nul", "tru", "True", "NULL", "01", "-01", "00", "1.", ".5", "-", "+1", "1e", "1e+",
            "0x10", "NaN", "Infinity", "-Infinity", "1e400", "-1e400", "[1,]", "[,1]", "{\"a\":1,}", "{,}",
            "{\"a\"}", "{\"a\" 1}", "{a:1}", "{'a':1}", "'a'", "[1 2]", "[", "]", "{", "}", "\"abc",
            "\"a\\x\"", "\"\\u12\"", "\"\\u12G4\"", "\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\u0041\"",
            "\"\\ud800x\"", "\"tab\there\"", "\"nl\nhere\"", "1 2", "{} x", "[]]", "{\"a\":1,\"a\":2}",
            "\u{FEFF}1", "[1]\u{0}",
        ])
    func refusesInvalid(text: String) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(text) }
    }

    @Test(
        "refuses invalid UTF-8",
        arguments: [
            [0x22, 0xFF, 0x22],  // never valid
            [0x22, 0xC0, 0xAF, 0x22],  // overlong '/'
            [0x22, 0xE0, 0x80, 0xAF, 0x22],  // overlong 3-byte
            [0x22, 0xED, 0xA0, 0x80, 0x22],  // UTF-8 encoded surrogate U+D800
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // above U+10FFFF
            [0x22, 0xC3, 0x22],  // truncated sequence
            [0x22, 0x80, 0x22],  // lone continuation byte
            [0x22, 0xE2, 0x82, 0x22],  // truncated 3-byte
            [0x22, 0xC3],  // truncated at the end of input
        ] as [[UInt8]])
    func refusesInvalidUTF8(bytes: [UInt8]) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(bytes) }
    }

    @Test("reports the byte offset of the error")
    func errorOffsets() {
        #expect(error(of: "[1,]")?.offset == 3)
        #expect(error(of: "{\"a\":1,\"a\":2}")?.offset == 7)
        #expect(error(of: "{\"a\":1,\"a\":2}")?.reason == .duplicateKey("a"))
        #expect(error(of: "[1] x")?.offset == 4)
        #expect(error(of: "[1] x")?.reason == .trailingGarbage)
        #expect(error(of: "\"ab\\q\"")?.offset == 3)
        #expect(error(of: "\"ab\\q\"")?.reason == .invalidEscape)
        #expect(error(of: "[01]")?.reason == .leadingZero)
        #expect(error(of: "\"\\udc00\"")?.reason == .loneSurrogate)
        #expect(error(of: "1e400")?.reason == .numberOutOfRange)
        let message = error(of: "[1,]")?.description ?? ""
        #expect(message.hasPrefix("byte 3:"))
        #expect(message.contains("']'"))
    }

    @Test("parses slices and raw buffers without copying the line")
    func inputKinds() throws {
        let line: [UInt8] = Array("xx{\"id\":1}yy".utf8)
        #expect(try JSONParser.parse(line[2..<10]) == .object(["id": .int(1)]))
        let value = try line.withUnsafeBytes { raw in
            try JSONParser.parse(UnsafeRawBufferPointer(rebasing: raw[2..<10]))
        }
        #expect(value["id"]?.int == 1)
    }

    @Test("never crashes on random bytes")
    func randomBytes() async {
        let bytes = Gen<UInt8>.value(in: 0...255).array(of: 0...64)
        await propertyCheck(count: 2000, input: bytes) { input throws in
            // Either outcome is fine; the property is termination without a trap.
            _ = try? JSONParser.parse(input)
        }
    }

    @Test("never crashes on random JSON-ish text")
    func randomJSONishText() async {
        let alphabet: [UInt8] = Array("{}[]\":,0123456789-+.eEtrufalsn \\u\"dDcC8".utf8) + [0xC3, 0xA9, 0xED, 0xF0]
        let text = Gen.element(of: alphabet).compactMap { $0 }.array(of: 0...48)
        await propertyCheck(count: 3000, input: text) { input throws in
            if let value = try? JSONParser.parse(input) {
                // Whatever is accepted must survive a write/parse cycle.
                #expect((try? JSONParser.parse(JSONWriter.encode(value))) == value)
            }
        }
    }

    private func error(of text: String) -> JSONParseError? {
        do {
            _ = try JSONParser.parse(text)
            return nil
        } catch {
            return error
        }
    }

    private func reason(of text: String) -> JSONParseError.Reason? {
        error(of: text)?.reason
    }
}
