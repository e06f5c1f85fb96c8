/// Appends compact JSON to a byte buffer, with no intermediate strings.
///
/// Commas are inserted automatically: write `key`, then a value; write array elements one
/// after the other. Doubles print as the shortest text that parses back to the same value,
/// integral ones without ".0" (1366, not 1366.0); NaN and infinities, which JSON cannot
/// carry, are written as `null`. Strings escape `"`, `\` and control characters; other
/// characters pass through as UTF-8.
public struct JSONWriter: Sendable {
    public var bytes: [UInt8]
    /// True after a value, so the next key or element needs a comma first.
    var needsComma = false

    public init(bytes: [UInt8] = []) {
        self.bytes = bytes
    }

    /// Runs `body` with a writer appending to `buffer` in place (no copy of the buffer).
    public static func append(to buffer: inout [UInt8], _ body: (inout JSONWriter) -> Void) {
        var writer = JSONWriter()
        swap(&writer.bytes, &buffer)
        body(&writer)
        swap(&writer.bytes, &buffer)
    }

    /// `value` as compact JSON bytes.
    public static func encode(_ value: JSONValue) -> [UInt8] {
        var writer = JSONWriter()
        writer.write(value)
        return writer.bytes
    }

    /// `value` as compact JSON text.
    public static func string(_ value: JSONValue) -> String {
        String(decoding: encode(value), as: UTF8.self)
    }

    // MARK: Structure

    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes `"name":` (escaped); the next write is its value.
    public mutating func key(_ name: String) {
        separate()
        writeEscaped(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes `"name":` for a name known to need no escaping (the protocol's field names).
    public mutating func rawKey(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        appendStatic(name)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Ends a line (the wire's message terminator) and starts a fresh top-level value.
    public mutating func newline() {
        bytes.append(UInt8(ascii: "\n"))
        needsComma = false
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    // MARK: Scalars

    public mutating func writeNull() {
        separate()
        appendStatic("null")
        needsComma = true
    }

    public mutating func write(_ value: Bool) {
        separate()
        appendStatic(value ? "true" : "false")
        needsComma = true
    }

    public mutating func write(_ value: Int) {
        write(Int64(value))
    }

    public mutating func write(_ value: Int64) {
        separate()
        appendDecimal(value)
        needsComma = true
    }

    public mutating func write(_ value: Double) {
        separate()
        appendNumber(value)
        needsComma = true
    }

    public mutating func write(_ value: String) {
        separate()
        writeEscaped(value)
        needsComma = true
    }

    /// Writes a string known to need no escaping (enum raw values, fixed names).
    public mutating func writeRaw(_ value: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        appendStatic(value)
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    public mutating func write(_ value: JSONValue) {
        switch value {
        case .null: writeNull()
        case .bool(let flag): write(flag)
        case .int(let number): write(number)
        case .double(let number): write(number)
        case .string(let text): write(text)
        case .array(let elements):
            beginArray()
            for element in elements { write(element) }
            endArray()
        case .object(let object):
            beginObject()
            for member in object {
                key(member.key)
                write(member.value)
            }
            endObject()
        }
    }

    // MARK: Number text

    private mutating func appendDecimal(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        // 20 digits hold UInt64.max; digits are produced backwards into a stack tuple.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            var index = buffer.count
            repeat {
                index -= 1
                buffer[index] = UInt8(truncatingIfNeeded: magnitude % 10) + UInt8(ascii: "0")
                magnitude /= 10
            } while magnitude != 0
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[index...]))
        }
    }

    /// Appends the bytes of `text` verbatim.
    mutating func appendStatic(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private mutating func appendNumber(_ value: Double) {
        guard value.isFinite else {
            appendStatic("null")
            return
        }
        // Integral values below 2^53 print as integers; beyond, the shortest form
        // ("1e+20") is both shorter and exact.
        if value.rounded(.towardZero) == value, abs(value) < 9_007_199_254_740_992 {
            appendDecimal(Int64(value))
            return
        }
        // The standard library's description is the shortest round-tripping text and is
        // valid JSON for finite values ("0.1", "1e-05", "1.5e+300").
        bytes.append(contentsOf: value.description.utf8)
    }

    // MARK: String text

    private mutating func writeEscaped(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in appendEscaped(utf8) }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        for index in 0..<utf8.count {
            let byte = utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            if runStart < index {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
            }
            appendEscape(of: byte)
            runStart = index + 1
        }
        if runStart < utf8.count {
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
    }

    private mutating func appendEscape(of byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        default:
            appendStatic("u00")
            bytes.append(hexDigit(byte >> 4))
            bytes.append(hexDigit(byte & 0xF))
        }
    }

    private func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
