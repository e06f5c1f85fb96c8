import SplitCore

/// Reading layouts and events back from JSON (clients, tests). Failures are `WireError`s
/// (code `bad_request`) naming the offending field's path, e.g. `columns[1].width`.
extension Layout {
    public init(json: JSONValue) throws(WireError) {
        try self.init(reader: FieldReader.root(json, "layout"))
    }

    init(reader: FieldReader) throws(WireError) {
        let columns = try reader.elements("columns") { (column: FieldReader) throws(WireError) in
            try ColumnLayout(reader: column)
        }
        let presentations = try reader.elements("presentations") { (presentation: FieldReader) throws(WireError) in
            PresentationLayout(
                vc: try presentation.string("vc"),
                style: try presentation.enumeration("style", PresentationStyle.self),
                effectiveStyle: try presentation.enumeration("effectiveStyle", PresentationStyle.self))
        }
        self.init(
            size: try reader.nested("size").size(),
            orientation: try reader.enumeration("orientation", Orientation.self),
            traits: try reader.nested("traits").traits(),
            collapsed: try reader.bool("collapsed"),
            displayMode: try reader.optionalCase("displayMode", DisplayMode.self),
            splitBehavior: try reader.optionalCase("splitBehavior", SplitBehavior.self),
            columns: columns, presentations: presentations,
            selectedTab: try reader.optionalInt("selectedTab"))
    }
}

extension ColumnLayout {
    init(reader: FieldReader) throws(WireError) {
        let stack = try reader.elements("stack") { (element: JSONValue, name: String) throws(WireError) in
            guard let id = element.string else { throw reader.invalid(name, "a string", got: element) }
            return id
        }
        self.init(
            column: try reader.enumeration("column", Column.self), visible: try reader.bool("visible"),
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

    /// An `events` array.
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
