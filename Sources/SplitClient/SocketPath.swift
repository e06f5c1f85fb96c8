#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// WIRE.md's socket path resolution from the environment alone: an explicit path, else
/// `$SPLITD_SOCKET_PATH` (splitd's full name for `socket.path`), else `$SPLITD_SOCKET` (its
/// alias), else `$XDG_RUNTIME_DIR/splitd/splitd.sock`, else `/run/splitd/splitd.sock` (the
/// systemd unit's RuntimeDirectory). A relative `XDG_RUNTIME_DIR` is ignored, as the XDG
/// base directory spec asks and as the daemon's own default does, so both meet at one path. It does not read splitd's config file (`socket.path`
/// there sits between the environment and the defaults); splitctl resolves with the
/// daemon's own `ConfigLoader` for that.
public func resolveSocketPath(explicit: String?, environment: [String: String] = processEnvironment()) -> String {
    if let explicit, !explicit.isEmpty { return explicit }
    for name in ["SPLITD_SOCKET_PATH", "SPLITD_SOCKET"] {
        if let fromEnvironment = environment[name], !fromEnvironment.isEmpty { return fromEnvironment }
    }
    if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") { return runtime + "/splitd/splitd.sock" }
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
