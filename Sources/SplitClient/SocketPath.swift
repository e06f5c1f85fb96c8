#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The daemon's socket path resolution (WIRE.md), shared by every client:
/// an explicit path, else `$SPLITD_SOCKET`, else `$XDG_RUNTIME_DIR/splitd/splitd.sock`,
/// else `/run/splitd/splitd.sock` (the systemd unit's RuntimeDirectory).
public func resolveSocketPath(explicit: String?, environment: [String: String] = processEnvironment()) -> String {
    if let explicit, !explicit.isEmpty { return explicit }
    if let fromEnvironment = environment["SPLITD_SOCKET"], !fromEnvironment.isEmpty { return fromEnvironment }
    if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty { return runtime + "/splitd/splitd.sock" }
    return "/run/splitd/splitd.sock"
}

/// The current process environment.
public func processEnvironment() -> [String: String] {
    var result: [String: String] = [:]
    var cursor = environ
    while let entry = cursor.pointee {
        let text = String(cString: entry)
        if let equals = text.firstIndex(of: "=") {
            result[String(text[..<equals])] = String(text[text.index(after: equals)...])
        }
        cursor += 1
    }
    return result
}
