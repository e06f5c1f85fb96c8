import CSQLite

extension SQLiteSceneStore {
    public func commit(_ batch: StoreBatch) throws(StoreError) {
        guard !batch.isEmpty else { return }
        let statements = try statements()
        let started = monotonicNanoseconds()
        let now = options.clock()
        log.beginBatch()
        do {
            let pruned = try database.transaction("commit batch of \(batch.count) operations") { () throws(StoreError) -> Int64 in
                var appended: Int64 = 0
                for operation in batch.operations {
                    if try apply(operation, statements: statements, now: now) { appended += 1 }
                }
                return appended > 0 ? try pruneJournal(appended: appended, statements: statements, started: started) : 0
            }
            log.endBatch()
            recordCommit(operations: batch.count, pruned: pruned, nanoseconds: monotonicNanoseconds() - started)
        } catch {
            log.abandonBatch()
            recordFailedCommit()
            throw error
        }
    }

    /// Runs one operation inside the batch's transaction; true when it appended to the journal.
    private func apply(_ operation: StoreBatch.Operation, statements: StoreStatements, now: Int64) throws(StoreError) -> Bool {
        switch operation {
        case let .upsertScene(id, device, revision, state):
            let statement = statements.upsertScene
            try statement.bind(id, at: 1)
            try statement.bind(device, at: 2)
            try statement.bind(revision, at: 3)
            try statement.bind(state, at: 4)
            try statement.bind(now, at: 5)
            try statement.bind(log.checkpoint(scene: id, revision: revision), at: 6)
            try statement.run()
        case let .deleteScene(id):
            try statements.deleteScene.bind(id, at: 1)
            try statements.deleteScene.run()
            log.delete(scene: id)
        case let .appendJournal(scene, revision, change, layoutHash):
            let statement = statements.appendJournal
            try statement.bind(log.append(scene: scene, revision: revision), at: 1)
            try statement.bind(scene, at: 2)
            try statement.bind(revision, at: 3)
            try statement.bind(change, at: 4)
            try statement.bind(layoutHash, at: 5)
            try statement.bind(now, at: 6)
            try statement.run()
            return true
        case let .insertSnapshotSession(session):
            try insert(session, statements: statements, now: now)
        case let .setMeta(key, value):
            try statements.setMeta.bind(key, at: 1)
            try statements.setMeta.bind(value, at: 2)
            try statements.setMeta.run()
        }
        return false
    }

    // Deletes history past the retention from the head of the log, a bounded chunk per commit
    // (a few times what the commit appended) so that no single commit stalls on it.
    private func pruneJournal(appended: Int64, statements: StoreStatements, started: Int64) throws(StoreError) -> Int64 {
        guard options.journalRetention > 0 else { return 0 }
        if !log.knowsUncheckpointed { log.learn(try firstUncheckpointed(statements)) }
        guard let keepFrom = log.pruneTarget(retention: options.journalRetention, chunk: max(256, 4 * appended), now: started,
                                                  refresh: options.pruneRefreshMilliseconds * 1_000_000) else {
            return 0
        }
        try statements.pruneJournal.bind(keepFrom, at: 1)
        try statements.pruneJournal.run()
        log.pruned(below: keepFrom)
        return Int64(sqlite3_changes(database.handle))
    }

    /// Per scene with journal entries above its checkpoint, the seq of the oldest, read from
    /// the file (one pass over the log).
    func firstUncheckpointed(_ statements: StoreStatements) throws(StoreError) -> [String: Int64] {
        let statement = statements.firstUncheckpointed
        defer { statement.reset() }
        var first: [String: Int64] = [:]
        while try statement.step() { first[statement.text(at: 0)] = statement.int64(at: 1) }
        return first
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
