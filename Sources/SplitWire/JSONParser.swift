/// A strict RFC 8259 parser over UTF-8 bytes: exactly one value, optionally surrounded by
/// whitespace. Rejects invalid UTF-8, unpaired surrogate escapes, leading zeros, trailing
/// commas, duplicate object keys (ours: a request with two `id`s is ambiguous), nesting
/// deeper than `maxDepth`, and numbers too large for a Double. No Foundation; strings
/// without escapes are built straight from the input bytes.
public struct JSONParser: Sendable {
    public static let defaultMaxDepth = 64

    /// Deepest accepted nesting of arrays and objects (64: the 64th container parses, the
    /// 65th is refused).
    public var maxDepth: Int

    public init(maxDepth: Int = JSONParser.defaultMaxDepth) {
        self.maxDepth = maxDepth
    }

    public func parse(_ bytes: UnsafeRawBufferPointer) throws(JSONParseError) -> JSONValue {
        guard let base = bytes.baseAddress, bytes.count > 0 else { throw JSONParseError(.empty, at: 0) }
        var cursor = JSONCursor(base: base.assumingMemoryBound(to: UInt8.self), end: bytes.count, maxDepth: maxDepth)
        return try cursor.parseDocument()
    }

    public func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        try bytes.withUnsafeBytes { raw in Result { () throws(JSONParseError) in try parse(raw) } }.get()
    }

    public func parse(_ bytes: ArraySlice<UInt8>) throws(JSONParseError) -> JSONValue {
        try bytes.withUnsafeBytes { raw in Result { () throws(JSONParseError) in try parse(raw) } }.get()
    }

    public func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        var text = text
        return try text.withUTF8 { utf8 in
            Result { () throws(JSONParseError) in try parse(UnsafeRawBufferPointer(utf8)) }
        }.get()
    }

    /// Parses with the default depth limit.
    public static func parse(_ bytes: UnsafeRawBufferPointer) throws(JSONParseError) -> JSONValue {
        try JSONParser().parse(bytes)
    }

    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        try JSONParser().parse(bytes)
    }

    public static func parse(_ bytes: ArraySlice<UInt8>) throws(JSONParseError) -> JSONValue {
        try JSONParser().parse(bytes)
    }

    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try JSONParser().parse(text)
    }
}

// ASCII bytes the grammar names.
private enum Byte {
    static let quote: UInt8 = 0x22, backslash: UInt8 = 0x5C, slash: UInt8 = 0x2F
    static let comma: UInt8 = 0x2C, colon: UInt8 = 0x3A
    static let openBrace: UInt8 = 0x7B, closeBrace: UInt8 = 0x7D
    static let openBracket: UInt8 = 0x5B, closeBracket: UInt8 = 0x5D
    static let minus: UInt8 = 0x2D, plus: UInt8 = 0x2B, dot: UInt8 = 0x2E
    static let zero: UInt8 = 0x30, nine: UInt8 = 0x39
    static let lowerE: UInt8 = 0x65, upperE: UInt8 = 0x45
    static let space: UInt8 = 0x20, tab: UInt8 = 0x09, newline: UInt8 = 0x0A, carriageReturn: UInt8 = 0x0D
}

/// Exact powers of ten for the fast double path (10^22 is the largest exact in a Double).
private let exactPowersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]

/// The parsing state over one input buffer.
struct JSONCursor {
    let base: UnsafePointer<UInt8>
    let end: Int
    let maxDepth: Int
    var position = 0
    /// Reused for strings with escapes.
    var scratch: [UInt8] = []

    init(base: UnsafePointer<UInt8>, end: Int, maxDepth: Int) {
        self.base = base
        self.end = end
        self.maxDepth = maxDepth
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        guard position < end else { throw JSONParseError(.empty, at: position) }
        let value = try parseValue(depth: 0)
        skipWhitespace()
        guard position == end else { throw JSONParseError(.trailingGarbage, at: position) }
        return value
    }

