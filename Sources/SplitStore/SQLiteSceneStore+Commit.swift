import CSQLite

extension SQLiteSceneStore {
    public func commit(_ batch: StoreBatch) throws(StoreError) {
        guard !batch.isEmpty else { return }
        if let walCheckpointer {
            _ = walCheckpointer.enterWriterCommit(wait: true)
            defer { walCheckpointer.leaveWriterCommit() }
            try commitNow(batch)
        } else {
            try commitNow(batch)
        }
    }

    public func commitUnlessHeldBack(_ batch: StoreBatch) throws(StoreError) -> Bool {
        guard !batch.isEmpty else { return true }
        guard let walCheckpointer else {
            try commitNow(batch)
            return true
        }
        guard walCheckpointer.enterWriterCommit(wait: false) else { return false }
        defer { walCheckpointer.leaveWriterCommit() }
        try commitNow(batch)
        return true
    }

    private func commitNow(_ batch: StoreBatch) throws(StoreError) {
        if let lostFile {
            recordFailedCommit()
            throw StoreError.check(
                .ioError, code: SQLITE_IOERR, operation: "commit batch of \(batch.count) operations",
                message: "the database file \(path) \(lostFile) while splitd ran; nothing more is stored in it")
        }
        let statements = try statements()
        let started = monotonicNanoseconds()
        let now = options.clock()
        log.beginBatch()
        do {
            let pruned = try database.transaction("commit batch of \(batch.count) operations") {
                () throws(StoreError) -> Int64 in
                let firstSeq = log.lastSeq + 1
                for operation in batch.operations {
                    try apply(operation, statements: statements, now: now)
                }
                let appended = log.lastSeq - firstSeq + 1
                guard appended > 0 else { return 0 }
                try insertJournal(of: batch, count: Int(appended), firstSeq: firstSeq, statements: statements, now: now)
                return try pruneJournal(appended: appended, statements: statements, started: started)
            }
            log.endBatch()
            recordCommit(operations: batch.count, pruned: pruned, nanoseconds: monotonicNanoseconds() - started)
        } catch {
            log.abandonBatch()
            recordFailedCommit()
            // A full disk: a cycle that ends by starting the WAL over lets the next commits
            // reuse the WAL's own blocks, where more frames need new ones (the checkpoint's
            // copy needs room only for the pages it adds to the database file).
            if error.kind == .full { walCheckpointer?.requestCycle() }
            throw error
        }
    }

    /// Runs one operation inside the batch's transaction. A journal entry only takes its seq
    /// here; `insertJournal` writes the entries afterwards.
    private func apply(_ operation: StoreBatch.Operation, statements: StoreStatements, now: Int64) throws(StoreError) {
        switch operation {
        case let .upsertScene(id, device, revision, state):
            let history = options.historyRevisions
            if history > 0 {
                try statements.archiveCheckpoint.bind(id, at: 1)
                try statements.archiveCheckpoint.bind(revision, at: 2)
                try statements.archiveCheckpoint.run()
            }
            let statement = statements.upsertScene
            try statement.bind(id, at: 1)
            try statement.bind(device, at: 2)
            try statement.bind(revision, at: 3)
            try statement.bind(state, at: 4)
            try statement.bind(now, at: 5)
            try statement.bind(log.checkpoint(scene: id, revision: revision), at: 6)
            try statement.run()
            if history > 0 { try trimHistory(of: id, below: revision - history, statements: statements) }
        case let .deleteScene(id):
            try statements.deleteScene.bind(id, at: 1)
            try statements.deleteScene.run()
            for statement in [statements.deleteCheckpoints, statements.deleteJournalHistory] {
                try statement.bind(id, at: 1)
                try statement.run()
            }
            log.delete(scene: id)
        case let .appendJournal(scene, revision, _, _):
            _ = log.append(scene: scene, revision: revision)
        case let .insertSnapshotSession(session):
            try insert(session, statements: statements, now: now)
        case let .setMeta(key, value):
            try statements.setMeta.bind(key, at: 1)
            try statements.setMeta.bind(value, at: 2)
            try statements.setMeta.run()
        case .answerForwarded:
            // Only cluster mode forwards requests; this store serves one host.
            break
        }
    }

