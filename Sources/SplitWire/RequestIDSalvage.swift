/// The `id` of a line that is not valid JSON, when it could still be read (WIRE: a line that
/// is not a JSON object gets `"id": null`, "`id` echoed if it could be read"): the line opens
/// an object, and its members up to the first error include exactly one `"id"` whose value
/// is an integer or a string. `{"id":7,"op":"ping"` (cut short), `{"id":7,}` and
/// `{"id":7,"op":"ping"} x` answer 7, so a pipelining client can tell which request failed;
/// a second `"id"` key (which one?) or an id after the error answers nil.
enum RequestIDSalvage {
    static func id(in line: UnsafeRawBufferPointer, maxDepth: Int) -> RequestID? {
        guard let base = line.baseAddress, line.count > 0 else { return nil }
        var cursor = JSONCursor(base: base.assumingMemoryBound(to: UInt8.self), end: line.count, maxDepth: maxDepth)
        return cursor.salvageID()
    }
}

extension JSONCursor {
    /// Reads the members of the object that opens the input until one fails to parse.
    ///
    /// A member loop of its own on purpose: the strict `parseObject` throws at the first error
    /// (a repeated key included) and keeps none of the members it read, while this one must
    /// keep them (`{"id":7,"op":"ping","op":"ping"}` answers 7). Keys and values are read by
    /// the cursor's own `parseString` and `parseValue`, so only the loop is separate.
    fileprivate mutating func salvageID() -> RequestID? {
        skipWhitespace()
        guard position < end, base[position] == UInt8(ascii: "{") else { return nil }
        position += 1
        var found: RequestID?
        var idMembers = 0
        while true {
            skipWhitespace()
            guard position < end, base[position] == UInt8(ascii: "\""), let key = try? parseString() else { break }
            skipWhitespace()
            guard position < end, base[position] == UInt8(ascii: ":") else { break }
            position += 1
            // A second "id" makes the line's id ambiguous, even one whose value is unreadable.
            if key == "id" { idMembers += 1 }
            // Depth 1: the members of the top-level object, as the strict parse reads them.
            guard let value = try? parseValue(depth: 1) else { break }
            if key == "id" { found = RequestID(json: value) }
            skipWhitespace()
            guard position < end, base[position] == UInt8(ascii: ",") else { break }
            position += 1
        }
        return idMembers == 1 ? found : nil
    }
}
