/// The `id` of a request, echoed in its response: an integer or a string.
public enum RequestID: Hashable, Sendable, CustomStringConvertible {
    case int(Int64)
    case string(String)

    /// Reads an id; nil for anything but an integer or a string.
    public init?(json: JSONValue) {
        switch json {
        case .string(let text): self = .string(text)
        case .int(let number): self = .int(number)
        case .double(let number):
            guard let exact = exactInt64(number) else { return nil }
            self = .int(exact)
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
