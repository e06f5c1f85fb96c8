import Glibc

/// Where splitd puts its socket and database with zero configuration (WIRE.md, XDG base
/// directories, systemd's RuntimeDirectory=/StateDirectory=).
public enum DefaultPaths {
    /// `$XDG_RUNTIME_DIR/splitd/splitd.sock`, else `/run/splitd/splitd.sock` (a relative
    /// `XDG_*` directory is ignored, as the XDG base directory spec asks).
    public static func socket(environment: [String: String]) -> String {
        if let runtime = absolute(environment["XDG_RUNTIME_DIR"]) { return runtime + "/splitd/splitd.sock" }
        return "/run/splitd/splitd.sock"
    }

    /// `$STATE_DIRECTORY/splitd.db` under systemd, else `$XDG_STATE_HOME/splitd/splitd.db`,
    /// else `~/.local/state/splitd/splitd.db`, else `./var/splitd.db`.
    public static func database(environment: [String: String]) -> String {
        if let state = nonEmpty(environment["STATE_DIRECTORY"]) {
            // systemd lists several directories separated by colons; the first is ours.
            return String(state.split(separator: ":")[0]) + "/splitd.db"
        }
        if let state = absolute(environment["XDG_STATE_HOME"]) { return state + "/splitd/splitd.db" }
        if let home = nonEmpty(environment["HOME"]) { return home + "/.local/state/splitd/splitd.db" }
        return "./var/splitd.db"
    }

    /// The config file to read when none is named: `$SPLITD_CONFIG`, else
    /// `$CONFIGURATION_DIRECTORY/splitd.json` (systemd's ConfigurationDirectory=) if it exists.
    public static func configFile(environment: [String: String]) -> String? {
        if let named = nonEmpty(environment["SPLITD_CONFIG"]) { return named }
        if let directory = nonEmpty(environment["CONFIGURATION_DIRECTORY"]) {
            let path = String(directory.split(separator: ":")[0]) + "/splitd.json"
            if access(path, F_OK) == 0 { return path }
        }
        return nil
    }

    /// An XDG base directory: the XDG spec says a relative path is invalid and is ignored.
    private static func absolute(_ value: String?) -> String? {
        guard let value = nonEmpty(value), value.hasPrefix("/") else { return nil }
        return value
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }
}
