/// Every statement the store runs on its hot paths, prepared once when it opens.
final class StoreStatements {
    static let lastSessionNumberSQL = """
        SELECT max(coalesce((SELECT value FROM meta WHERE key = 'last_session_number'), 0),
                   coalesce((SELECT max(number) FROM snapshot_sessions), 0))
        """

    /// ?1 id, ?2 device, ?3 revision, ?4 state, ?5 now, ?6 the log's last seq (the new
    /// `journal_floor`; also `journal_start` of a new row). `created_at` and `journal_start`
    /// survive updates.
    let upsertScene: Statement
    /// ?1 id. Cascades to the scene's snapshot sessions; its journal entries stay until the
    /// log's head is pruned past them (a new scene with the same id starts above them).
    let deleteScene: Statement
    /// Multi-row INSERTs into the journal, the most rows first: a commit's entries go in
    /// chunks, so the VDBE program, the step and the reset run once per chunk, not per entry.
    /// ?1 now; row k (0-based) binds ?(2+4k) scene, then revision, change, layout hash. The
    /// seq is SQLite's next rowid, the log's last seq + 1 (the newest entry is never pruned),
    /// which spares a seek per row; the commit checks it (`lastInsertRowID`).
    let journalInserts: [(rows: Int, statement: Statement)]
    /// Where a chunk's text and blobs are copied for binding (`BindBuffer`): 64 KiB holds a
    /// full chunk of the daemon's entries (~100 bytes each); what does not fit SQLite copies.
    let journalBindingStorage: UnsafeMutableRawBufferPointer
    /// The chunk sizes of `journalInserts`, largest first: a count takes the fewest statements.
    static let journalChunkRows = [64, 32, 16, 8, 4, 2, 1]
    /// ?1 first seq to keep: deletes the head of the log below it.
    let pruneJournal: Statement
    /// ?1 first seq to keep, ?2 history revisions: copies the entries below it that their
    /// scene's history still needs (above its oldest kept checkpoint) into `journal_history`,
    /// before `pruneJournal` deletes them.
    let keepPrunedHistory: Statement
    /// ?1 scene, ?2 the revision of its new checkpoint: the row's checkpoint, when older,
    /// becomes a past one (`scene_checkpoints`).
    let archiveCheckpoint: Statement
    /// ?1 scene, ?2 the lowest revision its history must rebuild: deletes the past
    /// checkpoints below the newest one at or below it.
    let trimCheckpoints: Statement
    /// ?1 scene: deletes the kept entries at or below its oldest past checkpoint.
    let trimJournalHistory: Statement
    /// ?1 scene: its past checkpoints and kept entries go with it.
    let deleteCheckpoints: Statement
    let deleteJournalHistory: Statement
    /// The oldest and newest seq in the log (NULLs when it is empty).
    let journalBounds: Statement
    /// Each scene's oldest entry above its checkpoint: what holds the log's head back.
    let firstUncheckpointed: Statement
    /// ?1 session, ?2 number, ?3 scene, ?4 base revision, ?5 sizes, ?6 hash, ?7 body, ?8 now.
    let insertSession: Statement
    /// ?1 number: raises the persisted high-water mark of session numbers.
    let recordSessionNumber: Statement
    /// ?1 key, ?2 value.
    let setMeta: Statement

    /// Table order: sorting by id would walk the id index, several times slower at 100k scenes.
    let loadScenes: Statement
    /// ?1 scene, ?2 from revision, ?3 limit (-1: none). Scans the log: for tools and tests.
    let journal: Statement
    /// The entries above each scene's checkpoint, in log order. The log is the outer loop
    /// (it holds only the retention and what checkpoints have not covered yet); each entry
    /// costs one seek into `scenes`.
    let journalTails: Statement
    /// ?1 scene.
    let sessions: Statement
    /// ?1 session.
    let session: Statement
    /// ?1 key.
    let meta: Statement

    deinit { journalBindingStorage.deallocate() }

