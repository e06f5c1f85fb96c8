import SplitCore
import SplitWire

extension Intent {
    /// The WIRE.md `intent` object: `{"kind": ..., fields...}`.
    public var wireObject: JSONValue {
        var object: JSONObject = ["kind": .string(kind)]
        switch self {
        case let .push(column, vc), let .show(vc, column):
            object["column"] = .string(column.rawValue)
            object["vc"] = .string(vc)
        case let .pop(column), let .popToRoot(column), let .showColumn(column), let .hideColumn(column):
            object["column"] = .string(column.rawValue)
        case let .showDetail(vc):
            object["vc"] = .string(vc)
        case let .selectTab(index):
            object["index"] = .int(Int64(index))
        case let .present(vc, style):
            object["vc"] = .string(vc)
            object["style"] = .string(style.rawValue)
        case let .setPreferredDisplayMode(mode):
            object["mode"] = .string(mode.rawValue)
        case let .setConfig(patch):
            object["config"] = patch.wireObject
        case .back, .dismiss, .displayModeButton, .gesture, .tapDimmed:
            break
        }
        return .object(object)
    }
}

extension SceneCommand {
    /// The WIRE.md `intent` object of the command (revision 2's forms included).
    public var wireObject: JSONValue {
        var writer = JSONWriter()
        writer.write(self)
        // The writer's output is valid JSON by construction.
        return (try? JSONParser.parse(writer.bytes)) ?? .null
    }
}

extension SplitConfigPatch {
    /// The patch as a WIRE.md `config` object: only the fields it sets; a width or fraction
    /// reset to automatic is written as `null`.
    public var wireObject: JSONValue {
        var object = JSONObject()
        func put(_ key: String, _ value: String?) { if let value { object[key] = .string(value) } }
        func put(_ key: String, _ value: Double?) { if let value { object[key] = .double(value) } }
        func put(_ key: String, _ value: Bool?) { if let value { object[key] = .bool(value) } }
        func putResettable(_ key: String, _ value: Double??) {
            if let value { object[key] = value.map(JSONValue.double) ?? .null }
        }
        put("style", style?.rawValue)
        put("preferredDisplayMode", preferredDisplayMode?.rawValue)
        put("preferredSplitBehavior", preferredSplitBehavior?.rawValue)
        putResettable("preferredPrimaryColumnWidth", preferredPrimaryColumnWidth)
        putResettable("preferredPrimaryColumnWidthFraction", preferredPrimaryColumnWidthFraction)
        put("minimumPrimaryColumnWidth", minimumPrimaryColumnWidth)
        put("maximumPrimaryColumnWidth", maximumPrimaryColumnWidth)
        putResettable("preferredSupplementaryColumnWidth", preferredSupplementaryColumnWidth)
        putResettable("preferredSupplementaryColumnWidthFraction", preferredSupplementaryColumnWidthFraction)
        put("minimumSupplementaryColumnWidth", minimumSupplementaryColumnWidth)
        put("maximumSupplementaryColumnWidth", maximumSupplementaryColumnWidth)
        put("primaryEdge", primaryEdge?.rawValue)
        put("layoutDirection", layoutDirection?.rawValue)
        put("presentsWithGesture", presentsWithGesture)
        put("showsSecondaryOnlyButton", showsSecondaryOnlyButton)
        if let roots {
            var rootsObject = JSONObject()
            for (key, value) in [
                ("primary", roots.primary), ("supplementary", roots.supplementary),
                ("secondary", roots.secondary), ("compact", roots.compact), ("inspector", roots.inspector),
            ] {
                if let value { rootsObject[key] = .string(value) }
            }
            object["roots"] = .object(rootsObject)
        }
        if let placeholder { object["placeholder"] = placeholder.map(JSONValue.string) ?? .null }
        if let tabs {
            object["tabs"] = .array(
                tabs.map { tab in
                    var tabObject: JSONObject = ["root": .string(tab.root)]
                    if let title = tab.title { tabObject["title"] = .string(title) }
                    return .object(tabObject)
                })
        }
        put("collapsePolicy", collapsePolicy?.rawValue)
        put("expandPolicy", expandPolicy?.rawValue)
        put("topColumnForCollapsing", topColumnForCollapsing?.rawValue)
        put("detailRouting", detailRouting?.rawValue)
        put("backBehavior", backBehavior?.rawValue)
        put("sizePolicy", sizePolicy?.rawValue)
        return .object(object)
    }
}

extension Size {
    /// `{"width": w, "height": h}`.
    public var wireObject: JSONValue { ["width": .double(width), "height": .double(height)] }
}
