/// Every configuration key splitd reads: the single source for the embedded default
/// configuration, the example file, unknown-key checks and `docs/CONFIGURATION.md`.
public struct ConfigKeySpec: Sendable {
    /// How the value is written in JSON.
    public enum Kind: Sendable {
        case string, int, intArray
        case choice([String])
    }

    /// Dotted key as in the JSON file (`limits.maxClients`); env `SPLITD_LIMITS_MAX_CLIENTS`.
    public var key: String
    public var kind: Kind
    /// The default as JSON text, or nil when it is computed at start (paths).
    public var defaultJSON: String?
    public var help: String

    /// The environment variable that sets it (besides the short aliases).
    public var environmentName: String {
        "SPLITD_"
            + key.split(separator: ".").map { component in
                var out = ""
                var previousLower = false
                for character in component {
                    if character.isUppercase, previousLower { out.append("_") }
                    previousLower = character.isLowercase || character.isNumber
                    out.append(character.isLetter || character.isNumber ? Character(character.uppercased()) : "_")
                }
                return out
            }.joined(separator: "_")
    }
}

public enum ConfigKeys {
    /// Short environment names kept for convenience (WIRE.md's and the README's).
    public static let environmentAliases: [String: String] = [
        "SPLITD_SOCKET": "socket.path",
        "SPLITD_DATABASE": "database.path",
        "SPLITD_DURABILITY": "database.durability",
        "SPLITD_LOG_LEVEL": "log.level",
    ]

    /// splitd's command-line flags by the key they set (`splitd --help`), for naming a flag
    /// in a problem with its value; a key without one is said to come from the command line.
    public static let flagNames: [String: String] = [
        "socket.path": "--socket",
        "socket.group": "--socket-group",
        "database.path": "--database",
        "database.durability": "--durability",
        "log.level": "--log-level",
        "access.allowUids": "--allow-uid",
        "cluster.endpoints": "--cluster",
        "cluster.node": "--node",
    ]

