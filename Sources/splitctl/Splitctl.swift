import ArgumentParser

/// `splitctl`: every op of protocol 1 from the shell.
@main
struct Splitctl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "splitctl",
        abstract: "Drive splitd scenes from the shell.",
        discussion: """
            Talks to splitd over its Unix socket, found as splitd finds it: --socket, else \
            $SPLITD_SOCKET_PATH (or $SPLITD_SOCKET), else socket.path of splitd's config file \
            ($SPLITD_CONFIG, else $CONFIGURATION_DIRECTORY/splitd.json), else \
            $XDG_RUNTIME_DIR/splitd/splitd.sock, else /run/splitd/splitd.sock.
            Exit codes: 0 ok, 64 usage (splitd not contacted), 65 error response from splitd \
            (or a preset the scene's device lacks), 69 splitd unreachable, 70 internal error, \
            78 no --socket and splitd's configuration cannot be read.
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
