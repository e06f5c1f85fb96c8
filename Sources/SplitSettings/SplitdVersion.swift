/// The daemon's version, reported by `hello`, `splitd --version` and `splitctl --version`.
public enum SplitdVersion {
    public static let current = "0.1.0"
}
