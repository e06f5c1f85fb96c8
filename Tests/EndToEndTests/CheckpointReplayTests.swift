import Foundation
import SplitClient
import SplitCore
import SplitWire
import Testing

extension EndToEnd {
    /// Journal-only writes: changes above a scene's checkpoint live only in the journal, and a
    /// restart after kill -9 replays them (docs/STORAGE.md "Checkpoints and replay").
    @Suite struct CheckpointReplay {
        /// The number in the last "replaying N journal entries" line of the log.
        func replayed(_ daemon: DaemonProcess) -> Int? {
            guard
                let line = daemon.log.split(separator: "\n").last(where: {
                    $0.contains("journal entries above their checkpoints")
                }),
                let range = line.range(of: "replaying ")
            else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }

        @Test(arguments: ["full", "normal"])
        func killNineAfterUncheckpointedChangesServesTheAcknowledgedRevisionAndLayout(durability: String) throws {
            // No checkpoint by count: every change after creation is only in the journal
            // (unless the 1 s sweep passes by, which changes nothing below).
            try withDaemon(durability: durability, environment: ["SPLITD_DATABASE_CHECKPOINT_EVERY": "1000000"]) {
                daemon in
                let connection = try daemon.client()
                try connection.createScene("mail", device: IPadPro129.device, config: mailConfig)
                try connection.intent("mail", .showDetail(vc: "message"))
                try connection.intent("mail", .present(vc: "compose", style: .formSheet))
                try connection.resize("mail", to: IPadPro129.oneThird)
                try connection.intent("mail", .dismiss)
                var acknowledged: [String: ChangeReply] = [:]
                acknowledged["mail"] = try connection.resize("mail", to: IPadPro129.portrait)

                // Resizes with no request line of their own: a window's attach and its leaving.
                try connection.createScene("follow", device: IPadPro129.device, config: ["sizePolicy": "smallest"])
                let wide = try daemon.client("wide")
                _ = try wide.attach("follow", role: .window, size: Size(width: 981, height: 1024))
                let narrow = try daemon.client("narrow")
                _ = try narrow.attach("follow", role: .window, size: IPadPro129.oneThird)
                narrow.close()
                var followed = try connection.getScene("follow")
                for _ in 0..<250 where followed.revision < 4 {
                    usleep(20_000)
                    followed = try connection.getScene("follow")
                }
                #expect(followed.revision == 4, "created, the wide window, the narrow one, back to wide when it left")
                #expect(followed.layout.size == Size(width: 981, height: 1024))
                daemon.kill9()
                connection.close()
                wide.close()

                try daemon.start()
                let checker = try daemon.client("checker")
                let mail = try checker.getScene("mail")
                #expect(mail.revision == acknowledged["mail"]?.revision)
                #expect(mail.layout == acknowledged["mail"]?.layout)
                let follow = try checker.getScene("follow")
                #expect(follow.revision == followed.revision)
                #expect(follow.layout == followed.layout)
                #expect(replayed(daemon) != nil, "the start logs what it replayed")
                checker.close()

                // A graceful stop checkpoints every scene: the next start replays nothing.
                try daemon.stopAndRestart()
                #expect(replayed(daemon) == 0)
                let again = try daemon.client("again")
                #expect(try again.getScene("mail").layout == acknowledged["mail"]?.layout)
                #expect(try again.getScene("follow").revision == followed.revision)
                again.close()
            }
        }

        /// A crash followed by an upgrade that changed the layout rules: the replay's layout
        /// differs from the acknowledged one (simulated here by changing the stored digest).
        /// The start refuses, naming the way out; `--accept-replay-divergence` keeps the
        /// replayed state, logs the entry, and a graceful stop leaves nothing to replay.
        @Test(.enabled(if: Machine.hasPython, "needs python3 with sqlite3"))
        func aDivergedReplayIsRefusedUnlessTheOperatorAcceptsIt() throws {
            try withDaemon(environment: ["SPLITD_DATABASE_CHECKPOINT_EVERY": "1000000"]) { daemon in
                let connection = try daemon.client()
                try connection.createScene("mail", device: IPadPro129.device, config: mailConfig)
                try connection.intent("mail", .showDetail(vc: "message"))
                let acknowledged = try connection.resize("mail", to: IPadPro129.oneThird)
                daemon.kill9()
                connection.close()

                let script = """
                    import sqlite3, sys
                    db = sqlite3.connect(sys.argv[1])
                    db.execute("UPDATE journal SET layout_hash = '20123456789abcd' WHERE scene = 'mail' AND revision = ?", (int(sys.argv[2]),))
                    db.commit()
                    print(db.total_changes)
                    """
                let altered = try runCommand(
                    "/usr/bin/env", ["python3", "-c", script, daemon.databasePath, String(acknowledged.revision)])
                #expect(
                    altered.exitCode == 0 && altered.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1",
                    "\(altered)")

                let refused = try runSplitd(daemon.arguments)
                #expect(refused.exitCode == 1)
                #expect(
                    refused.stderr.contains("REPLAY DIVERGED: scene 'mail' revision \(acknowledged.revision)")
                        && refused.stderr.contains("--accept-replay-divergence"), "\(refused.stderr)")

                let recovering = try DaemonProcess(
                    extraArguments: ["--accept-replay-divergence"], directory: daemon.directory)
                let checker = try recovering.client("checker")
                let mail = try checker.getScene("mail")
                #expect(mail.revision == acknowledged.revision && mail.layout == acknowledged.layout)
                #expect(
                    recovering.log.contains(
                        "replay diverged, kept (--accept-replay-divergence): scene 'mail' revision \(acknowledged.revision)"
                    ))
                checker.close()
                #expect(recovering.terminate() == .exited(0))

                // Checkpointed by the graceful stop: a plain start replays nothing.
                try daemon.start()
                #expect(replayed(daemon) == 0)
                #expect(try daemon.client("after").getScene("mail").revision == acknowledged.revision)
            }
        }
    }
}