    // MARK: Values

    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        guard position < end else { throw JSONParseError(.unexpectedEnd, at: position) }
        switch base[position] {
        case Byte.openBrace: return try parseObject(depth: depth + 1)
        case Byte.openBracket: return try parseArray(depth: depth + 1)
        case Byte.quote: return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case Byte.minus, Byte.zero...Byte.nine: return try parseNumber()
        case let byte: throw unexpected(byte, expected: "a JSON value")
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= maxDepth else { throw JSONParseError(.tooDeep(limit: maxDepth), at: position) }
        position += 1
        skipWhitespace()
        if position < end, base[position] == Byte.closeBrace {
            position += 1
            return .object(JSONObject())
        }
        // One allocation for the typical object (a request has 3-6 members) instead of
        // repeated growth from empty; cheaper than a shared member stack, which costs a
        // copy and a release per member.
        var members: [JSONMember] = []
        members.reserveCapacity(8)
        var largeObjectKeys: Set<String>? = nil
        while true {
            skipWhitespace()
            guard position < end else { throw JSONParseError(.unexpectedEnd, at: position) }
            guard base[position] == Byte.quote else { throw unexpected(base[position], expected: "a string key") }
            let keyOffset = position
            let key = try parseString()
            if isDuplicate(key, in: members, largeObjectKeys: &largeObjectKeys) {
                throw JSONParseError(.duplicateKey(key), at: keyOffset)
            }
            try expectSeparator(Byte.colon, expected: "':'")
            let value = try parseValue(depth: depth)
            members.append(JSONMember(key: key, value: value))
            skipWhitespace()
            guard position < end else { throw JSONParseError(.unexpectedEnd, at: position) }
            switch base[position] {
            case Byte.comma: position += 1
            case Byte.closeBrace:
                position += 1
                return .object(JSONObject(uniqueMembers: members))
            case let byte: throw unexpected(byte, expected: "',' or '}'")
            }
        }
    }

    /// Scans the members of the current object; past `JSONObject.indexThreshold` members a
    /// set takes over so huge objects stay linear.
    private func isDuplicate(_ key: String, in members: [JSONMember], largeObjectKeys: inout Set<String>?) -> Bool {
        if largeObjectKeys != nil { return !largeObjectKeys!.insert(key).inserted }
        if members.count < JSONObject.indexThreshold {
            for member in members where member.key == key { return true }
            return false
        }
        var keys = Set(members.map(\.key))
        let inserted = keys.insert(key).inserted
        largeObjectKeys = keys
        return !inserted
    }

