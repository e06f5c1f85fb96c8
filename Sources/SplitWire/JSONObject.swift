/// One `"key": value` pair of a JSON object.
public struct JSONMember: Hashable, Sendable {
    public var key: String
    public var value: JSONValue

    public init(key: String, value: JSONValue) {
        self.key = key
        self.value = value
    }
}

/// A JSON object: members in insertion order, keys unique. Lookup scans small objects (the
/// common case on the wire: a request has ~5 members, a linear scan beats hashing) and
/// uses an index once the object grows past `indexThreshold` members.
public struct JSONObject: Sendable, RandomAccessCollection {
    public private(set) var members: [JSONMember]
    private var index: [String: Int]?

    static let indexThreshold = 12

    public init() {
        members = []
    }

    /// Later duplicates replace earlier ones (keeping the first position).
    public init(_ members: [JSONMember]) {
        self.init()
        self.members.reserveCapacity(members.count)
        for member in members { self[member.key] = member.value }
    }

    /// Members whose keys the caller guarantees unique (the parser checked them).
    init(uniqueMembers: [JSONMember]) {
        members = uniqueMembers
        if members.count > JSONObject.indexThreshold { buildIndex() }
    }

    /// Appends without checking uniqueness; the caller guarantees `key` is new.
    mutating func appendNew(key: String, value: JSONValue) {
        members.append(JSONMember(key: key, value: value))
        if index != nil {
            index![key] = members.count - 1
        } else if members.count > JSONObject.indexThreshold {
            buildIndex()
        }
    }

    private mutating func buildIndex() {
        var built = [String: Int](minimumCapacity: members.count * 2)
        for (position, member) in members.enumerated() { built[member.key] = position }
        index = built
    }

    /// The position of `key` in `members`.
    public func position(of key: String) -> Int? {
        if let index { return index[key] }
        for position in members.indices where members[position].key == key { return position }
        return nil
    }

    /// The value of `key`; setting nil removes the member, setting a new key appends it.
    public subscript(key: String) -> JSONValue? {
        get { position(of: key).map { members[$0].value } }
        set {
            switch (position(of: key), newValue) {
            case let (position?, value?):
                members[position].value = value
            case let (position?, nil):
                members.remove(at: position)
                if index != nil { buildIndex() }
            case let (nil, value?):
                appendNew(key: key, value: value)
            case (nil, nil):
                break
            }
        }
    }

    public var keys: [String] { members.map(\.key) }

    // RandomAccessCollection over the members, in order.
    public var startIndex: Int { members.startIndex }
    public var endIndex: Int { members.endIndex }
    public subscript(position: Int) -> JSONMember { members[position] }
}

extension JSONObject: Hashable {
    /// Order-insensitive: same keys with equal values.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for member in lhs.members {
            guard let other = rhs[member.key], other == member.value else { return false }
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        // A commutative sum keeps the hash independent of member order.
        var sum = 0
        for member in members {
            var memberHasher = Hasher()
            memberHasher.combine(member)
            sum &+= memberHasher.finalize()
        }
        hasher.combine(count)
        hasher.combine(sum)
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements.map { JSONMember(key: $0.0, value: $0.1) })
    }
}
