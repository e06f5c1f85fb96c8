/// The `id` of a request, echoed in its response: an integer or a string.
public enum RequestID: Hashable, Sendable, CustomStringConvertible {
    case int(Int64)
    case string(String)

    /// Reads an id; nil for anything but an integer or a string.
    ///
    /// An integer written with a fraction or an exponent (`1e3`, `7.0`), or beyond 64 bits,
    /// was read as a `Double`: it is taken only below 2^53 in magnitude, where the Double is
    /// the written value. Above, the Double may be a neighbour (`-9223372036854775809` reads as
    /// -2^63, `9007199254740993.0` as 2^53), and echoing it would answer with another id.
    public init?(json: JSONValue) {
        switch json {
        case .string(let text): self = .string(text)
        case .int(let number): self = .int(number)
        case .double(let number):
            guard number.magnitude < Self.exactDoubleLimit, let exact = exactInt64(number) else { return nil }
            self = .int(exact)
        default: return nil
        }
    }

    /// 2^53: every integer below it in magnitude is exactly one Double.
    static let exactDoubleLimit: Double = 9_007_199_254_740_992

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
