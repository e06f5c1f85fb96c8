import Foundation
import HummingbirdWebSocket
import SplitCore
import SplitRender

/// One browser tab attached to a scene as a window. The tab sends its viewport size and
/// the intents of what it clicks; splitd's pushes come back as pictures. When splitd goes
/// away the tab is told (`status`) and the session reconnects, creating the scene again if
/// it was asked to and attaching with the tab's last size, until the tab closes.
actor TabSession {
    let socketPath: String
    let scene: String
    /// When set, the scene is created (on this device) if it does not exist.
    let device: String?
    let config: [String: Any]?
    let outbound: WebSocketOutboundWriter

    private var link: DaemonLink?
    private var size: (width: Double, height: Double)
    private var nextID = 1
    /// Request ids of this tab's attaches: their answers carry the layout to draw.
    private var attachIDs: Set<Int> = []
    private var renderOptions = RenderOptions()

    init(
        socketPath: String, scene: String, device: String?, config: [String: Any]?,
        width: Double, height: Double, outbound: WebSocketOutboundWriter
    ) {
        self.socketPath = socketPath
        self.scene = scene
        self.device = device
        self.config = config
        self.size = (width, height)
        self.outbound = outbound
    }

    /// Connects, attaches and forwards pushes, reconnecting after every loss of splitd,
    /// until cancelled (the tab closed).
    func runDaemonSide() async {
        var toldDisconnected = false
        while !Task.isCancelled {
            guard let link = try? DaemonLink.connect(to: socketPath) else {
                if !toldDisconnected {
                    await tell(["type": "status", "connected": false])
                    toldDisconnected = true
                }
                try? await Task.sleep(for: .milliseconds(250))
                continue
            }
            self.link = link
            toldDisconnected = false
            request(["op": "hello", "protocol": 1, "client": "splitweb"])
            if let device {
                // Refused with scene_exists when it is there already: fine, the attach follows.
                var create: [String: Any] = [
                    "op": "scene.create", "scene": scene, "device": device, "size": sizeObject,
                ]
                if let config { create["config"] = config }
                request(create)
            }
            request(["op": "scene.get", "scene": scene])
            attachIDs.insert(
                request([
                    "op": "scene.attach", "scene": scene, "role": "window", "size": sizeObject, "notices": ["deleted"],
                ]))
            for await line in link.lines {
                if Task.isCancelled { break }
                await handle(line)
            }
            self.link = nil
            link.close()
            if Task.isCancelled { break }
            await tell(["type": "status", "connected": false])
            toldDisconnected = true
            try? await Task.sleep(for: .milliseconds(250))
        }
        link?.close()
    }

    /// A message from the page: `resize` {width, height} or `intent` {intent}.
    func browserMessage(_ text: String) async {
        guard let data = text.data(using: .utf8),
            let message = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
            let type = message["type"] as? String
        else { return }
        switch type {
        case "resize":
            guard let width = message["width"] as? Double, let height = message["height"] as? Double,
                width > 0, height > 0
            else { return }
            size = (width.rounded(), height.rounded())
            request(["op": "resize", "scene": scene, "width": size.width, "height": size.height])
        case "intent":
            guard let intent = message["intent"] as? [String: Any] else { return }
            request(["op": "intent", "scene": scene, "intent": intent])
        default:
            break
        }
    }

    func stop() { link?.close() }

    private var sizeObject: [String: Any] { ["width": size.width, "height": size.height] }

    @discardableResult
    private func request(_ object: [String: Any]) -> Int {
        let id = nextID
        nextID += 1
        var line = object
        line["id"] = id
        link?.send(line)
        return id
    }

    private func handle(_ line: String) async {
        guard let data = line.data(using: .utf8),
            let message = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        else { return }
        if let event = message["event"] as? String {
            if event == "layout", let layout = message["layout"] {
                await draw(layout, revision: message["revision"])
            } else if event == "deleted" {
                await tell(["type": "status", "connected": true, "deleted": true])
            }
            return
        }
        let id = message["id"] as? Int ?? 0
        if message["ok"] as? Bool == false {
            let error = message["error"] as? [String: Any]
            let code = error?["code"] as? String ?? "?"
            if code == "scene_exists" { return }
            await tell(["type": "error", "code": code, "message": error?["message"] as? String ?? ""])
            return
        }
        if let state = message["state"] as? [String: Any] {
            // scene.get: the text direction and tab titles the pictures need.
            let config = state["config"] as? [String: Any]
            renderOptions.layoutDirection = config?["layoutDirection"] as? String == "rtl" ? .rtl : .ltr
            renderOptions.tabTitles = (config?["tabs"] as? [[String: Any]] ?? []).map { tab in
                tab["title"] as? String ?? tab["root"] as? String ?? "?"
            }
        }
        if attachIDs.remove(id) != nil, let layout = message["layout"] {
            await tell(["type": "status", "connected": true])
            await draw(layout, revision: message["revision"])
        }
    }

    /// Sends the layout, drawn by SplitRender, with the fields the page shows as state.
    private func draw(_ layoutObject: Any, revision: Any?) async {
        guard let data = try? JSONSerialization.data(withJSONObject: layoutObject),
            let layout = try? JSONDecoder().decode(Layout.self, from: data)
        else { return }
        var options = renderOptions
        options.title = "\(scene) · revision \(revision.map { "\($0)" } ?? "?")"
        options.pixelWidth = layout.size.width
        await tell([
            "type": "layout", "revision": revision ?? NSNull(), "collapsed": layout.collapsed,
            "width": layout.size.width, "height": layout.size.height,
            "displayMode": layout.displayMode?.rawValue ?? NSNull(),
            "layout": layoutObject, "svg": LayoutRenderer.svg(layout, options: options),
        ])
    }

    private func tell(_ object: [String: Any]) async {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
        try? await outbound.write(.text(String(decoding: data, as: UTF8.self)))
    }
}
