/// Why a byte sequence is not one JSON value, and where (0-based byte offset).
public struct JSONParseError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Reason: Hashable, Sendable {
        case unexpectedEnd
        /// A byte that cannot start or continue the value here; `expected` says what could.
        case unexpectedByte(UInt8, expected: String)
        case invalidUTF8
        case controlCharacterInString
        case invalidEscape
        /// A `\uD800`-`\uDFFF` escape not part of a high+low pair.
        case loneSurrogate
        case leadingZero
        case invalidNumber
        /// A number whose magnitude overflows a Double (e.g. `1e400`).
        case numberOutOfRange
        case tooDeep(limit: Int)
        case duplicateKey(String)
        case trailingGarbage
        case empty
    }

    public var reason: Reason
    public var offset: Int

    public init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    public var description: String { "byte \(offset): \(reasonText)" }

    /// The description for a file a person edits: the line and column of the offset in
    /// `text` (both 1-based, the column in characters), then the byte offset.
    public func description(in text: some Collection<UInt8>) -> String {
        var line = 1, column = 1
        for byte in text.prefix(offset) {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                // Not a UTF-8 continuation byte: a new character.
                column += 1
            }
        }
        return "line \(line), column \(column) (byte \(offset)): \(reasonText)"
    }

    private var reasonText: String {
        switch reason {
        case .unexpectedEnd: "unexpected end of input"
        case let .unexpectedByte(byte, expected): "unexpected \(describe(byte)), expected \(expected)"
        case .invalidUTF8: "invalid UTF-8"
        case .controlCharacterInString: "unescaped control character in string"
        case .invalidEscape: "invalid escape sequence"
        case .loneSurrogate: "unpaired UTF-16 surrogate in \\u escape"
        case .leadingZero: "leading zero in number"
        case .invalidNumber: "invalid number"
        case .numberOutOfRange: "number out of range"
        case let .tooDeep(limit): "nesting deeper than \(limit)"
        case let .duplicateKey(key): "duplicate key \"\(key)\""
        case .trailingGarbage: "unexpected data after the JSON value"
        case .empty: "empty input"
        }
    }

    private func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        let hex = String(byte, radix: 16, uppercase: true)
        return "byte 0x\(hex.count == 1 ? "0" + hex : hex)"
    }
}
