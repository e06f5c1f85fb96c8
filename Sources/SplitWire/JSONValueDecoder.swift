// A Codable decoder over a `JSONValue` tree from JSONParser, the read side of
// `StreamingJSONEncoder`. It reads anything Foundation's JSONEncoder writes for the same type
// (key order does not matter). Measured 1.7x cheaper than Foundation's JSONDecoder on a
// scene state (`splitbench codec`); half of what remains is building the tree. Coding paths
// are not tracked (an allocation per value); errors name the key only.

/// Decodes `Decodable` values from JSON text or a parsed `JSONValue`.
public struct JSONValueDecoder: Sendable {
    public init() {}

    public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "invalid JSON: \(error)"))
        }
        return try decode(type, from: value)
    }

    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try T(from: TreeDecoder(value: value, codingPath: []))
    }
}

struct TreeDecoder: Decoder {
    let value: JSONValue
    var codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else {
            throw DecodingError.typeMismatch([String: Any].self, .init(codingPath: codingPath,
                debugDescription: "expected an object, found \(value.typeName)"))
        }
        return KeyedDecodingContainer(TreeKeyedContainer<Key>(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            throw DecodingError.typeMismatch([Any].self, .init(codingPath: codingPath,
                debugDescription: "expected an array, found \(value.typeName)"))
        }
        return TreeUnkeyedContainer(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        TreeSingleValueContainer(value: value, codingPath: codingPath)
    }
}

/// Scalar conversions shared by the containers.
enum TreeScalar {
    static func mismatch<T>(_ type: T.Type, _ value: JSONValue, _ path: [any CodingKey]) -> DecodingError {
        if case .null = value {
            return .valueNotFound(type, .init(codingPath: path, debugDescription: "expected \(type), found null"))
        }
        return .typeMismatch(type, .init(codingPath: path, debugDescription: "expected \(type), found \(value.typeName)"))
    }

    static func bool(_ value: JSONValue, _ path: [any CodingKey]) throws -> Bool {
        guard case .bool(let flag) = value else { throw mismatch(Bool.self, value, path) }
        return flag
    }

    static func string(_ value: JSONValue, _ path: [any CodingKey]) throws -> String {
        guard case .string(let text) = value else { throw mismatch(String.self, value, path) }
        return text
    }

    static func double(_ value: JSONValue, _ path: [any CodingKey]) throws -> Double {
        switch value {
        case .double(let number): return number
        case .int(let number): return Double(number)
        default: throw mismatch(Double.self, value, path)
        }
    }

    static func integer<T: FixedWidthInteger>(_ type: T.Type, _ value: JSONValue, _ path: [any CodingKey]) throws -> T {
        switch value {
        case .int(let number):
            if let exact = T(exactly: number) { return exact }
        case .double(let number):
            if let exact = T(exactly: number) { return exact }
        default:
            throw mismatch(type, value, path)
        }
        throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "number does not fit \(type)"))
    }
}

struct TreeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: JSONObject
    var codingPath: [any CodingKey]

    var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { object.position(of: key.stringValue) != nil }

    private func value(_ key: Key) throws -> JSONValue {
        guard let position = object.position(of: key.stringValue) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no value for key \(key.stringValue)"))
        }
        return object.members[position].value
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        if case .null = try value(key) { return true }
        return false
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try TreeScalar.bool(value(key), codingPath) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try TreeScalar.string(value(key), codingPath) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try TreeScalar.double(value(key), codingPath) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { Float(try TreeScalar.double(value(key), codingPath)) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try TreeScalar.integer(type, value(key), codingPath) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try TreeScalar.integer(type, value(key), codingPath) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try TreeScalar.integer(type, value(key), codingPath) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try TreeScalar.integer(type, value(key), codingPath) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try TreeScalar.integer(type, value(key), codingPath) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try TreeScalar.integer(type, value(key), codingPath) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try TreeScalar.integer(type, value(key), codingPath) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try TreeScalar.integer(type, value(key), codingPath) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try TreeScalar.integer(type, value(key), codingPath) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try TreeScalar.integer(type, value(key), codingPath) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try T(from: TreeDecoder(value: value(key), codingPath: codingPath))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try TreeDecoder(value: value(key), codingPath: codingPath).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try TreeDecoder(value: value(key), codingPath: codingPath).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        TreeDecoder(value: object.position(of: "super").map { object.members[$0].value } ?? .null, codingPath: codingPath)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        TreeDecoder(value: object.position(of: key.stringValue).map { object.members[$0].value } ?? .null,
                    codingPath: codingPath)
    }
}

struct TreeUnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    var codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next<T>(_ type: T.Type) throws -> JSONValue {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath, debugDescription: "unkeyed container is at its end"))
        }
        defer { currentIndex += 1 }
        return elements[currentIndex]
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { return false }
        if case .null = elements[currentIndex] {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try TreeScalar.bool(next(type), codingPath) }
    mutating func decode(_ type: String.Type) throws -> String { try TreeScalar.string(next(type), codingPath) }
    mutating func decode(_ type: Double.Type) throws -> Double { try TreeScalar.double(next(type), codingPath) }
    mutating func decode(_ type: Int.Type) throws -> Int { try TreeScalar.integer(type, next(type), codingPath) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try TreeScalar.integer(type, next(type), codingPath) }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try T(from: TreeDecoder(value: next(type), codingPath: codingPath))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try TreeDecoder(value: next([String: Any].self), codingPath: codingPath).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try TreeDecoder(value: next([Any].self), codingPath: codingPath).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        TreeDecoder(value: try next(Any.self), codingPath: codingPath)
    }
}

struct TreeSingleValueContainer: SingleValueDecodingContainer {
    let value: JSONValue
    var codingPath: [any CodingKey]

    func decodeNil() -> Bool {
        if case .null = value { return true }
        return false
    }

    func decode(_ type: Bool.Type) throws -> Bool { try TreeScalar.bool(value, codingPath) }
    func decode(_ type: String.Type) throws -> String { try TreeScalar.string(value, codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try TreeScalar.double(value, codingPath) }
    func decode(_ type: Float.Type) throws -> Float { Float(try TreeScalar.double(value, codingPath)) }
    func decode(_ type: Int.Type) throws -> Int { try TreeScalar.integer(type, value, codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try TreeScalar.integer(type, value, codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try TreeScalar.integer(type, value, codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try TreeScalar.integer(type, value, codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try TreeScalar.integer(type, value, codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try TreeScalar.integer(type, value, codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try TreeScalar.integer(type, value, codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try TreeScalar.integer(type, value, codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try TreeScalar.integer(type, value, codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try TreeScalar.integer(type, value, codingPath) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try T(from: TreeDecoder(value: value, codingPath: codingPath))
    }
}