    public static let all: [ConfigKeySpec] = [
        .init(
            key: "socket.path", kind: .string, defaultJSON: nil,
            help:
                "Unix socket to listen on when not socket-activated. Default: $XDG_RUNTIME_DIR/splitd/splitd.sock, else /run/splitd/splitd.sock. Needs a restart."
        ),
        .init(
            key: "socket.group", kind: .string, defaultJSON: "\"\"",
            help:
                "Group (name or number) that may use the socket: directory 0750 and socket 0660 instead of 0700/0600, and the group's members may connect besides access.* (a peer is admitted by its primary gid). Empty: owner only. Needs a restart."
        ),
        .init(
            key: "socket.activationName", kind: .string, defaultJSON: "\"splitd\"",
            help:
                "FileDescriptorName= of the systemd socket to use; all passed sockets if none has it. Needs a restart."),
        .init(
            key: "socket.backlog", kind: .int, defaultJSON: "128",
            help: "listen(2) backlog. Needs a restart."),
        .init(
            key: "database.path", kind: .string, defaultJSON: nil,
            help:
                "SQLite database. Default: $STATE_DIRECTORY/splitd.db (systemd), else $XDG_STATE_HOME/splitd/splitd.db, else ~/.local/state/splitd/splitd.db. \":memory:\" keeps nothing. Needs a restart."
        ),
        .init(
            key: "database.durability", kind: .choice(["full", "normal"]), defaultJSON: "\"full\"",
            help:
                "full: an acknowledged change survives power loss (the WAL is flushed with fdatasync before any reply of its turn). normal: synchronous=NORMAL, it survives a crash of splitd. Needs a restart."
        ),
        .init(
            key: "database.integrityCheck", kind: .choice(["none", "quick", "full"]), defaultJSON: "\"quick\"",
            help:
                "Check run when opening the database: none, quick (PRAGMA quick_check) or full (PRAGMA integrity_check, slower on a large database); a database that fails it is refused. Needs a restart."
        ),
        .init(
            key: "database.busyTimeoutMilliseconds", kind: .int, defaultJSON: "100",
            help:
                "How long a commit waits for another process's lock before failing (the loop waits that long at most). Needs a restart."
        ),
        .init(
            key: "database.journalRetention", kind: .int, defaultJSON: "10000",
            help:
                "Journal entries (accepted changes) kept as history once checkpoints cover them, counted over all scenes, oldest pruned first, 512 at a time (so up to 511 more are kept); entries a restart needs are always kept. 0 keeps all. Needs a restart."
        ),
        .init(
            key: "database.historyRevisions", kind: .int, defaultJSON: "1000",
            help:
                "Revisions of each scene kept readable in the past (scene.at, splitctl render --revision): the scene's earlier checkpoints and the journal entries above the oldest needed one are kept, per scene, trimmed when it checkpoints (so up to a checkpoint interval more). 0-100000000; 0 keeps no history (only revisions above the scene's checkpoint). Needs a restart."
        ),
        .init(
            key: "database.checkpointEvery", kind: .int, defaultJSON: "64",
            help:
                "A change stores only a journal entry; a scene's full state is written again (checkpointed) after this many changes, 1-1000000 (a quarter as many while database.replayBudget is exceeded), by a sweep every second and at a graceful stop. A start replays the changes above each checkpoint. Reloaded on SIGHUP."
        ),
        .init(
            key: "database.replayBudget", kind: .int, defaultJSON: "32000",
            help:
                "Journal entries above the checkpoints, over all scenes, that a start after a crash may have to replay (~3 µs each) and the journal must keep: while more than replayBudget / checkpointEvery scenes have changes above their checkpoint, scenes are checkpointed every checkpointEvery / 4 changes instead. 0-1000000000; 0: always every checkpointEvery. Reloaded on SIGHUP."
        ),
        .init(
            key: "database.flushDelayMicroseconds", kind: .int, defaultJSON: "600",
            help:
                "Group commit with durability full: a WAL flush (fdatasync) starts at least this long after the previous one started, unless database.flushDelayCount changes are waiting, every client that sent a change in the last 1-2 ms waits for its answer (a pipelining client never counts as waiting), or the daemon has nothing left to read (a flush then waits only while requests that can join it are coming in). Fewer flushes when many small turns each need one (a resize storm); 0-100000, 0 flushes as soon as asked. Needs a restart."
        ),
        .init(
            key: "database.flushDelayCount", kind: .int, defaultJSON: "16",
            help:
                "Changes waiting for a flush that start it without database.flushDelayMicroseconds' delay, 1-1000000. Needs a restart."
        ),
        .init(
            key: "database.walCheckpointPages", kind: .int, defaultJSON: "16000",
            help:
                "WAL size in pages (4 KiB each) that starts a checkpoint, which copies the WAL into the database file on a thread of its own; the WAL is zero-filled to 1.5 times this size at start (16000: 99 MB). Larger: the database file is written and synced less often per change, for more disk. Lowered for the run (with a warning) when 4 cycles and their copies would not fit in half the room the file system has. 100-1000000. Needs a restart."
        ),
        .init(
            key: "log.level", kind: .choice(["trace", "debug", "info", "notice", "warning", "error", "critical"]),
            defaultJSON: "\"info\"",
            help: "Least severe message logged to stderr. Reloaded on SIGHUP."),
        .init(
            key: "limits.maxLineLength", kind: .int, defaultJSON: "65536",
            help:
                "Longest request line in bytes; longer lines get frame_too_large and the connection is closed. Reloaded on SIGHUP (new connections)."
        ),
        .init(
            key: "limits.partialLineTimeoutSeconds", kind: .int, defaultJSON: "60",
            help:
                "Seconds a client may leave a request line unfinished (bytes sent, no newline yet) while the daemon reads it; then it gets bad_request and is closed, so a stalled or hostile client cannot hold a connection and a line buffer forever. 0-86400; 0: no limit. Reloaded on SIGHUP (every connection, checked once a second)."
        ),
        .init(
            key: "limits.maxClients", kind: .int, defaultJSON: "1024",
            help: "Connected clients at once; the next gets limit_exceeded and is closed. Reloaded on SIGHUP."),
        .init(
            key: "limits.maxScenes", kind: .int, defaultJSON: "10000",
            help: "Scenes at once; scene.create beyond it gets limit_exceeded. Reloaded on SIGHUP."),
        .init(
            key: "limits.maxStackDepth", kind: .int, defaultJSON: "64",
            help: "View controllers per navigation stack (limit_exceeded). Reloaded on SIGHUP."),
        .init(
            key: "limits.maxIdLength", kind: .int, defaultJSON: "128",
            help:
                "Longest scene or view-controller id, 1-128. A longer id, but at most 128 characters, is limit_exceeded; an id over 128 characters (or a scene id outside [A-Za-z0-9._:-]) is bad_request whatever this says. Reloaded on SIGHUP."
        ),
        .init(
            key: "limits.maxPresentations", kind: .int, defaultJSON: "16",
            help: "Modal presentations stacked at once. Reloaded on SIGHUP."),
        .init(
            key: "limits.maxTabs", kind: .int, defaultJSON: "32",
            help: "Tabs of a tab bar. Reloaded on SIGHUP."),
        .init(
            key: "limits.maxSnapshotSizes", kind: .int, defaultJSON: "64",
            help: "Sizes of one snapshot session. Reloaded on SIGHUP."),
        .init(
            key: "output.softLimitBytes", kind: .int, defaultJSON: "1048576",
            help:
                "Unwritten output of a client past which its requests are not read until its output drains below half of this (backpressure: a client that pipelines faster than it reads is slowed down, not dropped, unless all clients together pass output.totalLimitBytes), and, with output.slowReaderPushes coalesce, its pushes are coalesced. Reloaded on SIGHUP."
        ),
        .init(
            key: "output.hardLimitBytes", kind: .int, defaultJSON: "16777216",
            help:
                "Unwritten output past which a client is disconnected: a client that does not read the pushes of the scenes it is attached to, with output.slowReaderPushes queue. Reloaded on SIGHUP."
        ),
        .init(
            key: "output.totalLimitBytes", kind: .int, defaultJSON: "268435456",
            help:
                "Unwritten output of all clients together past which the clients holding the most are disconnected, largest first, until the total is under it again (memory stays bounded however many clients stop reading, in either output.slowReaderPushes mode; each sees its connection close, never a gap). At least output.hardLimitBytes. Reloaded on SIGHUP, and a lower value applies at once."
        ),
        .init(
            key: "output.slowReaderPushes", kind: .choice(["queue", "coalesce"]), defaultJSON: "\"queue\"",
            help:
                "Pushes for a client that reads slower than its scenes change. queue: every push is queued, so an attached client never misses a revision (WIRE); one whose unwritten output passes output.hardLimitBytes is disconnected (it sees its connection close, never a gap). coalesce: past output.softLimitBytes only the newest push per scene is kept and sent once the client catches up (it skips revisions and their events, for clients that only need the current layout). Either way output.totalLimitBytes bounds all clients together. Reloaded on SIGHUP."
        ),
        .init(
            key: "access.allowUids", kind: .intArray, defaultJSON: nil,
            help:
                "Peer uids allowed to connect (SO_PEERCRED). Default: the daemon's own uid and 0 (root). Reloaded on SIGHUP."
        ),
        .init(
            key: "access.allowGids", kind: .intArray, defaultJSON: "[]",
            help: "Peer primary gids allowed to connect, in addition to allowUids. Reloaded on SIGHUP."),
        .init(
            key: "loop.busyPollMicroseconds", kind: .int, defaultJSON: "200",
            help:
                "After a turn that answered something, the loop keeps polling its sockets this long before it sleeps, 0-100000; 0: sleep at once. A client whose next request comes within it is read without a wake-up (about 50-90 µs less per round trip here) at the cost of at most this much CPU per turn; never while a flush is in flight. Reloaded on SIGHUP."
        ),
        .init(
            key: "shutdown.timeoutMilliseconds", kind: .int, defaultJSON: "5000",
            help:
                "On SIGTERM, how long to wait for clients to read their last replies before closing them. Reloaded on SIGHUP."
        ),
        .init(
            key: "devices.windowedRegularMinWidth", kind: .int, defaultJSON: "640",
            help:
                "Width in points from which an iPad window narrower than its screen (Split View, Slide Over, Stage Manager) is horizontally regular, 0-100000 (SEMANTICS 2: any value in 640...678 reproduces every published multitasking case). Needs a restart, after a graceful stop (a start after a crash refuses to replay changes whose layouts were computed with another value)."
        ),
        .init(
            key: "devices.ruleSetsFile", kind: .string, defaultJSON: "\"\"",
            help:
                "JSON file of extra rule sets, usable as a scene's device besides the built-in ones, shaped like Config/rulesets.json: {\"ruleSets\": [{\"name\", \"defaults\", \"hysteresis\" (points), \"rules\": [{\"when\": {\"min-width\": ...}, \"horizontal\": ...}]}]}. Empty: built-in ones only. Needs a restart, after a graceful stop."
        ),
        .init(
            key: "cluster.endpoints", kind: .string, defaultJSON: "\"\"",
            help:
                "Cluster mode: comma-separated etcd client URLs (http://10.0.0.1:2379,... or https:// with cluster.tls.*). Set: scenes live in etcd and several splitd nodes serve them (docs/CLUSTER.md); database.* is then unused. Empty: the single-host daemon with its local database. Needs a restart."
        ),
        .init(
            key: "cluster.node", kind: .string, defaultJSON: "\"\"",
            help:
                "Cluster mode: this node's name, unique in the cluster (printable ASCII, no spaces or '/', at most 64 bytes); shown as a scene's owner. Required with cluster.endpoints. Needs a restart."
        ),
        .init(
            key: "cluster.prefix", kind: .string, defaultJSON: "\"/splitd/\"",
            help:
                "Cluster mode: the etcd key prefix every key of the daemon lives under (starts and ends with '/'); nodes sharing scenes use the same one. Needs a restart."
        ),
        .init(
            key: "cluster.tls.ca", kind: .string, defaultJSON: "\"\"",
            help:
                "Cluster mode with https:// endpoints: PEM file of the CA that signed etcd's certificates. Needs a restart."
        ),
        .init(
            key: "cluster.tls.cert", kind: .string, defaultJSON: "\"\"",
            help:
                "Cluster mode with https:// endpoints: PEM file of this node's client certificate (etcd --client-cert-auth). Needs a restart."
        ),
        .init(
            key: "cluster.tls.key", kind: .string, defaultJSON: "\"\"",
            help:
                "Cluster mode with https:// endpoints: PEM file of the client certificate's private key. Needs a restart."
        ),
    ]

