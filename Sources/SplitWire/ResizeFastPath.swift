import SplitCore

/// Reads the one request the daemon gets most, a plain `resize`
/// (`{"id":7,"op":"resize","scene":"s","width":1366,"height":1024}`, members in any order,
/// optionally `baseRevision`), straight from its bytes: building the JSON tree and reading
/// it back would be most of the request's decoding.
///
/// Deliberately narrow: no whitespace, no escapes, only printable ASCII in strings, only
/// plain decimal integers in range, each member once, no other member. Anything else
/// returns nil and goes through `RequestDecoder`'s general path, which also produces every
/// error; what this accepts decodes to exactly the request the general path gives.
enum ResizeFastPath {
    static func decode(_ line: UnsafeRawBufferPointer) -> Request? {
        var reader = Reader(bytes: line)
        return reader.request()
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var position = 0
        var end: Int

        init(bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
            end = bytes.count
            if end > 0, bytes[end - 1] == UInt8(ascii: "\n") { end -= 1 }
        }

        mutating func request() -> Request? {
            guard take(UInt8(ascii: "{")) else { return nil }
            var id: RequestID?
            var sawOp = false
            var scene: String?
            var width: Int64?
            var height: Int64?
            var baseRevision: Int64?
            var sawBaseRevision = false
            repeat {
                guard let key = keySpan(), take(UInt8(ascii: ":")) else { return nil }
                if matches(key, Key.id) {
                    guard id == nil else { return nil }
                    if peek == UInt8(ascii: "\"") {
                        guard let text = string() else { return nil }
                        id = .string(text)
                    } else {
                        guard let number = integer(maxDigits: 18) else { return nil }
                        id = .int(number)
                    }
                } else if matches(key, Key.op) {
                    guard !sawOp, let op = stringSpan(), matches(op, Key.resize) else { return nil }
                    sawOp = true
                } else if matches(key, Key.scene) {
                    guard scene == nil, let text = string(), !text.isEmpty else { return nil }
                    scene = text
                } else if matches(key, Key.width) {
                    guard width == nil, let number = integer(maxDigits: 6), number > 0, number <= 100_000 else {
                        return nil
                    }
                    width = number
                } else if matches(key, Key.height) {
                    guard height == nil, let number = integer(maxDigits: 6), number > 0, number <= 100_000 else {
                        return nil
                    }
                    height = number
                } else if matches(key, Key.baseRevision) {
                    guard !sawBaseRevision, let number = integer(maxDigits: 18) else { return nil }
                    sawBaseRevision = true
                    baseRevision = number
                } else {
                    return nil
                }
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")), position == end, sawOp,
                let id, let scene, let width, let height
            else { return nil }
            return Request(
                id: id,
                op: .resize(
                    scene: scene, size: Size(width: Double(width), height: Double(height)),
                    baseRevision: baseRevision.map { Int($0) }))
        }

        var peek: UInt8? { position < end ? bytes[position] : nil }

        mutating func take(_ byte: UInt8) -> Bool {
            guard position < end, bytes[position] == byte else { return false }
            position += 1
            return true
        }

        /// The contents of a string of printable ASCII other than `"` and `\`.
        mutating func stringSpan() -> Range<Int>? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = position
            while position < end {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    position += 1
                    return start..<(position - 1)
                }
                guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
                position += 1
            }
            return nil
        }

        mutating func string() -> String? {
            guard let span = stringSpan() else { return nil }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[span]), as: UTF8.self)
        }

        mutating func keySpan() -> Range<Int>? { stringSpan() }

        /// `0` or a decimal without a leading zero, at most `maxDigits` digits (no sign: an
        /// id or revision below 0 goes the general way).
        mutating func integer(maxDigits: Int) -> Int64? {
            let start = position
            var value: Int64 = 0
            while position < end, case let byte = bytes[position],
                byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9")
            {
                // Past `maxDigits` (18 at most) the value could overflow.
                guard position - start < maxDigits else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
                position += 1
            }
            let digits = position - start
            guard digits > 0, digits == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
            // A fraction or exponent would make it a double: the general path reads those.
            if let next = peek, next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
                return nil
            }
            return value
        }

        func matches(_ span: Range<Int>, _ name: StaticString) -> Bool {
            guard span.count == name.utf8CodeUnitCount else { return false }
            for index in 0..<span.count where bytes[span.lowerBound + index] != name.utf8Start[index] { return false }
            return true
        }
    }

    /// Member names, matched by length then bytes.
    private enum Key {
        static let id: StaticString = "id"
        static let op: StaticString = "op"
        static let scene: StaticString = "scene"
        static let width: StaticString = "width"
        static let height: StaticString = "height"
        static let baseRevision: StaticString = "baseRevision"
        static let resize: StaticString = "resize"
    }
}
