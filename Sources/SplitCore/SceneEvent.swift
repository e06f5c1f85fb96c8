/// One transition event (SEMANTICS 7), the wire's equivalent of UIKit's delegate and
/// lifecycle callbacks. Ordered; a change that changes nothing has none.
public enum SceneEvent: Hashable, Sendable {
    case traitsChanged(from: Traits, to: Traits)
    case viewWillTransition(to: Size)
    case willCollapse(moved: [String])
    case didCollapse(moved: [String])
    case willExpand(moved: [String])
    case didExpand(moved: [String])
    case displayModeChanged(from: DisplayMode?, to: DisplayMode?)
    case appear(vc: String, column: Column)
    case disappear(vc: String, column: Column)
    case presented(vc: String, style: PresentationStyle)
    case dismissed(vc: String)

    /// The wire `type` of the event.
    public var type: String {
        switch self {
        case .traitsChanged: "traitsChanged"
        case .viewWillTransition: "viewWillTransition"
        case .willCollapse: "willCollapse"
        case .didCollapse: "didCollapse"
        case .willExpand: "willExpand"
        case .didExpand: "didExpand"
        case .displayModeChanged: "displayModeChanged"
        case .appear: "appear"
        case .disappear: "disappear"
        case .presented: "presented"
        case .dismissed: "dismissed"
        }
    }
}

extension SceneEvent: Codable {
    enum CodingKeys: String, CodingKey {
        case type, from, to, size, moved, vc, column, style
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(type, forKey: .type)
        switch self {
        case let .traitsChanged(from, to):
            try c.encode(from, forKey: .from)
            try c.encode(to, forKey: .to)
        case let .viewWillTransition(size):
            try c.encode(size, forKey: .size)
        case let .willCollapse(moved), let .didCollapse(moved), let .willExpand(moved), let .didExpand(moved):
            try c.encode(moved, forKey: .moved)
        case let .displayModeChanged(from, to):
            try c.encode(from, forKey: .from)
            try c.encode(to, forKey: .to)
        case let .appear(vc, column), let .disappear(vc, column):
            try c.encode(vc, forKey: .vc)
            try c.encode(column, forKey: .column)
        case let .presented(vc, style):
            try c.encode(vc, forKey: .vc)
            try c.encode(style, forKey: .style)
        case let .dismissed(vc):
            try c.encode(vc, forKey: .vc)
        }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let type = try c.decode(String.self, forKey: .type)
        switch type {
        case "traitsChanged":
            self = .traitsChanged(
                from: try c.decode(Traits.self, forKey: .from), to: try c.decode(Traits.self, forKey: .to))
        case "viewWillTransition":
            self = .viewWillTransition(to: try c.decode(Size.self, forKey: .size))
        case "willCollapse": self = .willCollapse(moved: try c.decode([String].self, forKey: .moved))
        case "didCollapse": self = .didCollapse(moved: try c.decode([String].self, forKey: .moved))
        case "willExpand": self = .willExpand(moved: try c.decode([String].self, forKey: .moved))
        case "didExpand": self = .didExpand(moved: try c.decode([String].self, forKey: .moved))
        case "displayModeChanged":
            self = .displayModeChanged(
                from: try c.decodeIfPresent(DisplayMode.self, forKey: .from),
                to: try c.decodeIfPresent(DisplayMode.self, forKey: .to))
        case "appear":
            self = .appear(
                vc: try c.decode(String.self, forKey: .vc), column: try c.decode(Column.self, forKey: .column))
        case "disappear":
            self = .disappear(
                vc: try c.decode(String.self, forKey: .vc), column: try c.decode(Column.self, forKey: .column))
        case "presented":
            self = .presented(
                vc: try c.decode(String.self, forKey: .vc), style: try c.decode(PresentationStyle.self, forKey: .style))
        case "dismissed": self = .dismissed(vc: try c.decode(String.self, forKey: .vc))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: c, debugDescription: "unknown event type '\(type)'")
        }
    }
}
