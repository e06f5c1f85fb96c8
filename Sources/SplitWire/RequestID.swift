/// The `id` of a request, echoed in its response: an integer or a string.
public enum RequestID: Hashable, Sendable, CustomStringConvertible {
    case int(Int64)
    case string(String)

    /// Reads an id; nil for anything but an integer or a string.
    ///
    /// The parser reads digits within 64 bits as `.int`, and a whole number below 2^53 written
    /// with a fraction or an exponent (`7.0`, `1e3`) too. A `.double` is anything else: a
    /// fraction, or a magnitude a Double only approximates (`-9223372036854775809` reads as
    /// -2^63, `9007199254740993.0` as 2^53, `1.0000000000000001` as 1): taking it would answer
    /// with another id.
    public init?(json: JSONValue) {
        switch json {
        case .string(let text): self = .string(text)
        case .int(let number): self = .int(number)
        default: return nil
        }
    }

    public var json: JSONValue {
        switch self {
        case .int(let number): .int(number)
        case .string(let text): .string(text)
        }
    }

    public var description: String { JSONWriter.string(json) }
}

extension RequestID: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONWriter {
    public mutating func write(_ id: RequestID) {
        switch id {
        case .int(let number): write(number)
        case .string(let text): write(text)
        }
    }
}