    public static func spec(_ key: String) -> ConfigKeySpec? { all.first { $0.key == key } }

    /// The embedded default configuration as a documented JSON file: each key preceded by a
    /// `"#key"` member holding its documentation (members starting with `#` are comments).
    public static func documentedDefaultJSON() -> String {
        var sections: [(String, [ConfigKeySpec])] = []
        for spec in all {
            let section = String(spec.key.split(separator: ".")[0])
            if let index = sections.firstIndex(where: { $0.0 == section }) {
                sections[index].1.append(spec)
            } else {
                sections.append((section, [spec]))
            }
        }
        var out =
            "{\n  \"#\": \"splitd configuration. Precedence: command-line flags > SPLITD_* environment > this file > built-in defaults. Members whose name starts with # are comments.\",\n"
        for (sectionIndex, (section, specs)) in sections.enumerated() {
            out += "  \"\(section)\": {\n"
            // A key of three parts (`cluster.tls.ca`) sits in an object of its own inside
            // the section, where its siblings are.
            var entries: [(name: String, specs: [ConfigKeySpec])] = []
            for spec in specs {
                let parts = spec.key.split(separator: ".").map(String.init)
                if parts.count > 2, let index = entries.firstIndex(where: { $0.name == parts[1] && $0.specs.count > 0 })
                {
                    entries[index].specs.append(spec)
                } else {
                    entries.append((name: parts[1], specs: [spec]))
                }
            }
            for (index, entry) in entries.enumerated() {
                let nested = entry.specs[0].key.split(separator: ".").count > 2
                if nested {
                    out += "    \"\(entry.name)\": {\n"
                    for (inner, spec) in entry.specs.enumerated() {
                        out += member(spec, name: String(spec.key.split(separator: ".")[2]), indent: "      ")
                        out += inner == entry.specs.count - 1 ? "\n" : ",\n"
                    }
                    out += "    }"
                } else {
                    out += member(entry.specs[0], name: entry.name, indent: "    ")
                }
                out += index == entries.count - 1 ? "\n" : ",\n"
            }
            out += sectionIndex == sections.count - 1 ? "  }\n" : "  },\n"
        }
        return out + "}\n"
    }

    /// One documented member: its `#name` comment and, if it has a default, its value.
    private static func member(_ spec: ConfigKeySpec, name: String, indent: String) -> String {
        var out = "\(indent)\"#\(name)\": \(jsonString(spec.help + " Env: \(spec.environmentName)."))"
        if let value = spec.defaultJSON { out += ",\n\(indent)\"\(name)\": \(value)" }
        return out
    }

    private static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
