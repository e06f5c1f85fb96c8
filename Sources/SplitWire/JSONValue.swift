/// A parsed JSON document. Integers stay exact (`.int`); only numbers with a fraction or an
/// exponent, or integers outside `Int64`, become `.double`.
///
/// Equality is semantic: object members compare regardless of order, and numbers compare by
/// exact value (`.int(2) == .double(2.0)`), so a value survives write -> parse unchanged.
public enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

// MARK: - Accessors

extension JSONValue {
    /// The member `key` of an object; nil for a missing key or a non-object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    /// The element at `index` of an array; nil when out of range or not an array.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    public var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number as an exact integer: `.int`, or a `.double` holding an integral value below
    /// 2^53 in magnitude (`3.0`, `1e3`); nil otherwise. Above 2^53 a `Double` may already be
    /// a rounded neighbour of what was written (`9007199254740993.0` reads as ...992), so it
    /// is not taken as the integer it prints as.
    public var int64: Int64? {
        switch self {
        case .int(let value): return value
        case .double(let value): return abs(value) < 9_007_199_254_740_992 ? exactInt64(value) : nil
        default: return nil
        }
    }

    /// `int64` narrowed to `Int`.
    public var int: Int? { int64.flatMap { Int(exactly: $0) } }

    /// Any number as a `Double` (an `.int` beyond 2^53 is rounded).
    public var double: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }

    public var array: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var object: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The JSON type name, for error messages ("expected a string, got an array").
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// `value` as an `Int64` if it is integral and exactly representable.
func exactInt64(_ value: Double) -> Int64? {
    // 2^63 itself is not representable as Int64, hence the strict upper bound.
    guard value.isFinite, value.rounded(.towardZero) == value,
        value >= -9_223_372_036_854_775_808.0, value < 9_223_372_036_854_775_808.0
    else { return nil }
    return Int64(value)
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// Later duplicates replace earlier ones.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        var object = JSONObject()
        for (key, value) in elements { object[key] = value }
        self = .object(object)
    }
}

// MARK: - Semantic equality

extension JSONValue: Hashable {
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.int(a), .int(b)): return a == b
        case let (.double(a), .double(b)): return a == b
        case let (.int(a), .double(b)), let (.double(b), .int(a)): return exactInt64(b) == a
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)): return a == b
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0 as UInt8)
        case .bool(let value): hasher.combine(1 as UInt8); hasher.combine(value)
        case .int(let value): hashNumber(value, into: &hasher)
        case .double(let value):
            // Integral doubles hash like the equal `.int`.
            if let exact = exactInt64(value) {
                hashNumber(exact, into: &hasher)
            } else {
                hasher.combine(3 as UInt8); hasher.combine(value)
            }
        case .string(let value): hasher.combine(4 as UInt8); hasher.combine(value)
        case .array(let value): hasher.combine(5 as UInt8); hasher.combine(value)
        case .object(let value): hasher.combine(6 as UInt8); hasher.combine(value)
        }
    }

    private func hashNumber(_ value: Int64, into hasher: inout Hasher) {
        hasher.combine(2 as UInt8)
        hasher.combine(value)
    }
}

extension JSONValue: CustomStringConvertible {
    /// Compact JSON text.
    public var description: String { JSONWriter.string(self) }
}
