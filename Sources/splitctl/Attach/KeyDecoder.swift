/// A key press as the attach screen understands it.
enum Key: Equatable {
    case up, down, left, right
    case enter, backspace, tab, escape
    /// Ctrl plus a letter, as its control byte (3 = ^C).
    case control(UInt8)
    case character(Character)
}

/// Decodes raw terminal input (xterm/ANSI: `ESC [ A` or `ESC O A` arrows, DEL or BS for
/// backspace, CR or LF for enter) into keys. Unknown escape sequences are skipped whole; a
/// lone ESC at the end of a read is the Escape key. Pure.
enum KeyDecoder {
    static func decode(_ bytes: [UInt8]) -> [Key] {
        var keys: [Key] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x1B:
                let (key, length) = escapeSequence(bytes, at: index)
                if let key { keys.append(key) }
                index += length
                continue
            case 0x0D, 0x0A: keys.append(.enter)
            case 0x7F, 0x08: keys.append(.backspace)
            case 0x09: keys.append(.tab)
            case 0x00..<0x20: keys.append(.control(byte))
            case 0x20..<0x7F: keys.append(.character(Character(Unicode.Scalar(byte))))
            default:
                let length = utf8Length(byte)
                let end = min(index + length, bytes.count)
                if let text = String(validating: bytes[index..<end], as: UTF8.self), let character = text.first {
                    keys.append(.character(character))
                }
                index = end
                continue
            }
            index += 1
        }
        return keys
    }

    /// The key of the escape sequence at `start` (nil if not one we use) and its length.
    private static func escapeSequence(_ bytes: [UInt8], at start: Int) -> (Key?, Int) {
        guard start + 1 < bytes.count else { return (.escape, 1) }
        let introducer = bytes[start + 1]
        guard introducer == UInt8(ascii: "[") || introducer == UInt8(ascii: "O") else { return (.escape, 1) }
        // CSI parameters and intermediates run until a final byte in 0x40...0x7E.
        var end = start + 2
        while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
        guard end < bytes.count else { return (nil, bytes.count - start) }
        let key: Key? =
            switch bytes[end] {
            case UInt8(ascii: "A"): .up
            case UInt8(ascii: "B"): .down
            case UInt8(ascii: "C"): .right
            case UInt8(ascii: "D"): .left
            default: nil
            }
        return (key, end - start + 1)
    }

    private static func utf8Length(_ lead: UInt8) -> Int {
        switch lead {
        case 0xC0...0xDF: 2
        case 0xE0...0xEF: 3
        case 0xF0...0xF7: 4
        default: 1
        }
    }
}
