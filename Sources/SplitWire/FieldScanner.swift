// Reads a JSON document of a known shape straight from its bytes, field by field: no tree,
// no Codable containers, no key strings (keys are compared as bytes against a table).
// Syntax is checked as strictly as JSONParser checks it, by the same cursor (strings,
// numbers, literals and skipped values are JSONCursor's); only the walk is new.

/// A decoding failure of a stored document: what was wrong and the byte offset where.
public struct StoredDocumentError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var offset: Int

    public init(_ message: String, at offset: Int) {
        self.message = message
        self.offset = offset
    }

    public var description: String { "\(message) at byte \(offset)" }
}

/// Names that a field or an enumeration case may take, with what each one means; lookup
/// compares bytes, so matching a key allocates nothing. The names live back to back in one
/// buffer allocated once and never freed: tables are program constants, and comparing in
/// place needs no array per name and no retain, which a restart pays for every member of
/// every stored scene state.
struct NameTable<Value: Sendable>: @unchecked Sendable {
    private let bytes: UnsafePointer<UInt8>
    /// Where each name starts in `bytes`, plus the end of the last one.
    private let starts: UnsafePointer<Int>
    private let values: [Value]
    let count: Int

    init(_ entries: [(String, Value)]) {
        let all = entries.flatMap { Array($0.0.utf8) }
        let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, all.count))
        bytes.initialize(from: all, count: all.count)
        let starts = UnsafeMutablePointer<Int>.allocate(capacity: entries.count + 1)
        var offset = 0
        for (index, entry) in entries.enumerated() {
            starts[index] = offset
            offset += entry.0.utf8.count
        }
        starts[entries.count] = offset
        self.bytes = UnsafePointer(bytes)
        self.starts = UnsafePointer(starts)
        values = entries.map(\.1)
        count = entries.count
    }

    func name(_ index: Int) -> String {
        String(
            decoding: UnsafeBufferPointer(start: bytes + starts[index], count: starts[index + 1] - starts[index]),
            as: UTF8.self)
    }

    /// The index of the name spelled by `text`, trying `hint` first (the next field in
    /// the encoder's order), or nil.
    func index(of text: UnsafeBufferPointer<UInt8>, hint: Int) -> Int? {
        guard let base = text.baseAddress else { return indexOfEmpty() }
        if hint < count, matches(hint, base, text.count) { return hint }
        for index in 0..<count where index != hint && matches(index, base, text.count) { return index }
        return nil
    }

    /// The length of name `index` if the quoted text at `base` (just past its opening quote,
    /// `available` bytes left) is exactly that name: the name's bytes then a closing quote.
    /// Names are plain ASCII, so such text is a valid JSON string with no escapes.
    @inline(__always)
    func quotedLength(_ index: Int, at base: UnsafePointer<UInt8>, available: Int) -> Int? {
        guard index < count else { return nil }
        let length = starts[index + 1] - starts[index]
        guard length < available, base[length] == UInt8(ascii: "\""), matches(index, base, length) else { return nil }
        return length
    }

    func value(_ index: Int) -> Value { values[index] }

    private func indexOfEmpty() -> Int? {
        for index in 0..<count where starts[index + 1] == starts[index] { return index }
        return nil
    }

    @inline(__always)
    private func matches(_ index: Int, _ text: UnsafePointer<UInt8>, _ length: Int) -> Bool {
        let start = starts[index]
        guard starts[index + 1] - start == length else { return false }
        // Eight bytes at a time: config keys run to 41 bytes.
        let name = UnsafeRawPointer(bytes + start)
        let other = UnsafeRawPointer(text)
        var offset = 0
        while offset + 8 <= length {
            guard
                name.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    == other.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            else { return false }
            offset += 8
        }
        while offset < length {
            guard
                name.load(fromByteOffset: offset, as: UInt8.self)
                    == other.load(fromByteOffset: offset, as: UInt8.self)
            else {
                return false
            }
            offset += 1
        }
        return true
    }
}

extension NameTable where Value == Int {
    /// Field names, each meaning its position.
    init(fields: [String]) {
        self.init(fields.enumerated().map { ($0.element, $0.offset) })
    }
}

extension NameTable where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// The cases of an enumeration by raw value, plus `aliases`.
    init(cases type: Value.Type, aliases: [(String, Value)] = []) {
        self.init(type.allCases.map { ($0.rawValue, $0) } + aliases)
    }
}

/// The members of one object being read: which known fields were seen (a repeated one is
/// refused, as JSONParser refuses duplicate keys) and where the walk stands.
struct ObjectMembers {
    fileprivate var started = false
    fileprivate(set) var seen: UInt64 = 0
    fileprivate var hint = 0
    /// Offset of the object's opening brace, for errors about missing fields.
    let offset: Int

