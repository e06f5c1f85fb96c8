import CSQLite

extension SQLiteSceneStore {
    public func commit(_ batch: StoreBatch) throws(StoreError) {
        guard !batch.isEmpty else { return }
        let statements = try statements()
        let started = monotonicNanoseconds()
        let now = options.clock()
        do {
            let pruned = try database.transaction("commit batch of \(batch.count) operations") { () throws(StoreError) -> Int64 in
                var pruned: Int64 = 0
                for operation in batch.operations {
                    pruned += try apply(operation, statements: statements, now: now)
                }
                return pruned
            }
            recordCommit(operations: batch.count, pruned: pruned, nanoseconds: monotonicNanoseconds() - started)
        } catch {
            recordFailedCommit()
            throw error
        }
    }

    /// Runs one operation inside the batch's transaction; returns journal entries pruned.
    private func apply(_ operation: StoreBatch.Operation, statements: StoreStatements, now: Int64) throws(StoreError) -> Int64 {
        switch operation {
        case let .upsertScene(id, device, revision, state):
            let statement = statements.upsertScene
            try statement.bind(id, at: 1)
            try statement.bind(device, at: 2)
            try statement.bind(revision, at: 3)
            try statement.bind(state, at: 4)
            try statement.bind(now, at: 5)
            try statement.run()
            return try pruneJournal(scene: id, checkpoint: revision, statements: statements)
        case let .deleteScene(id):
            try statements.deleteScene.bind(id, at: 1)
            try statements.deleteScene.run()
        case let .appendJournal(scene, revision, change, layoutHash):
            let statement = statements.appendJournal
            try statement.bind(scene, at: 1)
            try statement.bind(revision, at: 2)
            try statement.bind(change, at: 3)
            try statement.bind(layoutHash, at: 4)
            try statement.bind(now, at: 5)
            try statement.run()
        case let .insertSnapshotSession(session):
            try insert(session, statements: statements, now: now)
        case let .setMeta(key, value):
            try statements.setMeta.bind(key, at: 1)
            try statements.setMeta.bind(value, at: 2)
            try statements.setMeta.run()
        }
        return 0
    }

    // Keeps revisions above checkpoint - retention: one indexed range delete per checkpoint.
    // Nothing above the checkpoint goes: a restart replays those entries.
    private func pruneJournal(scene: String, checkpoint revision: Int64, statements: StoreStatements) throws(StoreError) -> Int64 {
        let retention = options.journalRetention
        guard retention > 0, revision - retention >= 0 else { return 0 }
        try statements.pruneJournal.bind(scene, at: 1)
        try statements.pruneJournal.bind(revision - retention, at: 2)
        try statements.pruneJournal.run()
        return Int64(sqlite3_changes(database.handle))
    }

    private func insert(_ session: SnapshotSessionInsert, statements: StoreStatements, now: Int64) throws(StoreError) {
        let statement = statements.insertSession
        try statement.bind(session.session, at: 1)
        try statement.bind(session.number, at: 2)
        try statement.bind(session.scene, at: 3)
        try statement.bind(session.baseRevision, at: 4)
        try statement.bind(session.sizes, at: 5)
        try statement.bind(session.hash, at: 6)
        try statement.bind(session.body, at: 7)
        try statement.bind(now, at: 8)
        try statement.run()
        try statements.recordSessionNumber.bind(session.number, at: 1)
        try statements.recordSessionNumber.run()
    }
}
