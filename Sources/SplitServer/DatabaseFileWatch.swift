import Foundation
import SplitLoop
import SplitStore

/// A database file deleted or replaced under a running daemon (a wrong `rm`, a cleanup job,
/// a backup copied over it) keeps working through the open descriptors, and everything
/// acknowledged since would be gone with the process (SQLite does not notice in WAL mode).
/// The housekeeping timer asks the store each second; once the file is not in place, the
/// store refuses every commit (clients get `storage`, nothing more is acknowledged), and the
/// daemon copies what was committed to the path (or, when another file is there now, next
/// to it) and stops with status 75, so that a supervisor's restart opens the rescued data.
extension Server {
    /// EX_TEMPFAIL: the stop after a rescue (systemd's `Restart=on-failure` starts it again).
    static let rescuedDatabaseStatus: Int32 = 75

    func watchDatabaseFile() {
        guard phase == .running, let path = settings.databasePath, let problem = store.verifyFileInPlace() else {
            return
        }
        let target = FileManager.default.fileExists(atPath: path) ? Self.rescuePath(for: path) : path
        do {
            try store.rescue(to: target)
        } catch {
            // Kept running: what was committed lives on in the lost file while the process
            // does, and the next second tries again (the directory may be made writable).
            if databaseRescueWarning.take(now: loop.now) != nil {
                logger.critical(
                    "the database file \(path) \(problem) while splitd ran; changes are refused, and what was committed could not be copied to \(target) yet (retrying every second): \(error)"
                )
            }
            return
        }
        // The WAL this daemon wrote is still named next to the path: emptied now, it cannot
        // be read into a file that replaced the database should the stop not finish.
        do { try store.checkpoint() } catch {
            logger.error("after the rescue, the old WAL could not be emptied: \(error)")
        }
        let next =
            target == path
            ? "the next start opens it"
            : "the next start opens the file now at \(path); the copy is left for you to compare"
        logger.critical(
            "the database file \(path) \(problem) while splitd ran: everything acknowledged is copied to \(target), \(next); stopping (status \(Self.rescuedDatabaseStatus))"
        )
        exitStatus = Self.rescuedDatabaseStatus
        beginStop(reason: "the database file \(problem)")
    }

    /// `PATH.rescued-YYYYMMDD-HHMMSS` (UTC), a name no other file takes.
    static func rescuePath(for path: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let base = "\(path).rescued-\(formatter.string(from: Date()))"
        var candidate = base
        var number = 1
        while FileManager.default.fileExists(atPath: candidate) {
            number += 1
            candidate = "\(base)-\(number)"
        }
        return candidate
    }
}
