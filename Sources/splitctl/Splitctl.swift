import ArgumentParser

/// `splitctl`: every op of protocol 1 from the shell.
@main
struct Splitctl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "splitctl",
        abstract: "Drive splitd scenes from the shell.",
        discussion: """
            Talks to splitd over its Unix socket: --socket, else $SPLITD_SOCKET, else \
            $XDG_RUNTIME_DIR/splitd/splitd.sock, else /run/splitd/splitd.sock.
            Exit codes: 0 ok, 64 usage, 65 error response from splitd, 69 splitd unreachable, \
            70 internal error.
            """,
        version: "splitctl 0.1 (protocol 1)",
        subcommands: [
            Hello.self, Ping.self, Stats.self, Devices.self,
            SceneCommand.self, Resize.self,
            Push.self, Pop.self, PopToRoot.self, Show.self, ShowDetail.self, Back.self,
            SelectTab.self, Present.self, Dismiss.self, SetDisplayMode.self,
            DisplayModeButton.self, Gesture.self, TapDimmed.self, ShowColumn.self,
            HideColumn.self, SetConfig.self,
            SnapshotCommand.self, Watch.self,
            Simulate.self,
            Attach.self,
        ]
    )

    @OptionGroup var global: GlobalOptions
}
