/// One step of the schema's history: `sql` brings a database at `version - 1` to `version`.
/// Steps are never edited once released; a change of schema is a new step.
struct Migration: Sendable {
    let version: Int64
    let summary: String
    let sql: String
}

/// The schema's versions, in order, recorded in `PRAGMA user_version`.
enum Migrations {
    /// `PRAGMA application_id` of a splitd database ("SPLT"), to refuse other SQLite files.
    static let applicationID: Int64 = 0x5350_4C54

    static let all: [Migration] = [
        Migration(
            version: 1, summary: "scenes, journal, snapshot sessions, meta",
            sql: """
                CREATE TABLE scenes (
                    id TEXT PRIMARY KEY NOT NULL,
                    device TEXT NOT NULL,
                    revision INTEGER NOT NULL,
                    state BLOB NOT NULL,
                    created_at INTEGER NOT NULL,
                    updated_at INTEGER NOT NULL
                );
                CREATE TABLE journal (
                    scene TEXT NOT NULL REFERENCES scenes(id) ON DELETE CASCADE,
                    revision INTEGER NOT NULL,
                    change BLOB NOT NULL,
                    layout_hash TEXT,
                    at INTEGER NOT NULL,
                    PRIMARY KEY (scene, revision)
                ) WITHOUT ROWID;
                CREATE TABLE snapshot_sessions (
                    session TEXT PRIMARY KEY NOT NULL,
                    number INTEGER NOT NULL UNIQUE,
                    scene TEXT NOT NULL REFERENCES scenes(id) ON DELETE CASCADE,
                    base_revision INTEGER NOT NULL,
                    sizes BLOB NOT NULL,
                    hash TEXT NOT NULL,
                    body BLOB NOT NULL,
                    created_at INTEGER NOT NULL
                );
                CREATE INDEX snapshot_sessions_by_scene ON snapshot_sessions (scene, number);
                CREATE TABLE meta (
                    key TEXT PRIMARY KEY NOT NULL,
                    value
                ) WITHOUT ROWID;
                PRAGMA application_id = \(applicationID);
                """),
        // No table changes; the meaning of the rows changes. A scene's row is now its last
        // checkpoint and the journal entries above it (versioned change records) are replayed
        // at start. The new version keeps an older splitd, which would take the checkpoint for
        // the current state and drop the acknowledged changes above it, from opening the file.
        Migration(
            version: 2, summary: "scene rows are checkpoints, the journal above them is replayed",
            sql: """
                INSERT INTO meta (key, value) VALUES ('journal_format', 'checkpoint+changes 1')
                ON CONFLICT (key) DO NOTHING;
                """),
        // The journal becomes a log in append order: `seq` (the rowid) is a global sequence, so
        // a turn's entries land on the last page or two of the table instead of one page per
        // scene. Nothing references scenes any more: an entry belongs to its scene's current
        // life when its seq is above the row's `journal_start` (stamped when the row is
        // inserted), and a restart replays it when its seq is above `journal_floor` (stamped
        // at every checkpoint) and its revision above the checkpoint's. Entries of deleted
        // scenes and entries below every checkpoint are pruned from the head of the log.
        // Migrated entries keep their order within a scene; floors of 0 with the revision rule
        // replay exactly what schema 2 replayed.
        Migration(
            version: 3, summary: "the journal is a log in append order",
            sql: """
                CREATE TABLE journal_log (
                    seq INTEGER PRIMARY KEY,
                    scene TEXT NOT NULL,
                    revision INTEGER NOT NULL,
                    change BLOB NOT NULL,
                    layout_hash TEXT,
                    at INTEGER NOT NULL
                );
                INSERT INTO journal_log (scene, revision, change, layout_hash, at)
                    SELECT scene, revision, change, layout_hash, at FROM journal ORDER BY scene, revision;
                DROP TABLE journal;
                ALTER TABLE journal_log RENAME TO journal;
                ALTER TABLE scenes ADD COLUMN journal_floor INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE scenes ADD COLUMN journal_start INTEGER NOT NULL DEFAULT 0;
                UPDATE meta SET value = 'checkpoint+log 1' WHERE key = 'journal_format';
                """),
        // History for reading a scene at a past revision: the checkpoints a scene's row held
        // before later ones replaced it (`floor` is the row's `journal_floor` then: the scene's
        // entries above the checkpoint are above it in the log), and the journal entries the
        // log's head pruned while their scene's history window still needed them. Both are
        // trimmed per scene when it checkpoints, and go with the scene when it is deleted.
        // Checkpoints keep a rowid (their states would overflow `WITHOUT ROWID` pages); the
        // small entries do not need one.
        Migration(
            version: 4, summary: "past checkpoints and pruned journal entries kept as history",
            sql: """
                CREATE TABLE scene_checkpoints (
                    scene TEXT NOT NULL,
                    revision INTEGER NOT NULL,
                    floor INTEGER NOT NULL,
                    state BLOB NOT NULL,
                    PRIMARY KEY (scene, revision)
                );
                CREATE TABLE journal_history (
                    scene TEXT NOT NULL,
                    revision INTEGER NOT NULL,
                    change BLOB NOT NULL,
                    layout_hash TEXT,
                    at INTEGER NOT NULL,
                    PRIMARY KEY (scene, revision)
                ) WITHOUT ROWID;
                """),
    ]

    /// The version this binary writes.
    static var latestVersion: Int64 { all.last?.version ?? 0 }

    /// Applies every step newer than the file's version, each in its own transaction
    /// (re-reading the version inside it, so two processes migrating at once cannot apply
    /// a step twice). A failed step leaves the database at the previous version.
    static func migrate(_ database: Database) throws(StoreError) {
        let found = try database.integer("PRAGMA user_version") ?? 0
        for migration in all where migration.version > found {
            try database.transaction("migrate \(database.path) to schema \(migration.version) (\(migration.summary))") {
                () throws(StoreError) in
                let current = try database.integer("PRAGMA user_version") ?? 0
                guard current < migration.version else { return }
                try database.execute(migration.sql)
                try database.execute("PRAGMA user_version = \(migration.version)")
            }
        }
    }
}