    private mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= maxDepth else { throw JSONParseError(.tooDeep(limit: maxDepth), at: position) }
        position += 1
        skipWhitespace()
        if position < end, base[position] == Byte.closeBracket {
            position += 1
            return .array([])
        }
        var elements: [JSONValue] = []
        elements.reserveCapacity(4)
        while true {
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            guard position < end else { throw JSONParseError(.unexpectedEnd, at: position) }
            switch base[position] {
            case Byte.comma: position += 1
            case Byte.closeBracket:
                position += 1
                return .array(elements)
            case let byte: throw unexpected(byte, expected: "',' or ']'")
            }
        }
    }

    // MARK: Strings

    /// Parses a string starting at its opening quote.
    mutating func parseString() throws(JSONParseError) -> String {
        position += 1
        let start = position
        // Fast path: no escapes, so the input bytes are the string.
        while position < end {
            let byte = base[position]
            if byte == Byte.quote {
                let text = String(
                    decoding: UnsafeBufferPointer(start: base + start, count: position - start),
                    as: UTF8.self)
                position += 1
                return text
            }
            if byte == Byte.backslash { return try parseEscapedString(from: start) }
            if byte < 0x20 { throw JSONParseError(.controlCharacterInString, at: position) }
            if byte < 0x80 { position += 1 } else { try skipUTF8Sequence() }
        }
        throw JSONParseError(.unexpectedEnd, at: position)
    }

    /// Continues a string at its first backslash, decoding into `scratch`.
    private mutating func parseEscapedString(from start: Int) throws(JSONParseError) -> String {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(start: base + start, count: position - start))
        while position < end {
            let byte = base[position]
            switch byte {
            case Byte.quote:
                position += 1
                return String(decoding: scratch, as: UTF8.self)
            case Byte.backslash:
                try decodeEscape()
            case ..<0x20:
                throw JSONParseError(.controlCharacterInString, at: position)
            case ..<0x80:
                scratch.append(byte)
                position += 1
            default:
                let sequenceStart = position
                try skipUTF8Sequence()
                scratch.append(
                    contentsOf: UnsafeBufferPointer(
                        start: base + sequenceStart,
                        count: position - sequenceStart))
            }
        }
        throw JSONParseError(.unexpectedEnd, at: position)
    }

    /// Decodes one escape at a backslash into `scratch`.
    private mutating func decodeEscape() throws(JSONParseError) {
        let escapeStart = position
        position += 1
        guard position < end else { throw JSONParseError(.unexpectedEnd, at: position) }
        let decoded: UInt8
        switch base[position] {
        case Byte.quote: decoded = Byte.quote
        case Byte.backslash: decoded = Byte.backslash
        case Byte.slash: decoded = Byte.slash
        case UInt8(ascii: "b"): decoded = 0x08
        case UInt8(ascii: "f"): decoded = 0x0C
        case UInt8(ascii: "n"): decoded = 0x0A
        case UInt8(ascii: "r"): decoded = 0x0D
        case UInt8(ascii: "t"): decoded = 0x09
        case UInt8(ascii: "u"):
            position += 1
            try decodeUnicodeEscape(escapeStart: escapeStart)
            return
        default:
            throw JSONParseError(.invalidEscape, at: escapeStart)
        }
        scratch.append(decoded)
        position += 1
    }

    /// Decodes the hex digits of `\uXXXX` (and a following low surrogate escape).
    private mutating func decodeUnicodeEscape(escapeStart: Int) throws(JSONParseError) {
        let unit = try readHex4(escapeStart: escapeStart)
        var scalarValue = UInt32(unit)
        switch unit {
        case 0xD800...0xDBFF:
            guard position + 1 < end, base[position] == Byte.backslash, base[position + 1] == UInt8(ascii: "u") else {
                throw JSONParseError(.loneSurrogate, at: escapeStart)
            }
            position += 2
            let low = try readHex4(escapeStart: position - 2)
            guard (0xDC00...0xDFFF).contains(low) else { throw JSONParseError(.loneSurrogate, at: escapeStart) }
            scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
        case 0xDC00...0xDFFF:
            throw JSONParseError(.loneSurrogate, at: escapeStart)
        default:
            break
        }
        // Surrogates were excluded above, so the scalar always exists.
        let scalar = Unicode.Scalar(scalarValue)!
        scratch.append(contentsOf: UTF8.encode(scalar)!)
    }

    private mutating func readHex4(escapeStart: Int) throws(JSONParseError) -> UInt16 {
        guard position + 4 <= end else { throw JSONParseError(.invalidEscape, at: escapeStart) }
        var value: UInt16 = 0
        for offset in 0..<4 {
            guard let digit = hexDigitValue(base[position + offset]) else {
                throw JSONParseError(.invalidEscape, at: escapeStart)
            }
            value = value << 4 | UInt16(digit)
        }
        position += 4
        return value
    }

    private func hexDigitValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case Byte.zero...Byte.nine: byte - Byte.zero
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Validates one multi-byte UTF-8 sequence at `position` (RFC 3629: no overlongs, no
    /// surrogates, nothing above U+10FFFF) and steps over it.
    private mutating func skipUTF8Sequence() throws(JSONParseError) {
        let lead = base[position]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default: throw JSONParseError(.invalidUTF8, at: position)
        }
        guard position + length <= end, secondRange.contains(base[position + 1]) else {
            throw JSONParseError(.invalidUTF8, at: position)
        }
        for offset in 2..<length where base[position + offset] & 0xC0 != 0x80 {
            throw JSONParseError(.invalidUTF8, at: position)
        }
        position += length
    }

    // MARK: Numbers

    private func isDigit(at index: Int) -> Bool {
        index < end && base[index] >= Byte.zero && base[index] <= Byte.nine
    }

    private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = position
        let negative = base[position] == Byte.minus
        if negative { position += 1 }
        guard isDigit(at: position) else {
            throw position < end
                ? JSONParseError(.invalidNumber, at: start)
                : JSONParseError(.unexpectedEnd, at: position)
        }
        // Up to 19 digits accumulate exactly; more force the slow path.
        var mantissa: UInt64 = 0
        var mantissaOverflowed = false
        func accumulate(_ byte: UInt8) {
            if mantissa < 1_000_000_000_000_000_000 {
                mantissa = mantissa * 10 + UInt64(byte - Byte.zero)
            } else {
                mantissaOverflowed = true
            }
        }
        if base[position] == Byte.zero {
            position += 1
            if isDigit(at: position) { throw JSONParseError(.leadingZero, at: start) }
        } else {
            while isDigit(at: position) { accumulate(base[position]); position += 1 }
        }
        var isInteger = true
        var fractionDigits = 0
        if position < end, base[position] == Byte.dot {
            isInteger = false
            position += 1
            guard isDigit(at: position) else { throw JSONParseError(.invalidNumber, at: start) }
            while isDigit(at: position) {
                accumulate(base[position])
                if !mantissaOverflowed { fractionDigits += 1 }
                position += 1
            }
        }
        var exponent = 0
        if position < end, base[position] == Byte.lowerE || base[position] == Byte.upperE {
            isInteger = false
            position += 1
            var exponentNegative = false
            if position < end, base[position] == Byte.plus || base[position] == Byte.minus {
                exponentNegative = base[position] == Byte.minus
                position += 1
            }
            guard isDigit(at: position) else { throw JSONParseError(.invalidNumber, at: start) }
            while isDigit(at: position) {
                if exponent < 100_000 { exponent = exponent * 10 + Int(base[position] - Byte.zero) }
                position += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        if !mantissaOverflowed,
            let magnitude = isInteger ? mantissa : Self.exactInteger(mantissa, exponent: exponent - fractionDigits)
        {
            if !negative, magnitude <= UInt64(Int64.max) { return .int(Int64(magnitude)) }
            if negative, magnitude <= UInt64(Int64.max) + 1 { return .int(Int64(truncatingIfNeeded: 0 &- magnitude)) }
        }
        return .double(
            try makeDouble(
                start: start, negative: negative, mantissa: mantissa,
                overflowed: mantissaOverflowed, exponent: exponent - fractionDigits))
    }

    /// `mantissa` × 10^`exponent` when that is a whole number below 2^53 (`3.0`, `1e3`; not
    /// `35e-1`), else nil. Such a number reads as `.int`, whatever way it was written, so a
    /// `.double` is never a whole number a client meant exactly: a fraction
    /// (`1.0000000000000001`, which a Double rounds to 1) or a magnitude a Double only
    /// approximates. Below 2^53 the Double would be the same integer, so values written by
    /// `JSONWriter` read back equal; above, the writer's shortest form (`1.1e+18`) is not the
    /// Double's exact value and stays a Double.
    private static func exactInteger(_ mantissa: UInt64, exponent: Int) -> UInt64? {
        if mantissa == 0 { return 0 }
        guard exponent.magnitude <= 19 else { return nil }
        var power: UInt64 = 1
        for _ in 0..<exponent.magnitude { power *= 10 }
        let whole: UInt64
        if exponent >= 0 {
            let (product, overflow) = mantissa.multipliedReportingOverflow(by: power)
            guard !overflow else { return nil }
            whole = product
        } else {
            guard mantissa % power == 0 else { return nil }
            whole = mantissa / power
        }
        return whole < 1 << 53 ? whole : nil
    }

    /// Clinger's fast path when mantissa and power of ten are both exact Doubles (one
    /// correctly rounded operation); otherwise the standard library's correctly rounded parse.
    private func makeDouble(
        start: Int, negative: Bool, mantissa: UInt64, overflowed: Bool,
        exponent: Int
    ) throws(JSONParseError) -> Double {
        if !overflowed, mantissa < (1 << 53), exponent >= -22, exponent <= 22 {
            let magnitude =
                exponent < 0
                ? Double(mantissa) / exactPowersOfTen[-exponent]
                : Double(mantissa) * exactPowersOfTen[exponent]
            return negative ? -magnitude : magnitude
        }
        let text = String(decoding: UnsafeBufferPointer(start: base + start, count: position - start), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw JSONParseError(.numberOutOfRange, at: start) }
        return value
    }

    // MARK: Tokens

    mutating func skipWhitespace() {
        while position < end {
            switch base[position] {
            case Byte.space, Byte.newline, Byte.carriageReturn, Byte.tab: position += 1
            default: return
            }
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        let bytes = literal.utf8Start
        for offset in 0..<count {
            guard position + offset < end else { throw JSONParseError(.unexpectedEnd, at: position + offset) }
            guard base[position + offset] == bytes[offset] else {
                throw unexpected(base[position + offset], at: position + offset, expected: "'\(literal)'")
            }
        }
        position += count
    }

    private mutating func expectSeparator(_ separator: UInt8, expected: String) throws(JSONParseError) {
        skipWhitespace()
        guard position < end else { throw JSONParseError(.unexpectedEnd, at: position) }
        guard base[position] == separator else { throw unexpected(base[position], expected: expected) }
        position += 1
    }

    private func unexpected(_ byte: UInt8, at offset: Int? = nil, expected: String) -> JSONParseError {
        JSONParseError(.unexpectedByte(byte, expected: expected), at: offset ?? position)
    }
}
