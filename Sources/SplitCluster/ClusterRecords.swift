/// The values cluster mode stores in etcd, in a small binary layout: a version byte, then
/// fields in a fixed order, integers as 8 bytes big-endian, byte strings as a 4-byte
/// big-endian length and the bytes. A value this binary cannot read (another version)
/// is refused, never guessed.
struct RecordWriter {
    var bytes: [UInt8] = [1]

    mutating func int(_ value: Int64) {
        let v = UInt64(bitPattern: value)
        for shift in stride(from: 56, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: v >> UInt64(shift)))
        }
    }

    mutating func data<C: Collection>(_ value: C) where C.Element == UInt8 {
        int32(value.count)
        bytes.append(contentsOf: value)
    }

    mutating func string(_ value: String) { data(Array(value.utf8)) }

    mutating func optionalString(_ value: String?) {
        if let value { bytes.append(1); string(value) } else { bytes.append(0) }
    }

    private mutating func int32(_ n: Int) {
        let v = UInt32(n)
        for shift in stride(from: 24, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: v >> UInt32(shift)))
        }
    }
}

struct RecordReader {
    private let bytes: [UInt8]
    private var at = 1

    init?(_ bytes: [UInt8]) {
        guard bytes.first == 1 else { return nil }
        self.bytes = bytes
    }

    mutating func int() -> Int64? {
        guard at + 8 <= bytes.count else { return nil }
        var v: UInt64 = 0
        for i in 0..<8 { v = v << 8 | UInt64(bytes[at + i]) }
        at += 8
        return Int64(bitPattern: v)
    }

    mutating func data() -> [UInt8]? {
        guard at + 4 <= bytes.count else { return nil }
        var n = 0
        for i in 0..<4 { n = n << 8 | Int(bytes[at + i]) }
        at += 4
        guard at + n <= bytes.count else { return nil }
        defer { at += n }
        return Array(bytes[at..<(at + n)])
    }

    mutating func string() -> String? { data().flatMap { String(validating: $0, as: UTF8.self) } }

    mutating func optionalString() -> String?? {
        guard at < bytes.count else { return nil }
        let flag = bytes[at]
        at += 1
        if flag == 0 { return .some(nil) }
        return string().map { .some($0) }
    }
}

/// `head/<scene>`: where the scene is.
public struct SceneHead: Sendable, Hashable {
    public var revision: Int64
    public var device: String
    /// The revision of the scene's checkpoint (the journal holds the entries above it).
    public var checkpointRevision: Int64
    public var createdAt: Int64
    public var updatedAt: Int64
    /// The fencing token of the owner whose transaction wrote this head: a read-back after
    /// an unknown outcome tells its own write from another owner's by it.
    public var writer: Int64

    public init(
        revision: Int64, device: String, checkpointRevision: Int64, createdAt: Int64, updatedAt: Int64,
        writer: Int64
    ) {
        self.revision = revision
        self.device = device
        self.checkpointRevision = checkpointRevision
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.writer = writer
    }

    var encoded: [UInt8] {
        var w = RecordWriter()
        w.int(revision); w.string(device); w.int(checkpointRevision); w.int(createdAt); w.int(updatedAt); w.int(writer)
        return w.bytes
    }

    init?(decoding bytes: [UInt8]) {
        guard var r = RecordReader(bytes), let revision = r.int(), let device = r.string(),
            let checkpoint = r.int(), let created = r.int(), let updated = r.int(), let writer = r.int()
        else { return nil }
        self.init(
            revision: revision, device: device, checkpointRevision: checkpoint, createdAt: created, updatedAt: updated,
            writer: writer)
    }
}

/// `checkpoint/<scene>`: the full state at `revision`.
struct CheckpointRecord: Hashable {
    var revision: Int64
    var device: String
    var state: [UInt8]
    var createdAt: Int64
    var updatedAt: Int64

    var encoded: [UInt8] {
        var w = RecordWriter()
        w.int(revision); w.string(device); w.data(state); w.int(createdAt); w.int(updatedAt)
        return w.bytes
    }

    init(revision: Int64, device: String, state: [UInt8], createdAt: Int64, updatedAt: Int64) {
        self.revision = revision
        self.device = device
        self.state = state
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    init?(decoding bytes: [UInt8]) {
        guard var r = RecordReader(bytes), let revision = r.int(), let device = r.string(), let state = r.data(),
            let created = r.int(), let updated = r.int()
        else { return nil }
        self.init(revision: revision, device: device, state: state, createdAt: created, updatedAt: updated)
    }
}

/// `journal/<scene>/<revision>`: one change. `writer` is the fencing token of the owner
/// that wrote it, so a read-back can tell its own record from another owner's.
struct JournalRecord: Hashable {
    var change: [UInt8]
    var layoutHash: String?
    var at: Int64
    var writer: Int64

    var encoded: [UInt8] {
        var w = RecordWriter()
        w.data(change); w.optionalString(layoutHash); w.int(at); w.int(writer)
        return w.bytes
    }

    init(change: [UInt8], layoutHash: String?, at: Int64, writer: Int64) {
        self.change = change
        self.layoutHash = layoutHash
        self.at = at
        self.writer = writer
    }

    init?(decoding bytes: [UInt8]) {
        guard var r = RecordReader(bytes), let change = r.data(), let hash = r.optionalString(),
            let at = r.int(), let writer = r.int()
        else { return nil }
        self.init(change: change, layoutHash: hash, at: at, writer: writer)
    }
}

/// `session/<scene>/<number>`: a snapshot session with its body.
struct SessionRecord: Hashable {
    var session: String
    var number: Int64
    var scene: String
    var baseRevision: Int64
    var sizes: [UInt8]
    var hash: String
    var body: [UInt8]
    var createdAt: Int64

    var encoded: [UInt8] {
        var w = RecordWriter()
        w.string(session); w.int(number); w.string(scene); w.int(baseRevision); w.data(sizes); w.string(hash)
        w.data(body); w.int(createdAt)
        return w.bytes
    }

    init(
        session: String, number: Int64, scene: String, baseRevision: Int64, sizes: [UInt8], hash: String,
        body: [UInt8], createdAt: Int64
    ) {
        self.session = session
        self.number = number
        self.scene = scene
        self.baseRevision = baseRevision
        self.sizes = sizes
        self.hash = hash
        self.body = body
        self.createdAt = createdAt
    }

    init?(decoding bytes: [UInt8]) {
        guard var r = RecordReader(bytes), let session = r.string(), let number = r.int(), let scene = r.string(),
            let base = r.int(), let sizes = r.data(), let hash = r.string(), let body = r.data(),
            let created = r.int()
        else { return nil }
        self.init(
            session: session, number: number, scene: scene, baseRevision: base, sizes: sizes, hash: hash,
            body: body, createdAt: created)
    }
}
