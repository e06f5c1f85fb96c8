import SplitCore

/// Writing requests (clients, tests): the exact inverse of `RequestDecoder`.
extension WireEncoder {
    /// `request` as one line ending in "\n".
    public static func appendRequest(_ request: Request, to buffer: inout [UInt8]) {
        JSONWriter.append(to: &buffer) { writer in
            writer.write(request)
            writer.newline()
        }
    }

    /// `request` as one line ending in "\n".
    public static func encode(_ request: Request) -> [UInt8] {
        var buffer: [UInt8] = []
        appendRequest(request, to: &buffer)
        return buffer
    }
}

extension JSONWriter {
    public mutating func write(_ request: Request) {
        beginObject()
        rawKey("id")
        write(request.id)
        rawKey("op")
        write(request.op.name)
        writeParameters(of: request.op)
        endObject()
    }

    private mutating func writeParameters(of op: Request.Operation) {
        if let scene = op.scene {
            rawKey("scene")
            write(scene)
        }
        switch op {
        case let .hello(version, client):
            rawKey("protocol")
            write(version)
            if let client {
                rawKey("client")
                write(client)
            }
        case let .sceneCreate(_, device, size, config):
            rawKey("device")
            write(device)
            writeOptional("size", size)
            if let config {
                rawKey("config")
                write(config)
            }
        case let .sceneAttach(_, role, size, notices):
            rawKey("role")
            write(role.rawValue)
            writeOptional("size", size)
            if !notices.isEmpty {
                rawKey("notices")
                beginArray()
                for (name, notice) in AttachNotices.names where notices.contains(notice) { write(name) }
                endArray()
            }
        case let .resize(_, size, baseRevision):
            rawKey("width")
            write(size.width)
            rawKey("height")
            write(size.height)
            writeOptional("baseRevision", baseRevision)
        case let .intent(_, intent, baseRevision):
            rawKey("intent")
            write(intent)
            writeOptional("baseRevision", baseRevision)
        case let .command(_, command, baseRevision):
            writeCommand(command)
            writeOptional("baseRevision", baseRevision)
        case let .snapshot(_, .sizes(sizes)):
            rawKey("sizes")
            beginArray()
            for size in sizes { write(size) }
            endArray()
        case let .snapshot(_, .preset(preset)):
            rawKey("preset")
            write(preset)
        case let .snapshotGet(session):
            rawKey("session")
            write(session)
        case let .sweep(request):
            writeSweepParameters(request)
        case let .sceneAt(_, revision):
            rawKey("revision")
            write(revision)
        case .sceneGet, .sceneList, .sceneDelete, .sceneDetach, .snapshotList, .stats, .ping, .devices, .explain:
            break
        }
    }

    private mutating func writeOptional(_ name: StaticString, _ size: Size?) {
        guard let size else { return }
        rawKey(name)
        write(size)
    }

    private mutating func writeOptional(_ name: StaticString, _ number: Int?) {
        guard let number else { return }
        rawKey(name)
        write(number)
    }

    /// The WIRE.md `intent` object `{"kind": ..., fields}`.
    public mutating func write(_ intent: Intent) {
        beginObject()
        rawKey("kind")
        write(intent.kind)
        switch intent {
        case let .push(column, vc), let .show(vc, column):
            rawKey("column")
            write(column.rawValue)
            rawKey("vc")
            write(vc)
        case let .pop(column), let .popToRoot(column), let .showColumn(column), let .hideColumn(column):
            rawKey("column")
            write(column.rawValue)
        case let .showDetail(vc):
            rawKey("vc")
            write(vc)
        case let .selectTab(index):
            rawKey("index")
            write(index)
        case let .present(vc, style):
            rawKey("vc")
            write(vc)
            rawKey("style")
            write(style.rawValue)
        case let .setPreferredDisplayMode(mode):
            rawKey("mode")
            write(mode.rawValue)
        case let .setConfig(patch):
            rawKey("config")
            write(patch)
        case .back, .dismiss, .displayModeButton, .gesture, .tapDimmed:
            break
        }
        endObject()
    }

    /// A `.command`'s parameters: a resize's size and `interfaceOrientation`, else the
    /// `intent` object.
    private mutating func writeCommand(_ command: SceneCommand) {
        switch command {
        case .change(.resize(let size)), .resize(let size, nil):
            rawKey("width")
            write(size.width)
            rawKey("height")
            write(size.height)
        case .resize(let size, let held?):
            rawKey("width")
            write(size.width)
            rawKey("height")
            write(size.height)
            rawKey("interfaceOrientation")
            write(held.rawValue)
        default:
            rawKey("intent")
            write(command)
        }
    }

    /// The intent object of a command (WIRE.md, revision 2's forms included). A resize or
    /// reconfigure has none: it writes `{}`.
    public mutating func write(_ command: SceneCommand) {
        switch command {
        case .change(.intent(let intent)):
            write(intent)
            return
        case .change(.resize), .change(.reconfigure), .resize:
            beginObject()
        case .present(let request):
            beginObject()
            rawKey("kind")
            write("present")
            rawKey("vc")
            write(request.vc)
            rawKey("style")
            write(request.style?.rawValue ?? "automatic")
            if let anchor = request.anchor {
                rawKey("anchor")
                write(anchor)
            }
            if request.prefersEdgeAttachedInCompactHeight {
                rawKey("prefersEdgeAttachedInCompactHeight")
                write(true)
            }
        case .activation(let state, _):
            beginObject()
            rawKey("kind")
            write("activation")
            rawKey("state")
            write(state.rawValue)
        case .inspector(let intent):
            beginObject()
            rawKey("kind")
            switch intent {
            case .show: write("showColumn")
            case .hide: write("hideColumn")
            case .push: write("push")
            case .pop: write("pop")
            case .popToRoot: write("popToRoot")
            }
            rawKey("column")
            write("inspector")
            if case .push(let vc) = intent {
                rawKey("vc")
                write(vc)
            }
        }
        endObject()
    }
}
