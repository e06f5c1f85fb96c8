/// Builds compact JSON in a growable byte buffer it owns, with no intermediate strings.
///
/// Commas are inserted automatically: write `key`, then a value; write array elements one
/// after the other. Doubles print as the shortest text that parses back to the same value,
/// integral ones without ".0" (1366, not 1366.0); NaN and infinities, which JSON cannot
/// carry, are written as `null`. Strings escape `"`, `\` and control characters; other
/// characters pass through as UTF-8.
///
/// Non-copyable because it owns raw storage: appending to it is a bounds check and a store,
/// much cheaper than `Array.append` per token, and the response encoder spends most of its
/// time appending a few bytes at a time.
public struct JSONWriter: ~Copyable, @unchecked Sendable {
    private var base: UnsafeMutablePointer<UInt8>
    /// Bytes written so far.
    public private(set) var count: Int
    private var capacity: Int
    /// True after a value, so the next key or element needs a comma first.
    var needsComma = false

    public init(capacity: Int = 1024) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
        count = 0
    }

    /// A writer whose output starts with `bytes`.
    public init(bytes: [UInt8]) {
        self.init(capacity: bytes.count + 1024)
        bytes.withUnsafeBufferPointer { appendBytes($0) }
    }

    deinit {
        base.deallocate()
    }

    /// A copy of the output.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// Empties the writer and keeps its storage: a writer reused for every message of the
    /// loop spares the allocation of its buffer per message (1 KiB for a change response).
    public mutating func removeAll() {
        count = 0
        needsComma = false
    }

    /// Lends the output without copying it.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Runs `body` with a fresh writer, then appends its output to `buffer` (one copy).
    public static func append(to buffer: inout [UInt8], _ body: (inout JSONWriter) -> Void) {
        var writer = JSONWriter()
        body(&writer)
        writer.withBytes { buffer.append(contentsOf: $0) }
    }

    /// `value` as compact JSON bytes.
    public static func encode(_ value: JSONValue) -> [UInt8] {
        var writer = JSONWriter()
        writer.write(value)
        return writer.bytes
    }

    /// `value` as compact JSON text.
    public static func string(_ value: JSONValue) -> String {
        var writer = JSONWriter()
        writer.write(value)
        return writer.withBytes { String(decoding: $0, as: UTF8.self) }
    }

    // MARK: Raw storage

    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(toFit: extra) }
    }

    @inline(never)
    private mutating func grow(toFit extra: Int) {
        let newCapacity = max(capacity * 2, count + extra)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inline(__always)
    mutating func appendByte(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func appendBytes(_ source: UnsafeBufferPointer<UInt8>) {
        guard let start = source.baseAddress else { return }
        reserve(source.count)
        copy(start, count: source.count, to: base + count)
        count += source.count
    }

    /// Most copies are field names and short ids, where a loop beats a call to memmove.
    @inline(__always)
    private func copy(_ source: UnsafePointer<UInt8>, count length: Int, to target: UnsafeMutablePointer<UInt8>) {
        if length <= 16 {
            for index in 0..<length { target[index] = source[index] }
        } else {
            target.update(from: source, count: length)
        }
    }

    /// Appends the bytes of `text` verbatim.
    @inline(__always)
    mutating func appendStatic(_ text: StaticString) {
        appendBytes(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    // MARK: Structure

    @inline(__always)
    mutating func separate() {
        if needsComma { appendByte(UInt8(ascii: ",")) }
    }

    @inline(__always)
    public mutating func beginObject() {
        separate()
        appendByte(UInt8(ascii: "{"))
        needsComma = false
    }

    @inline(__always)
    public mutating func endObject() {
        appendByte(UInt8(ascii: "}"))
        needsComma = true
    }

    @inline(__always)
    public mutating func beginArray() {
        separate()
        appendByte(UInt8(ascii: "["))
        needsComma = false
    }

    @inline(__always)
    public mutating func endArray() {
        appendByte(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes `"name":` (escaped); the next write is its value.
    public mutating func key(_ name: String) {
        separate()
        writeEscaped(name)
        appendByte(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes `"name":` for a name known to need no escaping (the protocol's field names).
    /// Inlined, like the other fixed tokens: with the name a constant at each call site, the
    /// copy becomes a few stores.
    @inline(__always)
    public mutating func rawKey(_ name: StaticString) {
        let length = name.utf8CodeUnitCount
        reserve(length + 4)
        if needsComma {
            base[count] = UInt8(ascii: ",")
            count += 1
        }
        base[count] = UInt8(ascii: "\"")
        copy(name.utf8Start, count: length, to: base + count + 1)
        base[count + 1 + length] = UInt8(ascii: "\"")
        base[count + 2 + length] = UInt8(ascii: ":")
        count += length + 3
        needsComma = false
    }

    /// Ends a line (the wire's message terminator) and starts a fresh top-level value.
    public mutating func newline() {
        appendByte(UInt8(ascii: "\n"))
        needsComma = false
    }

    /// Appends pre-encoded object members (`"a":1,"b":2`) after the members written so far.
    public mutating func appendMembers(_ members: [UInt8]) {
        guard !members.isEmpty else { return }
        separate()
        members.withUnsafeBufferPointer { appendBytes($0) }
        needsComma = true
    }

    // MARK: Scalars

    @inline(__always)
    public mutating func writeNull() {
        separate()
        appendStatic("null")
        needsComma = true
    }

    @inline(__always)
    public mutating func write(_ value: Bool) {
        separate()
        if value { appendStatic("true") } else { appendStatic("false") }
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
    @inline(__always)
    public mutating func writeRaw(_ value: StaticString) {
        separate()
        appendByte(UInt8(ascii: "\""))
        appendStatic(value)
        appendByte(UInt8(ascii: "\""))
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
        reserve(20)
        if value < 0 {
            base[count] = UInt8(ascii: "-")
            count += 1
        }
        var magnitude = value.magnitude
        var digits = 1
        var scale: UInt64 = 10
        while digits < 20, magnitude >= scale {
            digits += 1
            scale &*= 10
        }
        var index = count + digits
        count = index
        repeat {
            index -= 1
            base[index] = UInt8(truncatingIfNeeded: magnitude % 10) &+ UInt8(ascii: "0")
            magnitude /= 10
        } while magnitude != 0
    }

    private mutating func appendNumber(_ value: Double) {
        guard value.isFinite else { return appendStatic("null") }
        // Integral values below 2^53 print as integers; beyond, the shortest form
        // ("1e+20") is both shorter and exact.
        if value.rounded(.towardZero) == value, abs(value) < 9_007_199_254_740_992 {
            return appendDecimal(Int64(value))
        }
        // The standard library's description is the shortest round-tripping text and is
        // valid JSON for finite values ("0.1", "1e-05", "1.5e+300").
        var text = value.description
        text.withUTF8 { appendBytes($0) }
    }

    // MARK: String text

    private mutating func writeEscaped(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            reserve(utf8.count + 2)
            base[count] = UInt8(ascii: "\"")
            count += 1
            appendEscaped(utf8)
            appendByte(UInt8(ascii: "\""))
        }
    }

    private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        if !mayNeedEscaping(utf8) { return appendBytes(utf8) }
        var runStart = 0
        for index in 0..<utf8.count {
            let byte = utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            if runStart < index { appendBytes(UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
            appendEscape(of: byte)
            runStart = index + 1
        }
        if runStart < utf8.count { appendBytes(UnsafeBufferPointer(rebasing: utf8[runStart...])) }
    }

    /// False when no byte is a control character, `"` or `\`, tested 8 bytes at a time
    /// (SWAR "has byte less than / equal to" tests; exact, no false negatives).
    private func mayNeedEscaping(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let start = utf8.baseAddress else { return false }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        func hasSpecialByte(_ word: UInt64) -> Bool {
            let control = (word &- ones &* 0x20) & ~word
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            let quoteZero = (quote &- ones) & ~quote
            let backslashZero = (backslash &- ones) & ~backslash
            return (control | quoteZero | backslashZero) & highBits != 0
        }
        var index = 0
        while index + 8 <= utf8.count {
            let word = UnsafeRawPointer(start + index).loadUnaligned(as: UInt64.self)
            if hasSpecialByte(word) { return true }
            index += 8
        }
        while index < utf8.count {
            let byte = start[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return true }
            index += 1
        }
        return false
    }

    private mutating func appendEscape(of byte: UInt8) {
        appendByte(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""): appendByte(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): appendByte(UInt8(ascii: "\\"))
        case 0x0A: appendByte(UInt8(ascii: "n"))
        case 0x0D: appendByte(UInt8(ascii: "r"))
        case 0x09: appendByte(UInt8(ascii: "t"))
        case 0x08: appendByte(UInt8(ascii: "b"))
        case 0x0C: appendByte(UInt8(ascii: "f"))
        default:
            appendStatic("u00")
            appendByte(hexDigit(byte >> 4))
            appendByte(hexDigit(byte & 0xF))
        }
    }

    private func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
