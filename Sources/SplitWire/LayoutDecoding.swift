import SplitCore

/// Reading layouts and events back from JSON (clients, tests). Failures are `WireError`s
/// (code `bad_request`) naming the offending field's path, e.g. `columns[1].width`.
extension Layout {
    public init(json: JSONValue) throws(WireError) {
        try self.init(reader: FieldReader.root(json, "layout"))
    }

    /// Revision 2's fields are read into `revision2` when the layout has them. The inspector
    /// comes back from its column entry (expanded) or its sheet (collapsed: its frame is not
    /// on the wire, and a hidden inspector is not there at all, so a collapsed layout's
    /// inspector reads back with `x` and `width` 0, and as nil while hidden).
    init(reader: FieldReader) throws(WireError) {
        var inspector: InspectorLayout?
        var columns: [ColumnLayout] = []
        for (index, value) in try reader.array("columns").enumerated() {
            let name = "columns[\(index)]"
            guard let object = value.object else { throw reader.invalid(name, "an object", got: value) }
            let column = FieldReader(object, path: reader.fieldName(name))
            if column.optional("column")?.string == "inspector" {
                let frame = try ColumnLayout(reader: column, as: .secondary)
                inspector = InspectorLayout(
                    shown: frame.visible, visible: frame.visible, presentedAsSheet: false, x: frame.x,
                    width: frame.width, overlay: frame.overlay, stack: frame.stack)
            } else {
                columns.append(try ColumnLayout(reader: column))
            }
        }
        var presentations: [PresentationLayout] = []
        var additions: [PresentationAdditions] = []
        for (index, value) in try reader.array("presentations").enumerated() {
            let name = "presentations[\(index)]"
            guard let object = value.object else { throw reader.invalid(name, "an object", got: value) }
            let presentation = FieldReader(object, path: reader.fieldName(name))
            if let source = presentation.optional("source") {
                guard source.string == "inspector" else {
                    throw presentation.invalid("source", "'inspector'", got: source)
                }
                inspector = InspectorLayout(
                    shown: true, visible: false, presentedAsSheet: true, x: 0, width: 0, overlay: false,
                    stack: [try presentation.string("vc")])
                continue
            }
            let automatic = presentation.optional("style")?.string == "automatic"
            let effectiveStyle = try presentation.enumeration("effectiveStyle", PresentationStyle.self)
            presentations.append(
                PresentationLayout(
                    vc: try presentation.string("vc"),
                    style: automatic ? .pageSheet : try presentation.enumeration("style", PresentationStyle.self),
                    effectiveStyle: effectiveStyle))
            additions.append(
                PresentationAdditions(
                    requestedStyle: automatic ? "automatic" : try presentation.string("style"),
                    anchor: try presentation.optionalString("anchor"),
                    prefersEdgeAttachedInCompactHeight: try presentation.optionalBool(
                        "prefersEdgeAttachedInCompactHeight") ?? false))
        }
        var revision2: Revision2Layout?
        if reader.optional("interfaceOrientation") != nil {
            let button = try reader.nested("displayModeButton")
            revision2 = Revision2Layout(
                interfaceOrientation: try reader.enumeration("interfaceOrientation", Orientation.self),
                activation: try reader.enumeration("activation", ActivationState.self),
                displayModeButton: DisplayModeButtonLayout(
                    visible: try button.bool("visible"), target: try button.optionalCase("target", DisplayMode.self)),
                presentations: additions, inspector: inspector)
        }
        self.init(
            size: try reader.nested("size").size(),
            orientation: try reader.enumeration("orientation", Orientation.self),
            traits: try reader.nested("traits").traits(),
            collapsed: try reader.bool("collapsed"),
            displayMode: try reader.optionalCase("displayMode", DisplayMode.self),
            splitBehavior: try reader.optionalCase("splitBehavior", SplitBehavior.self),
            columns: columns, presentations: presentations,
            selectedTab: try reader.optionalInt("selectedTab"), revision2: revision2)
    }
}

extension ColumnLayout {
    /// `column`: the column to report instead of the entry's own (the inspector's entry).
    init(reader: FieldReader, as column: Column? = nil) throws(WireError) {
        let stack = try reader.elements("stack") { (element: JSONValue, name: String) throws(WireError) in
            guard let id = element.string else { throw reader.invalid(name, "a string", got: element) }
            return id
        }
        let name: Column
        if let column { name = column } else { name = try reader.enumeration("column", Column.self) }
        self.init(
            column: name, visible: try reader.bool("visible"),
            x: try reader.double("x"), width: try reader.double("width"), overlay: try reader.bool("overlay"),
            dimmed: try reader.bool("dimmed"), stack: stack)
    }
}

extension SceneEvent {
    public init(json: JSONValue) throws(WireError) {
        try self.init(reader: FieldReader.root(json, "event"))
    }

