import CLibUV
import Glibc

// Small helpers over libuv handles: zeroed allocation, casts between handle types, and
// the Unmanaged round trip that lets C callbacks find the Swift object owning a handle.

/// Allocates a zeroed libuv struct on the heap (libuv handles must not move).
@inlinable
public func allocateUV<T>(_ type: T.Type) -> UnsafeMutablePointer<T> {
    let raw = calloc(1, MemoryLayout<T>.size)!
    return raw.bindMemory(to: T.self, capacity: 1)
}

/// Views any libuv handle pointer as the generic `uv_handle_t`.
@inlinable
public func asHandle<T>(_ pointer: UnsafeMutablePointer<T>) -> UnsafeMutablePointer<uv_handle_t> {
    UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: uv_handle_t.self)
}

/// Views a pipe (or any stream) handle as `uv_stream_t`.
@inlinable
public func asStream<T>(_ pointer: UnsafeMutablePointer<T>) -> UnsafeMutablePointer<uv_stream_t> {
    UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: uv_stream_t.self)
}

/// Stores an unretained reference to `owner` in the handle's `data` field; the owner must
/// outlive the handle (every owner closes its handles before it goes away).
@inlinable
public func attach<T, Owner: AnyObject>(_ owner: Owner, to pointer: UnsafeMutablePointer<T>) {
    asHandle(pointer).pointee.data = Unmanaged.passUnretained(owner).toOpaque()
}

/// The Swift owner stored by `attach(_:to:)`, or nil after it was detached.
@inlinable
public func owner<Owner: AnyObject>(of handle: UnsafeMutablePointer<uv_handle_t>?, as type: Owner.Type) -> Owner? {
    guard let data = handle?.pointee.data else { return nil }
    return Unmanaged<Owner>.fromOpaque(data).takeUnretainedValue()
}

/// Closes a handle and frees its memory once libuv is done with it.
@inlinable
public func closeAndFree<T>(_ pointer: UnsafeMutablePointer<T>) {
    let handle = asHandle(pointer)
    handle.pointee.data = nil
    if uv_is_closing(handle) != 0 { return }
    uv_close(handle) { closed in free(closed) }
}

/// libuv's message for an error code.
public func uvErrorMessage(_ code: Int32) -> String {
    String(cString: uv_strerror(code))
}

/// An error from a libuv or POSIX call, with what was being done.
public struct SystemError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }

    public static func uv(_ code: Int32, _ doing: String) -> SystemError {
        SystemError("\(doing): \(uvErrorMessage(code))")
    }

    public static func errno(_ doing: String) -> SystemError {
        SystemError("\(doing): \(String(cString: strerror(Glibc.errno)))")
    }
}
