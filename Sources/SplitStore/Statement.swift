import CSQLite

/// One prepared SQLite statement: bind parameters (1-based), step, read columns (0-based).
///
/// A statement is reused: `reset()` clears its bindings and rewinds it, so the hot path of a
/// commit prepares nothing. It belongs to the thread that uses its `Database`.
public final class Statement {
    let handle: OpaquePointer
    /// The SQL text, for error messages.
    public let sql: String

    init(connection: OpaquePointer, sql: String) throws(StoreError) {
        var prepared: OpaquePointer?
        let code = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
        guard code == SQLITE_OK, let prepared else {
            sqlite3_finalize(prepared)
            throw Database.error(connection, code: code, operation: "prepare \(sql)")
        }
        self.handle = prepared
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    // MARK: Binding

    /// Binds an integer to parameter `index` (1-based).
    public func bind(_ value: Int64, at index: Int32) throws(StoreError) {
        try check(sqlite3_bind_int64(handle, index, value), "bind")
    }

    /// Binds a double to parameter `index` (1-based).
    public func bind(_ value: Double, at index: Int32) throws(StoreError) {
        try check(sqlite3_bind_double(handle, index, value), "bind")
    }

    /// Binds UTF-8 text to parameter `index` (1-based). SQLite copies it.
    public func bind(_ value: String, at index: Int32) throws(StoreError) {
        let code =
            value.utf8.withContiguousStorageIfAvailable { bytes in
                bindText(bytes.baseAddress, count: bytes.count, at: index)
            }
            ?? Array(value.utf8).withUnsafeBufferPointer { bytes in
                bindText(bytes.baseAddress, count: bytes.count, at: index)
            }
        try check(code, "bind")
    }

    /// Binds bytes as a BLOB to parameter `index` (1-based). SQLite copies them; an empty
    /// array binds an empty blob, not NULL.
    public func bind(_ value: [UInt8], at index: Int32) throws(StoreError) {
        let code = value.withUnsafeBytes { bytes -> Int32 in
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                return sqlite3_bind_zeroblob(handle, index, 0)
            }
            return sqlite3_bind_blob(handle, index, base, Int32(bytes.count), transientDestructor)
        }
        try check(code, "bind")
    }

    /// Binds NULL to parameter `index` (1-based).
    public func bindNull(at index: Int32) throws(StoreError) {
        try check(sqlite3_bind_null(handle, index), "bind")
    }

    /// Binds `value`, or NULL when it is nil.
    public func bind(_ value: String?, at index: Int32) throws(StoreError) {
        if let value { try bind(value, at: index) } else { try bindNull(at: index) }
    }

    /// Binds bytes as a BLOB, copied into `buffer` instead of by SQLite: the statement must
    /// run before the buffer's storage is reused.
    func bind(_ value: [UInt8], at index: Int32, in buffer: inout BindBuffer) throws(StoreError) {
        try bind(value[...], at: index, in: &buffer)
    }

    /// `bind` for bytes of a larger array (a journal record in its batch's buffer).
    func bind(_ value: ArraySlice<UInt8>, at index: Int32, in buffer: inout BindBuffer) throws(StoreError) {
        // `withUnsafeBytes` rethrows untyped errors: the typed one goes through a Result.
        try value.withUnsafeBytes { bytes in
            Result { () throws(StoreError) in try bind(bytes, at: index, in: &buffer) }
        }.get()
    }

    func bind(_ bytes: UnsafeRawBufferPointer, at index: Int32, in buffer: inout BindBuffer) throws(StoreError) {
        let code: Int32
        if !bytes.isEmpty, let copy = buffer.copy(bytes) {
            code = sqlite3_bind_blob(handle, index, copy, Int32(bytes.count), nil)
        } else {
            code =
                bytes.isEmpty
                ? sqlite3_bind_zeroblob(handle, index, 0)
                : sqlite3_bind_blob(handle, index, bytes.baseAddress, Int32(bytes.count), transientDestructor)
        }
        try check(code, "bind")
    }

