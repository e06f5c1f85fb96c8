/// Names of files, as strings.
public enum PathName {
    /// The directory `path` is in ("." for a bare name, "/" at the root), as `dirname` has it
    /// for a path without a trailing slash.
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// What follows the last "/" of `path` (all of it when there is none).
    public static func name(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }
}
