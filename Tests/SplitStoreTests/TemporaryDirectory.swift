import Foundation
@testable import SplitStore

/// A fresh directory under /tmp, removed when the value is released.
final class TemporaryDirectory {
    let path: String

    init() {
        var template = Array("/tmp/splitstore-test-XXXXXX".utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(created != nil, "mkdtemp failed")
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// A database path in this directory.
    var database: String { path + "/splitd.db" }

    func file(_ name: String) -> String { path + "/" + name }
}

/// The bytes of a file, nil when it does not exist.
func contents(of path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { [UInt8]($0) }
}

func write(_ bytes: [UInt8], to path: String) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path))
}

/// Copies the database at `source` and its WAL to `destination` as a SIGKILL would leave
/// them: taken while the store is open, nothing checkpointed or truncated.
func copyAsACrashLeavesIt(_ source: String, to destination: String) throws {
    for suffix in ["", "-wal"] {
        try FileManager.default.copyItem(atPath: source + suffix, toPath: destination + suffix)
    }
}

/// Recognizable bytes for a scene's state at a revision.
func stateBytes(_ scene: String, _ revision: Int64, size: Int = 16) -> [UInt8] {
    let seed = Array("\(scene)@\(revision)".utf8)
    return (0..<size).map { seed[$0 % seed.count] }
}

/// Opens a store on `path` with a fixed clock unless told otherwise.
func openStore(_ path: String, _ configure: (inout StoreOptions) -> Void = { _ in }) throws -> SQLiteSceneStore {
    var options = StoreOptions(busyTimeoutMilliseconds: 50, clock: { 1_000 })
    configure(&options)
    return try SQLiteSceneStore(path: path, options: options)
}

/// The error a throwing call produced, nil when it succeeded.
func storeError<T>(_ body: () throws -> T) -> StoreError? {
    do {
        _ = try body()
        return nil
    } catch let error as StoreError {
        return error
    } catch {
        return StoreError(kind: .other, code: -1, extendedCode: -1, operation: "test", message: "\(error)")
    }
}