    init(_ database: Database) throws(StoreError) {
        upsertScene = try database.prepare(
            """
            INSERT INTO scenes (id, device, revision, state, created_at, updated_at, journal_floor, journal_start)
            VALUES (?1, ?2, ?3, ?4, ?5, ?5, ?6, ?6)
            ON CONFLICT (id) DO UPDATE SET device = excluded.device, revision = excluded.revision,
                state = excluded.state, updated_at = excluded.updated_at, journal_floor = excluded.journal_floor
            """)
        deleteScene = try database.prepare("DELETE FROM scenes WHERE id = ?1")
        var inserts: [(rows: Int, statement: Statement)] = []
        for rows in StoreStatements.journalChunkRows {
            inserts.append((rows, try database.prepare(StoreStatements.journalInsertSQL(rows: rows))))
        }
        journalInserts = inserts
        pruneJournal = try database.prepare("DELETE FROM journal WHERE seq < ?1")
        keepPrunedHistory = try database.prepare(
            """
            INSERT OR REPLACE INTO journal_history (scene, revision, change, layout_hash, at)
            SELECT j.scene, j.revision, j.change, j.layout_hash, j.at FROM journal AS j CROSS JOIN scenes AS s
            WHERE j.seq < ?1 AND s.id = j.scene AND j.seq > s.journal_start AND j.revision > coalesce(
                (SELECT max(c.revision) FROM scene_checkpoints AS c WHERE c.scene = j.scene AND c.revision <= s.revision - ?2),
                (SELECT min(c.revision) FROM scene_checkpoints AS c WHERE c.scene = j.scene),
                s.revision)
            """)
        archiveCheckpoint = try database.prepare(
            """
            INSERT OR REPLACE INTO scene_checkpoints (scene, revision, floor, state)
            SELECT id, revision, journal_floor, state FROM scenes WHERE id = ?1 AND revision < ?2
            """)
        trimCheckpoints = try database.prepare(
            """
            DELETE FROM scene_checkpoints WHERE scene = ?1
            AND revision < (SELECT max(revision) FROM scene_checkpoints WHERE scene = ?1 AND revision <= ?2)
            """)
        trimJournalHistory = try database.prepare(
            """
            DELETE FROM journal_history WHERE scene = ?1
            AND revision <= (SELECT min(revision) FROM scene_checkpoints WHERE scene = ?1)
            """)
        deleteCheckpoints = try database.prepare("DELETE FROM scene_checkpoints WHERE scene = ?1")
        deleteJournalHistory = try database.prepare("DELETE FROM journal_history WHERE scene = ?1")
        journalBounds = try database.prepare("SELECT min(seq), max(seq) FROM journal")
        firstUncheckpointed = try database.prepare(
            """
            SELECT j.scene, min(j.seq) FROM journal AS j CROSS JOIN scenes AS s
            WHERE s.id = j.scene AND j.seq > s.journal_floor AND j.revision > s.revision
            GROUP BY j.scene
            """)
        insertSession = try database.prepare(
            """
            INSERT INTO snapshot_sessions (session, number, scene, base_revision, sizes, hash, body, created_at)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            """)
        recordSessionNumber = try database.prepare(
            """
            INSERT INTO meta (key, value) VALUES ('last_session_number', ?1)
            ON CONFLICT (key) DO UPDATE SET value = max(value, excluded.value)
            """)
        setMeta = try database.prepare(
            """
            INSERT INTO meta (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET value = excluded.value
            """)
        loadScenes = try database.prepare(
            """
            SELECT id, device, revision, state, created_at, updated_at FROM scenes
            """)
        journal = try database.prepare(
            """
            SELECT revision, change, layout_hash, at FROM journal
            WHERE scene = ?1 AND revision >= ?2 AND seq > (SELECT journal_start FROM scenes WHERE id = ?1)
            ORDER BY seq LIMIT ?3
            """)
        journalTails = try database.prepare(
            """
            SELECT j.seq, j.scene, j.revision, j.change, j.layout_hash, j.at FROM journal AS j CROSS JOIN scenes AS s
            WHERE s.id = j.scene AND j.seq > s.journal_floor AND j.revision > s.revision
            ORDER BY j.seq
            """)
        sessions = try database.prepare(
            """
            SELECT session, number, scene, base_revision, sizes, hash, created_at FROM snapshot_sessions
            WHERE scene = ?1 ORDER BY number
            """)
        session = try database.prepare(
            """
            SELECT session, number, scene, base_revision, sizes, hash, created_at, body FROM snapshot_sessions
            WHERE session = ?1
            """)
        meta = try database.prepare("SELECT value FROM meta WHERE key = ?1")
        // Last: nothing after it can throw and leak it.
        journalBindingStorage = .allocate(byteCount: 64 << 10, alignment: 16)
    }

    static func journalInsertSQL(rows: Int) -> String {
        let values = (0..<rows).map { row in
            let first = 2 + 4 * row
            return "(?\(first), ?\(first + 1), ?\(first + 2), ?\(first + 3), ?1)"
        }
        return "INSERT INTO journal (scene, revision, change, layout_hash, at) VALUES " + values.joined(separator: ", ")
    }

    /// The largest chunk of at most `remaining` rows (`remaining` > 0).
    func journalInsert(upTo remaining: Int) -> (rows: Int, statement: Statement) {
        journalInserts.first { $0.rows <= remaining } ?? journalInserts[journalInserts.count - 1]
    }
}
