extension SQLiteSceneStore {
    public func loadScenes() throws(StoreError) -> [StoredScene] {
        let statement = try statements().loadScenes
        defer { statement.reset() }
        var scenes: [StoredScene] = []
        // Counting walks the small id index only; it saves re-growing a 100k-element array.
        scenes.reserveCapacity(Int(try database.integer("SELECT count(*) FROM scenes") ?? 0))
        while try statement.step() {
            scenes.append(
                StoredScene(
                    id: statement.text(at: 0), device: statement.text(at: 1),
                    revision: statement.int64(at: 2), state: statement.blob(at: 3),
                    createdAt: statement.int64(at: 4), updatedAt: statement.int64(at: 5)))
        }
        return scenes
    }

    public func journal(scene: String, from revision: Int64, limit: Int?) throws(StoreError) -> [JournalEntry] {
        let statement = try statements().journal
        defer { statement.reset() }
        try statement.bind(scene, at: 1)
        try statement.bind(revision, at: 2)
        try statement.bind(Int64(limit ?? -1), at: 3)
        var entries: [JournalEntry] = []
        while try statement.step() {
            entries.append(
                JournalEntry(
                    scene: scene, revision: statement.int64(at: 0), change: statement.blob(at: 1),
                    layoutHash: statement.optionalText(at: 2), at: statement.int64(at: 3)))
        }
        return entries
    }

    public func journalTails() throws(StoreError) -> [JournalEntry] {
        let statement = try statements().journalTails
        defer { statement.reset() }
        // The log interleaves scenes; the contract groups them (oldest first within a scene).
        var byScene: [String: [JournalEntry]] = [:]
        var sceneOrder: [String] = []
        var firstUncheckpointed: [String: Int64] = [:]
        var count = 0
        while try statement.step() {
            let scene = statement.text(at: 1)
            let entry = JournalEntry(
                scene: scene, revision: statement.int64(at: 2), change: statement.blob(at: 3),
                layoutHash: statement.optionalText(at: 4), at: statement.int64(at: 5))
            if byScene[scene] == nil {
                sceneOrder.append(scene)
                firstUncheckpointed[scene] = statement.int64(at: 0)
            }
            byScene[scene, default: []].append(entry)
            count += 1
        }
        log.learn(firstUncheckpointed)
        var entries: [JournalEntry] = []
        entries.reserveCapacity(count)
        for scene in sceneOrder { entries += byScene[scene]! }
        return entries
    }

    public func snapshotSessions(scene: String) throws(StoreError) -> [SnapshotSessionSummary] {
        let statement = try statements().sessions
        defer { statement.reset() }
        try statement.bind(scene, at: 1)
        var sessions: [SnapshotSessionSummary] = []
        while try statement.step() { sessions.append(readSummary(statement)) }
        return sessions
    }

    public func snapshotSession(id: String) throws(StoreError) -> SnapshotSession? {
        let statement = try statements().session
        defer { statement.reset() }
        try statement.bind(id, at: 1)
        guard try statement.step() else { return nil }
        return SnapshotSession(summary: readSummary(statement), body: statement.blob(at: 7))
    }

    public func meta(key: String) throws(StoreError) -> String? {
        let statement = try statements().meta
        defer { statement.reset() }
        try statement.bind(key, at: 1)
        return try statement.step() ? statement.text(at: 0) : nil
    }

    public func counts() throws(StoreError) -> StoreCounts {
        _ = try statements()
        let pages = try database.integer("PRAGMA page_count") ?? 0
        let pageSize = try database.integer("PRAGMA page_size") ?? 0
        return StoreCounts(
            scenes: try database.integer("SELECT count(*) FROM scenes") ?? 0,
            journalEntries: try database.integer("SELECT count(*) FROM journal") ?? 0,
            snapshotSessions: try database.integer("SELECT count(*) FROM snapshot_sessions") ?? 0,
            databaseBytes: pages * pageSize)
    }

    // Columns 0...6 of the session queries.
    private func readSummary(_ statement: Statement) -> SnapshotSessionSummary {
        SnapshotSessionSummary(
            session: statement.text(at: 0), number: statement.int64(at: 1),
            scene: statement.text(at: 2), baseRevision: statement.int64(at: 3),
            sizes: statement.blob(at: 4), hash: statement.text(at: 5),
            createdAt: statement.int64(at: 6))
    }
}