    // The batch's journal entries, `firstSeq` on, in multi-row INSERTs. They can go after the
    // batch's other operations: nothing in it reads the journal and no constraint ties the
    // log to `scenes`, so the rows (and their seqs) are the ones one INSERT per entry in
    // operation order wrote. The prune, which may delete below the new entries, comes after.
    private func insertJournal(
        of batch: StoreBatch, count: Int, firstSeq: Int64, statements: StoreStatements,
        now: Int64
    ) throws(StoreError) {
        var remaining = count
        var seq = firstSeq
        var chunk = statements.journalInsert(upTo: remaining)
        try chunk.statement.bind(now, at: 1)
        var buffer = BindBuffer(statements.journalBindingStorage)
        var row = 0
        for operation in batch.operations {
            guard case let .appendJournal(scene, revision, change, layoutHash) = operation else { continue }
            let statement = chunk.statement
            let first = Int32(2 + 4 * row)
            try statement.bind(scene, at: first, in: &buffer)
            try statement.bind(revision, at: first + 1)
            try statement.bind(batch.change(of: change), at: first + 2, in: &buffer)
            try statement.bind(layoutHash, at: first + 3, in: &buffer)
            seq += 1
            row += 1
            guard row == chunk.rows else { continue }
            try statement.runKeepingBindings()
            // SQLite numbered the rows; a log out of step with the file would mislabel every
            // checkpoint's floor, so the batch fails instead.
            guard database.lastInsertRowID == seq - 1 else {
                throw StoreError.check(
                    .corrupt, code: SQLITE_CORRUPT, operation: "append to the journal of \(path)",
                    message: "the journal's last seq is \(database.lastInsertRowID), the log expected \(seq - 1)")
            }
            remaining -= row
            guard remaining > 0 else { break }
            row = 0
            chunk = statements.journalInsert(upTo: remaining)
            try chunk.statement.bind(now, at: 1)
            buffer = BindBuffer(statements.journalBindingStorage)
        }
    }

    // Deletes history past the retention from the head of the log once `pruneBatch` entries
    // are past it, a bounded chunk per commit (a few times what the commit appended) so that
    // no single commit stalls on it.
    private func pruneJournal(appended: Int64, statements: StoreStatements, started: Int64) throws(StoreError) -> Int64
    {
        guard options.journalRetention > 0 else { return 0 }
        if !log.knowsUncheckpointed { log.learn(try firstUncheckpointed(statements)) }
        guard
            let keepFrom = log.pruneTarget(
                retention: options.journalRetention, chunk: max(256, 4 * appended),
                batch: options.pruneBatch, now: started,
                refresh: options.pruneRefreshMilliseconds * 1_000_000)
        else {
            return 0
        }
        if options.historyRevisions > 0 {
            try statements.keepPrunedHistory.bind(keepFrom, at: 1)
            try statements.keepPrunedHistory.bind(options.historyRevisions, at: 2)
            try statements.keepPrunedHistory.run()
        }
        try statements.pruneJournal.bind(keepFrom, at: 1)
        try statements.pruneJournal.run()
        log.pruned(below: keepFrom)
        return Int64(sqlite3_changes(database.handle))
    }

    // A scene's history keeps the newest past checkpoint at or below `lowest` and everything
    // above it; older checkpoints and the entries at or below the oldest kept one go. Runs
    // at each checkpoint of the scene, so its history stays within `historyRevisions` plus a
    // checkpoint interval.
    private func trimHistory(of scene: String, below lowest: Int64, statements: StoreStatements) throws(StoreError) {
        try statements.trimCheckpoints.bind(scene, at: 1)
        try statements.trimCheckpoints.bind(lowest, at: 2)
        try statements.trimCheckpoints.run()
        try statements.trimJournalHistory.bind(scene, at: 1)
        try statements.trimJournalHistory.run()
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