    init(offset: Int) {
        self.offset = offset
    }
}

/// A position in a document being read. Nesting is bounded by the caller's shape; values it
/// skips (unknown fields) go through JSONCursor with JSONParser's depth limit.
struct FieldScanner {
    private var cursor: JSONCursor
    /// Containers open around the current position.
    private var depth = 0

    init(base: UnsafePointer<UInt8>, count: Int) {
        cursor = JSONCursor(base: base, end: count, maxDepth: JSONParser.defaultMaxDepth)
    }

    var offset: Int { cursor.position }

    func failure(_ message: String, at offset: Int? = nil) -> StoredDocumentError {
        StoredDocumentError(message, at: offset ?? cursor.position)
    }

    private func syntax(_ error: JSONParseError) -> StoredDocumentError {
        StoredDocumentError("invalid JSON: \(error)", at: error.offset)
    }

    // MARK: Document and structure

    /// Nothing but whitespace may follow the document's value.
    mutating func finish() throws(StoredDocumentError) {
        cursor.skipWhitespace()
        guard cursor.position == cursor.end else { throw failure("trailing bytes after the document") }
    }

    /// The next byte after whitespace, or nil at the end.
    @inline(__always)
    mutating func peek() -> UInt8? {
        // Compact documents have no whitespace: one look at the next byte.
        if cursor.position < cursor.end, cursor.base[cursor.position] > UInt8(ascii: " ") {
            return cursor.base[cursor.position]
        }
        cursor.skipWhitespace()
        return cursor.position < cursor.end ? cursor.base[cursor.position] : nil
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(StoredDocumentError) {
        guard let next = peek() else { throw failure("unexpected end, expected \(what)") }
        guard next == byte else { throw failure("expected \(what)") }
        cursor.position += 1
    }

    /// Opens an object (`{`) whose members the caller reads with `nextField`.
    mutating func beginObject(_ what: String) throws(StoredDocumentError) -> ObjectMembers {
        guard let next = peek() else { throw failure("unexpected end, expected \(what)") }
        guard next == UInt8(ascii: "{") else { throw failure("\(what) must be an object") }
        let members = ObjectMembers(offset: cursor.position)
        cursor.position += 1
        depth += 1
        return members
    }

    /// The next member's field index in `fields` (`fields.count` for an unknown key, whose
    /// value the caller must `skipValue`), positioned at its value; nil after the closing brace.
    mutating func nextField(
        _ fields: NameTable<Int>, _ members: inout ObjectMembers
    )
        throws(StoredDocumentError) -> Int?
    {
        guard let next = peek() else { throw failure("unexpected end inside an object") }
        if next == UInt8(ascii: "}") {
            cursor.position += 1
            depth -= 1
            return nil
        }
        if members.started {
            guard next == UInt8(ascii: ",") else { throw failure("expected ',' or '}'") }
            cursor.position += 1
            guard peek() == UInt8(ascii: "\"") else { throw failure("expected a key") }
        } else {
            guard next == UInt8(ascii: "\"") else { throw failure("expected a key or '}'") }
            members.started = true
        }
        let keyOffset = cursor.position
        let field = try readKey(fields, hint: members.hint)
        if cursor.position < cursor.end, cursor.base[cursor.position] == UInt8(ascii: ":") {
            cursor.position += 1
        } else {
            try expect(UInt8(ascii: ":"), "':'")
        }
        guard let field else { return fields.count }
        let bit: UInt64 = 1 << UInt64(field)
        guard members.seen & bit == 0 else { throw failure("duplicate key '\(fields.name(field))'", at: keyOffset) }
        members.seen |= bit
        members.hint = field + 1
        return field
    }

    /// Matches the key at the cursor (its opening quote) without building a string when it
    /// is plain ASCII without escapes, as every encoder writes field names.
    private mutating func readKey(_ fields: NameTable<Int>, hint: Int) throws(StoredDocumentError) -> Int? {
        let start = cursor.position + 1
        // The hinted field first (fields come in the encoder's order), then the others (an
        // optional field before was omitted); a name of another length fails at one byte.
        var field = hint < fields.count ? hint : 0
        for _ in 0..<fields.count {
            if let length = fields.quotedLength(field, at: cursor.base + start, available: cursor.end - start) {
                cursor.position = start + length + 1
                return field
            }
            field = field + 1 == fields.count ? 0 : field + 1
        }
        var scan = start
        while scan < cursor.end {
            let byte = cursor.base[scan]
            if byte == UInt8(ascii: "\"") {
                cursor.position = scan + 1
                return fields.index(
                    of: UnsafeBufferPointer(start: cursor.base + start, count: scan - start),
                    hint: hint)
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { break }
            scan += 1
        }
        // Escapes, non-ASCII or a truncated key: the cursor validates and decodes it.
        var key = try string()
        return key.withUTF8 { fields.index(of: $0, hint: hint) }
    }

    /// Fails naming the first field of `required` (indices into `fields`) not seen.
    func requireFields(
        _ required: UInt64, _ members: ObjectMembers, _ fields: NameTable<Int>,
        in what: String
    ) throws(StoredDocumentError) {
        let missing = required & ~members.seen
        guard missing != 0 else { return }
        let field = missing.trailingZeroBitCount
        throw failure("\(what) lacks '\(fields.name(field))'", at: members.offset)
    }

    /// Reads the elements of an array through `element`, which reads one value.
    mutating func array<T>(
        _ what: String, _ element: (inout FieldScanner) throws(StoredDocumentError) -> T
    )
        throws(StoredDocumentError) -> [T]
    {
        guard let next = peek() else { throw failure("unexpected end, expected \(what)") }
        guard next == UInt8(ascii: "[") else { throw failure("\(what) must be an array") }
        cursor.position += 1
        depth += 1
        var elements: [T] = []
        if peek() == UInt8(ascii: "]") {
            cursor.position += 1
            depth -= 1
            return elements
        }
        while true {
            elements.append(try element(&self))
            guard let separator = peek() else { throw failure("unexpected end inside \(what)") }
            cursor.position += 1
            switch separator {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "]"):
                depth -= 1
                return elements
            default:
                throw failure("expected ',' or ']' in \(what)", at: cursor.position - 1)
            }
        }
    }

    /// Steps over any value, checking it is valid JSON.
    mutating func skipValue() throws(StoredDocumentError) {
        do {
            _ = try cursor.parseValue(depth: depth)
        } catch {
            throw syntax(error)
        }
    }

    // MARK: Scalars

    /// True (and consumed) when the next value is `null`.
    mutating func takeNull() throws(StoredDocumentError) -> Bool {
        guard peek() == UInt8(ascii: "n") else { return false }
        try skipValue()
        return true
    }

    mutating func string() throws(StoredDocumentError) -> String {
        guard let next = peek() else { throw failure("unexpected end, expected a string") }
        guard next == UInt8(ascii: "\"") else { throw failure("expected a string") }
        do {
            return try cursor.parseString()
        } catch {
            throw syntax(error)
        }
    }

    /// A number, a string, a boolean or null.
    private mutating func scalar(_ what: String) throws(StoredDocumentError) -> JSONValue {
        guard let next = peek() else { throw failure("unexpected end, expected \(what)") }
        guard next != UInt8(ascii: "{"), next != UInt8(ascii: "[") else { throw failure("expected \(what)") }
        do {
            return try cursor.parseValue(depth: depth)
        } catch {
            throw syntax(error)
        }
    }

    /// Any number (an integer reads exactly as a Double would, as Codable reads it).
    mutating func double() throws(StoredDocumentError) -> Double {
        let start = offset
        guard let number = try scalar("a number").double else { throw failure("expected a number", at: start) }
        return number
    }

    /// A number with an exact `Int` value (`3` or `3.0`, as Codable accepts).
    mutating func int() throws(StoredDocumentError) -> Int {
        let start = offset
        guard let number = try scalar("an integer").int else { throw failure("expected an integer", at: start) }
        return number
    }

    mutating func bool() throws(StoredDocumentError) -> Bool {
        let start = offset
        guard let flag = try scalar("a boolean").bool else { throw failure("expected a boolean", at: start) }
        return flag
    }

    /// A string naming one of `names`, matched as bytes when it has no escapes.
    mutating func name<Value>(_ names: NameTable<Value>, _ what: String) throws(StoredDocumentError) -> Value {
        guard let next = peek() else { throw failure("unexpected end, expected \(what)") }
        guard next == UInt8(ascii: "\"") else { throw failure("\(what) must be a string") }
        let start = cursor.position + 1
        for index in 0..<names.count {
            if let length = names.quotedLength(index, at: cursor.base + start, available: cursor.end - start) {
                cursor.position = start + length + 1
                return names.value(index)
            }
        }
        var scan = start
        while scan < cursor.end {
            let byte = cursor.base[scan]
            if byte == UInt8(ascii: "\"") {
                guard
                    let index = names.index(
                        of: UnsafeBufferPointer(start: cursor.base + start, count: scan - start),
                        hint: 0)
                else {
                    throw failure("unknown \(what)", at: start - 1)
                }
                cursor.position = scan + 1
                return names.value(index)
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { break }
            scan += 1
        }
        var text = try string()
        guard let index = text.withUTF8({ names.index(of: $0, hint: 0) }) else {
            throw failure("unknown \(what) '\(text)'", at: start - 1)
        }
        return names.value(index)
    }
}
