import Glibc
import SplitCore
import SplitLoop
import SplitWire

/// `splitd --demo`: a scene (`demo`, a WeChat-like iPad app of seed 000: tab bar, placeholder
/// detail, resetAndPush routing) resized through the app-switcher sizes of seed 003, its
/// layouts printed to stderr so a newcomer sees the daemon work. Every resize is an ordinary
/// change: stored, and pushed to attached clients (`splitctl watch demo`).
public struct DemoScript: Sendable {
    public var scene = "demo"
    public var device = "ipad-pro-12.9"
    /// Milliseconds between two resizes.
    public var interval: UInt64 = 1500

    public init() {}

    func start(on server: Server) -> DemoRunner {
        DemoRunner(script: self, server: server)
    }

    /// Whether `state` is a scene the demo created: its device and its tabs.
    static func madeByDemo(_ state: SceneState, device: String) -> Bool {
        state.device == device && state.config.tabs.map(\.root) == (config.tabs ?? []).map(\.root)
    }

    /// The demo app's configuration (seed 000).
    static var config: SplitConfigPatch {
        var patch = SplitConfigPatch()
        patch.style = .doubleColumn
        patch.tabs = [
            TabConfig(root: "chats", title: "Chats"), TabConfig(root: "contacts", title: "Contacts"),
            TabConfig(root: "discover", title: "Discover"), TabConfig(root: "me", title: "Me"),
        ]
        patch.placeholder = .some("empty")
        patch.detailRouting = .resetAndPush
        return patch
    }
}

/// Drives the demo scene from a loop timer.
final class DemoRunner {
    private let script: DemoScript
    private unowned let server: Server
    private var timer: LoopTimer?
    private var sizes: [Size] = []
    private var step = 0

    init(script: DemoScript, server: Server) {
        self.script = script
        self.server = server
        prepare()
        timer = LoopTimer(loop: server.loop) { [unowned self] in self.tick() }
        timer?.start(delay: script.interval, interval: script.interval)
    }

    func stop() {
        timer?.close()
        timer = nil
    }

    private func prepare() {
        if server.scenes[script.scene] == nil {
            do {
                let state = try server.engine.createScene(
                    id: script.scene, device: script.device, size: nil, config: DemoScript.config)
                server.record(state, layout: server.engine.layout(of: state), as: .created)
                _ = try? server.apply(.intent(.showDetail(vc: "chat-42")), to: script.scene)
            } catch {
                server.logger.error("demo: cannot create scene '\(script.scene)': \(error)")
                return
            }
        }
        guard let live = server.scenes[script.scene] else { return }
        // A scene of that name in a database the user brought may be theirs: the demo changes
        // only its own (same device, the demo app's tabs), and leaves any other untouched.
        guard DemoScript.madeByDemo(live.state, device: script.device) else {
            server.logger.error(
                "demo: the database already has a scene '\(script.scene)' (device \(live.state.device)) that the demo did not create; not changing it (delete it, or run the demo on another --database)"
            )
            return
        }
        let base = server.engine.catalog.defaultSize(device: live.state.device) ?? live.state.size
        sizes = server.engine.catalog.presetSizes("appSwitcher", device: live.state.device, current: base) ?? [base]
        if !sizes.contains(base) { sizes.insert(base, at: 0) }
        print(DemoRenderer.render(scene: script.scene, layout: live.layout, revision: live.state.revision, events: []))
        print(
            "demo: resizing '\(script.scene)' through \(sizes.count) app-switcher sizes every \(script.interval) ms; attach with `splitctl watch \(script.scene)`"
        )
    }

    private func tick() {
        // The demo's scene may have been deleted and another made under its name since.
        guard server.phase == .running, !sizes.isEmpty, let live = server.scenes[script.scene],
            DemoScript.madeByDemo(live.state, device: script.device)
        else { return }
        step = (step + 1) % sizes.count
        let size = sizes[step]
        do {
            let outcome = try server.apply(.resize(size), to: script.scene)
            guard outcome.changed, let live = server.scenes[script.scene] else { return }
            server.broadcast(scene: script.scene, fields: outcome.fields)
            print(
                DemoRenderer.render(
                    scene: script.scene, layout: live.layout, revision: live.state.revision,
                    events: lastEvents(outcome.fields)))
        } catch {
            server.logger.warning("demo: resize to \(size) refused: \(error)")
        }
    }

    private func lastEvents(_ fields: ChangeFields) -> [String] {
        guard let value = try? JSONParser.parse([UInt8(ascii: "{")] + fields.bytes + [UInt8(ascii: "}")]),
            let events = value["events"]?.array
        else { return [] }
        return events.compactMap { $0["type"]?.string }
    }

    private func print(_ text: String) {
        let line = Array((text + "\n").utf8)
        _ = line.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    }
}

/// A readable rendering of a layout for a terminal.
enum DemoRenderer {
    static func render(scene: String, layout: Layout, revision: Int, events: [String]) -> String {
        let traits = "\(layout.traits.horizontalSizeClass.rawValue)/\(layout.traits.verticalSizeClass.rawValue)"
        let mode =
            layout.collapsed
            ? "collapsed" : "expanded \(layout.displayMode?.rawValue ?? "-") (\(layout.splitBehavior?.rawValue ?? "-"))"
        var lines = [
            "── \(scene) r\(revision)  \(layout.size) \(layout.orientation.rawValue)  \(traits)  \(mode)"
                + (layout.selectedTab.map { "  tab \($0)" } ?? "")
        ]
        for column in layout.columns {
            let name = column.column.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0)
            let frame = column.visible ? "x=\(Int(column.x)) w=\(Int(column.width))" : "hidden"
            let flags = (column.overlay ? " overlay" : "") + (column.dimmed ? " dimmed" : "")
            lines.append(
                "   \(name)\(frame.padding(toLength: 16, withPad: " ", startingAt: 0))\(column.stack.joined(separator: " › "))\(flags)"
            )
        }
        if !events.isEmpty { lines.append("   events: " + events.joined(separator: ", ")) }
        return lines.joined(separator: "\n")
    }
}