    /// Binds UTF-8 text (NULL when nil), copied into `buffer` (see above).
    func bind(_ value: String?, at index: Int32, in buffer: inout BindBuffer) throws(StoreError) {
        guard var value else { return try bindNull(at: index) }
        let code = value.withUTF8 { bytes -> Int32 in
            guard !bytes.isEmpty, let copy = buffer.copy(UnsafeRawBufferPointer(bytes)) else {
                return bindText(bytes.baseAddress, count: bytes.count, at: index)
            }
            return sqlite3_bind_text(handle, index, copy.assumingMemoryBound(to: CChar.self), Int32(bytes.count), nil)
        }
        try check(code, "bind")
    }

    private func bindText(_ base: UnsafePointer<UInt8>?, count: Int, at index: Int32) -> Int32 {
        guard let base, count > 0 else {
            // A NULL pointer would bind NULL; a static empty string binds "".
            let empty = UnsafeRawPointer(emptyText.utf8Start).assumingMemoryBound(to: CChar.self)
            return sqlite3_bind_text(handle, index, empty, 0, nil)
        }
        return base.withMemoryRebound(to: CChar.self, capacity: count) { chars in
            sqlite3_bind_text(handle, index, chars, Int32(count), transientDestructor)
        }
    }

    // MARK: Stepping

    /// Advances the statement: true when a row is available, false when it is done.
    @discardableResult
    public func step() throws(StoreError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            // The failing step's own code: sqlite3_reset would report it again, not clear it.
            throw Database.error(sqlite3_db_handle(handle), code: code, operation: "step \(sql)")
        }
    }

    /// Steps to completion, ignoring rows, then resets.
    public func run() throws(StoreError) {
        defer { reset() }
        while try step() {}
    }

    /// Steps to completion, ignoring rows, then rewinds, keeping the bindings: for statements
    /// whose every parameter is bound before each run (clearing them would be wasted work).
    func runKeepingBindings() throws(StoreError) {
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    /// Rewinds the statement and clears its bindings so it can be reused.
    public func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    // MARK: Columns

    /// Column `index` (0-based) of the current row as an integer (NULL reads as 0).
    public func int64(at index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }

    /// Column `index` (0-based) of the current row as a double (NULL reads as 0).
    public func double(at index: Int32) -> Double { sqlite3_column_double(handle, index) }

    /// True when column `index` (0-based) of the current row is NULL.
    public func isNull(at index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }

    /// Column `index` (0-based) of the current row as UTF-8 text (NULL reads as "").
    public func text(at index: Int32) -> String {
        guard let base = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self)
    }

    /// Column `index` (0-based) of the current row as text, or nil when NULL.
    public func optionalText(at index: Int32) -> String? {
        isNull(at: index) ? nil : text(at: index)
    }

    /// Column `index` (0-based) of the current row as bytes (NULL reads as empty).
    public func blob(at index: Int32) -> [UInt8] {
        guard let base = sqlite3_column_blob(handle, index) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, index))
        return [UInt8](UnsafeRawBufferPointer(start: base, count: count))
    }

    private func check(_ code: Int32, _ what: String) throws(StoreError) {
        guard code == SQLITE_OK else {
            throw Database.error(sqlite3_db_handle(handle), code: code, operation: "\(what) \(sql)")
        }
    }
}

/// Room for bytes bound without a copy by SQLite (SQLITE_STATIC), which would otherwise
/// allocate, copy and free each text and blob. The copies stay valid until the storage is
/// handed to the next `BindBuffer`, which its owner does only once the statements bound to
/// them have run; their bindings then point at reused bytes, harmless as long as they are
/// bound again before the next step, as every hot-path statement is.
struct BindBuffer {
    private let storage: UnsafeMutableRawBufferPointer
    private var used = 0

    init(_ storage: UnsafeMutableRawBufferPointer) { self.storage = storage }

    /// A copy of `bytes`, or nil when they do not fit (SQLite copies them itself then).
    mutating func copy(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawPointer? {
        guard bytes.count <= storage.count - used, let base = bytes.baseAddress,
            let destination = storage.baseAddress.map({ $0 + used })
        else { return nil }
        destination.copyMemory(from: base, byteCount: bytes.count)
        used += bytes.count
        return UnsafeRawPointer(destination)
    }
}

/// SQLITE_TRANSIENT: SQLite copies the bound bytes before the bind call returns.
private var transientDestructor: sqlite3_destructor_type {
    unsafeBitCast(-1 as Int, to: sqlite3_destructor_type.self)
}

private let emptyText: StaticString = ""