    init(reader: FieldReader) throws(WireError) {
        let type = try reader.string("type")
        switch type {
        case "traitsChanged":
            self = .traitsChanged(from: try reader.nested("from").traits(), to: try reader.nested("to").traits())
        case "viewWillTransition": self = .viewWillTransition(to: try reader.nested("size").size())
        case "willCollapse": self = .willCollapse(moved: try reader.strings("moved"))
        case "didCollapse": self = .didCollapse(moved: try reader.strings("moved"))
        case "willExpand": self = .willExpand(moved: try reader.strings("moved"))
        case "didExpand": self = .didExpand(moved: try reader.strings("moved"))
        case "displayModeChanged":
            self = .displayModeChanged(
                from: try reader.optionalCase("from", DisplayMode.self),
                to: try reader.optionalCase("to", DisplayMode.self))
        case "appear":
            self = .appear(vc: try reader.string("vc"), column: try reader.enumeration("column", Column.self))
        case "disappear":
            self = .disappear(vc: try reader.string("vc"), column: try reader.enumeration("column", Column.self))
        case "presented":
            self = .presented(
                vc: try reader.string("vc"),
                style: try reader.enumeration("style", PresentationStyle.self))
        case "dismissed": self = .dismissed(vc: try reader.string("vc"))
        default: throw WireError.badRequest("unknown event type '\(type)' in field '\(reader.fieldName("type"))'")
        }
    }

    /// An `events` array of protocol 1's kinds only.
    public static func list(json: JSONValue) throws(WireError) -> [SceneEvent] {
        guard let elements = json.array else {
            throw WireError.badRequest("events must be an array, got \(describe(json))")
        }
        var events: [SceneEvent] = []
        events.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard let object = element.object else {
                throw WireError.badRequest("events[\(index)] must be an object, got \(describe(element))")
            }
            events.append(try SceneEvent(reader: FieldReader(object, path: "events[\(index)]")))
        }
        return events
    }
}

extension TimelineEvent {
    public init(json: JSONValue) throws(WireError) {
        try self.init(reader: FieldReader.root(json, "event"))
    }

    /// Any event, revision 2's kinds included (an `appear`/`disappear` of column
    /// `inspector` is the inspector's).
    init(reader: FieldReader) throws(WireError) {
        let type = try reader.string("type")
        switch type {
        case "willShowColumn": self = .willShowColumn(try reader.enumeration("column", Column.self))
        case "willHideColumn": self = .willHideColumn(try reader.enumeration("column", Column.self))
        case "activationChanged":
            self = .activationChanged(
                from: try reader.enumeration("from", ActivationState.self),
                to: try reader.enumeration("to", ActivationState.self))
        case "snapshotTaken": self = .snapshotTaken(session: try reader.string("session"))
        case "appear" where reader.optional("column")?.string == "inspector":
            self = .inspectorAppear(vc: try reader.string("vc"))
        case "disappear" where reader.optional("column")?.string == "inspector":
            self = .inspectorDisappear(vc: try reader.string("vc"))
        default: self = .scene(try SceneEvent(reader: reader))
        }
    }

    /// An `events` array.
    public static func list(json: JSONValue) throws(WireError) -> [TimelineEvent] {
        guard let elements = json.array else {
            throw WireError.badRequest("events must be an array, got \(describe(json))")
        }
        var events: [TimelineEvent] = []
        events.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard let object = element.object else {
                throw WireError.badRequest("events[\(index)] must be an object, got \(describe(element))")
            }
            events.append(try TimelineEvent(reader: FieldReader(object, path: "events[\(index)]")))
        }
        return events
    }
}

extension Size {
    /// A `{width, height}` object (any finite numbers; window limits are the decoder's).
    public init(json: JSONValue) throws(WireError) {
        self = try FieldReader.root(json, "size").size()
    }
}

extension FieldReader {
    /// A reader over a top-level value that must be an object.
    static func root(_ value: JSONValue, _ what: String) throws(WireError) -> FieldReader {
        guard let object = value.object else {
            throw WireError.badRequest("\(what) must be an object, got \(describe(value))")
        }
        return FieldReader(object)
    }

    func size() throws(WireError) -> Size {
        Size(width: try double("width"), height: try double("height"))
    }

    func traits() throws(WireError) -> Traits {
        Traits(
            horizontalSizeClass: try enumeration("horizontalSizeClass", SizeClass.self),
            verticalSizeClass: try enumeration("verticalSizeClass", SizeClass.self))
    }

    func optionalCase<E: RawRepresentable & CaseIterable>(_ name: String, _ type: E.Type) throws(WireError) -> E?
    where E.RawValue == String {
        guard optional(name) != nil else { return nil }
        return try enumeration(name, type)
    }

    func strings(_ name: String) throws(WireError) -> [String] {
        try elements(name) { (element: JSONValue, elementName: String) throws(WireError) in
            guard let text = element.string else { throw invalid(elementName, "a string", got: element) }
            return text
        }
    }

    /// Maps the elements of array `name`, passing each one's name (`name[i]`) for messages.
    func elements<T>(_ name: String, _ transform: (JSONValue, String) throws(WireError) -> T) throws(WireError) -> [T] {
        let values = try array(name)
        var result: [T] = []
        result.reserveCapacity(values.count)
        for (index, value) in values.enumerated() {
            result.append(try transform(value, "\(name)[\(index)]"))
        }
        return result
    }

    /// Maps the elements of array `name`, each required to be an object.
    func elements<T>(_ name: String, _ transform: (FieldReader) throws(WireError) -> T) throws(WireError) -> [T] {
        try elements(name) { (value: JSONValue, elementName: String) throws(WireError) in
            guard let object = value.object else { throw invalid(elementName, "an object", got: value) }
            return try transform(FieldReader(object, path: fieldName(elementName)))
        }
    }
}
