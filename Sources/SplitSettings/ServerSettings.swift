import Logging
import SplitCore

/// Everything the daemon is configured with, resolved (defaults applied, paths absolute).
/// Built by `ConfigLoader` from defaults, the config file, the environment and flags.
public struct ServerSettings: Sendable, Equatable {
    /// Where to listen when not socket-activated.
    public var socketPath: String
    /// A group that may share the socket (directory `0750`, socket `0660`); nil: owner only.
    public var socketGroup: UInt32?
    /// The `FileDescriptorName=` of the activated socket to use (all passed sockets if none has it).
    public var activationName: String = "splitd"
    /// The SQLite database; nil keeps scenes in memory only (the demo without `--database`).
    public var databasePath: String?
    public var durability: DatabaseDurability = .full
    public var integrityCheck: DatabaseIntegrityCheck = .quick
    public var busyTimeoutMilliseconds: Int32 = 100
    public var journalRetention: Int64 = 10_000
    /// The last revisions of each scene that `scene.at` can rebuild: the past checkpoints and
    /// journal entries they need are kept beside the journal's own retention, per scene,
    /// trimmed when the scene checkpoints. 0 keeps no history.
    public var historyRevisions: Int64 = 1000
    /// Changes of a scene stored as journal entries only before its full state is written
    /// again (a checkpoint); a restart replays at most this many per scene (fewer after the
    /// periodic sweep or a graceful stop). Each checkpoint rewrites the scene's row, a WAL
    /// frame of its own, so fewer checkpoints cost less per change; `replayBudget` keeps the
    /// worst restart after a crash where it was when many scenes are busy. The measurement
    /// behind 64 is in docs/PERFORMANCE.md, "Figures behind the tunables".
    public var checkpointEvery: Int = 64
    /// Journal entries above the checkpoints, over all scenes, that a start after a crash
    /// may have to replay and the journal must keep: while more than
    /// `replayBudget / checkpointEvery` scenes (500) have changes above their checkpoint,
    /// each is checkpointed every `checkpointEvery / 4` changes instead. 0: always every
    /// `checkpointEvery`. The budget bounds the live journal rows, and with them SQLite's
    /// page cache, when many scenes change at once (docs/PERFORMANCE.md).
    public var replayBudget: Int = 32_000
    /// Group commit (full durability): a WAL flush starts at least this long after the
    /// previous one started, unless `flushDelayCount` changes wait (MySQL's
    /// binlog_group_commit_sync_delay / _no_delay_count) or nobody may still join it
    /// (`FlushPeers`, or the loop about to sleep with nothing to read: `IdleFlush.swift`);
    /// 0: each flush as soon as asked.
    public var flushDelayMicroseconds: Int = 600
    public var flushDelayCount: Int = 16
    /// Whether a flush waiting for company goes once the loop is about to sleep with nothing
    /// to read (`IdleFlush.swift`). Not a configuration key: tests turn it off to reach the
    /// delay's other rules, which their idle loop would otherwise cut short.
    public var hurriesIdleFlushes = true
    /// WAL size in pages that starts a background checkpoint (`StoreOptions.walCheckpointPages`).
    public var walCheckpointPages: Int32 = 16_000
    /// Milliseconds between sweeps checkpointing scenes left with changes above their
    /// checkpoint (at most `Server.checkpointsPerSweep` per sweep); 0: no sweep. Not a
    /// configuration key: tests turn it off or speed it up.
    public var checkpointSweepMilliseconds: UInt64 = 1000
    public var logLevel: Logger.Level = .info

    /// Keep what a start's journal replay gives where it differs from what was acknowledged
    /// (`splitd --accept-replay-divergence`) instead of refusing to start. Not a
    /// configuration key: a one-time recovery decision of an operator, after a crash
    /// followed by an upgrade that changed the layout rules.
    public var acceptReplayDivergence = false

    /// Longest request line in bytes (WIRE.md default 65536).
    public var maxLineLength: Int = 65536
    /// Seconds a connection may hold an incomplete line (bytes with no newline yet) before
    /// it is refused and closed; 0: no limit.
    public var partialLineTimeoutSeconds: Int = 60
    /// Connected clients at once; the next one gets `limit_exceeded` and is closed.
    public var maxClients: Int = 1024
    /// Scenes at once; `scene.create` beyond it gets `limit_exceeded`.
    public var maxScenes: Int = 10_000
    /// Stack depth, id length, presentations, tabs, snapshot sizes (the core enforces them).
    public var coreLimits: CoreLimits = CoreLimits()
    /// Queued output past which a client's requests are not read (and, when
    /// `coalescesSlowReaderPushes`, its pushes are coalesced to the newest per scene).
    public var outputSoftLimit: Int = 1 << 20
    /// Queued output past which a client is disconnected.
    public var outputHardLimit: Int = 16 << 20
    /// Queued output of all clients together past which the clients with the most are
    /// disconnected, largest first, until the total is back under it (Redis's
    /// `maxmemory-clients`): without it, `maxClients` slow readers could hold
    /// `maxClients` × `outputHardLimit` (16 GiB by default).
    public var outputTotalLimit: Int = 256 << 20
    /// `output.slowReaderPushes coalesce`: a slow reader gets the newest push per scene
    /// (skipping revisions) instead of every push (WIRE's "none missed", the default).
    public var coalescesSlowReaderPushes = false
    /// Who may connect (SO_PEERCRED): by default the daemon's own uid and root.
    public var allowList: PeerAllowList = .ownerAndRoot()
    /// How long a graceful stop waits for slow readers before closing them anyway.
    public var shutdownTimeoutMilliseconds: UInt64 = 5000
    /// After a turn that did work, how long the loop keeps polling for the next request
    /// instead of sleeping (`BusyPoll.swift`); 0: sleep at once.
    public var busyPollMicroseconds: UInt64 = 200
    /// Listen backlog.
    public var backlog: Int32 = 128
    /// The width from which a windowed iPad scene is horizontally regular (SEMANTICS 2).
    public var windowedRegularMinWidth: Int = 640
    /// A file of extra rule sets (`Config/rulesets.json`'s shape); nil: none.
    public var ruleSetsFile: String?
    /// `ruleSetsFile`'s bytes as the configuration read them: the start and a reload use
    /// what was checked, not a second read of a file that may have changed in between.
    public var ruleSetsJSON: [UInt8]?
    /// Cluster mode (scenes in etcd); nil: the single-host daemon with its local database.
    public var cluster: ClusterSettings?

    /// Whether a peer of user `uid` and primary group `gid` (as SO_PEERCRED gives them) may
    /// use the daemon: on the allow-list, or in the group the socket is shared with
    /// (`socket.group`: sharing the file without admitting the group would let its members
    /// connect only to be refused).
    public func admits(uid: UInt32, gid: UInt32) -> Bool {
        allowList.admits(uid: uid, gid: gid) || socketGroup == gid
    }

    public init(socketPath: String, databasePath: String?) {
        self.socketPath = socketPath
        self.databasePath = databasePath
    }
}

/// `database.durability`: what an acknowledged change survives (SplitStore's `Durability`).
public enum DatabaseDurability: String, Sendable, CaseIterable {
    /// The WAL is flushed before a change is acknowledged: it survives a power loss.
    case full
    /// `synchronous=NORMAL`: it survives a crash of splitd.
    case normal
}

/// `database.integrityCheck`: what the store verifies when it opens an existing file
/// (SplitStore's `IntegrityCheck`).
public enum DatabaseIntegrityCheck: String, Sendable, CaseIterable {
    case none, quick, full
}
