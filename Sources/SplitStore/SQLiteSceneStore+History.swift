// Reading a scene at a past revision. The scene's row is its newest checkpoint; the ones it
// held before are in `scene_checkpoints` (with the log's seq then, below which none of the
// scene's later entries are); the entries above a checkpoint are in the log, or in
// `journal_history` once the log's head was pruned past them.
extension SQLiteSceneStore {
    public var keepsHistory: Bool { true }

    public func history(scene: String, revision: Int64) throws(StoreError) -> SceneHistory {
        _ = try statements()
        let row = try database.prepare(
            """
            SELECT device, revision, state, journal_floor, journal_start, created_at, updated_at
            FROM scenes WHERE id = ?1
            """)
        try row.bind(scene, at: 1)
        guard try row.step() else { return .unknownScene }
        let device = row.text(at: 0)
        let start = row.int64(at: 4)
        let createdAt = row.int64(at: 5)
        var checkpoint = StoredScene(
            id: scene, device: device, revision: row.int64(at: 1), state: row.blob(at: 2), createdAt: createdAt,
            updatedAt: row.int64(at: 6))
        var floor = row.int64(at: 3)
        row.reset()
        let history = options.historyRevisions
        if checkpoint.revision > revision {
            guard history > 0 else { return .pruned(oldest: checkpoint.revision) }
            let past = try database.prepare(
                """
                SELECT revision, floor, state FROM scene_checkpoints WHERE scene = ?1 AND revision <= ?2
                ORDER BY revision DESC LIMIT 1
                """)
            try past.bind(scene, at: 1)
            try past.bind(revision, at: 2)
            guard try past.step() else {
                past.reset()
                let oldest = try database.prepare("SELECT min(revision) FROM scene_checkpoints WHERE scene = ?1")
                try oldest.bind(scene, at: 1)
                let found = try oldest.step() && !oldest.isNull(at: 0) ? oldest.int64(at: 0) : checkpoint.revision
                oldest.reset()
                return .pruned(oldest: min(found, checkpoint.revision))
            }
            checkpoint.revision = past.int64(at: 0)
            floor = past.int64(at: 1)
            checkpoint.state = past.blob(at: 2)
            checkpoint.updatedAt = createdAt
            past.reset()
        }
        var byRevision: [Int64: JournalEntry] = [:]
        if history > 0 {
            let kept = try database.prepare(
                """
                SELECT revision, change, layout_hash, at FROM journal_history
                WHERE scene = ?1 AND revision > ?2 AND revision <= ?3 ORDER BY revision
                """)
            try read(kept, scene: scene, above: checkpoint.revision, upTo: revision, into: &byRevision)
        }
        // The log from the checkpoint's seq on: a rowid range, filtered by scene.
        let log = try database.prepare(
            """
            SELECT revision, change, layout_hash, at FROM journal
            WHERE seq > ?4 AND scene = ?1 AND revision > ?2 AND revision <= ?3 ORDER BY seq
            """)
        try log.bind(max(floor, start), at: 4)
        try read(log, scene: scene, above: checkpoint.revision, upTo: revision, into: &byRevision)
        let entries = byRevision.values.sorted { $0.revision < $1.revision }
        return .replay(checkpoint: checkpoint, entries: entries)
    }

    private func read(
        _ statement: Statement, scene: String, above checkpoint: Int64, upTo revision: Int64,
        into entries: inout [Int64: JournalEntry]
    ) throws(StoreError) {
        defer { statement.reset() }
        try statement.bind(scene, at: 1)
        try statement.bind(checkpoint, at: 2)
        try statement.bind(revision, at: 3)
        while try statement.step() {
            let entry = JournalEntry(
                scene: scene, revision: statement.int64(at: 0), change: statement.blob(at: 1),
                layoutHash: statement.optionalText(at: 2), at: statement.int64(at: 3))
            entries[entry.revision] = entry
        }
    }

    /// With no history kept, what an earlier run kept goes (once, at open).
    func dropHistoryIfUnkept() throws(StoreError) {
        guard options.access == .readWrite, options.historyRevisions == 0 else { return }
        try database.transaction("drop the history of \(path)") { () throws(StoreError) in
            try database.execute("DELETE FROM scene_checkpoints; DELETE FROM journal_history;")
        }
    }
}
