/// The columns a split view knows. `compact` is the optional column shown instead of the
/// stacked columns while collapsed (and the name of the single collapsed column in a layout).
public enum Column: String, Codable, Hashable, Sendable, CaseIterable {
    case primary, supplementary, secondary, compact
}

public enum SplitStyle: String, Codable, Hashable, Sendable, CaseIterable {
    case classic, doubleColumn, tripleColumn

    /// The columns of this style in layout order (never `compact`).
    public var columns: [Column] {
        self == .tripleColumn ? [.primary, .supplementary, .secondary] : [.primary, .secondary]
    }
}

public enum DisplayMode: String, Codable, Hashable, Sendable, CaseIterable {
    case automatic
    case secondaryOnly
    case oneBesideSecondary
    case oneOverSecondary
    case twoBesideSecondary
    case twoOverSecondary
    case twoDisplaceSecondary

    /// Accepts the deprecated UIKit names as aliases (SEMANTICS 4).
    public init?(wireName: String) {
        switch wireName {
        case "allVisible": self = .oneBesideSecondary
        case "primaryHidden": self = .secondaryOnly
        case "primaryOverlay": self = .oneOverSecondary
        default: self.init(rawValue: wireName)
        }
    }

    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let mode = DisplayMode(wireName: name) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "unknown display mode '\(name)'"))
        }
        self = mode
    }
}

public enum SplitBehavior: String, Codable, Hashable, Sendable, CaseIterable {
    case automatic, tile, overlay, displace
}

public enum PrimaryEdge: String, Codable, Hashable, Sendable, CaseIterable {
    case leading, trailing
}

public enum LayoutDirection: String, Codable, Hashable, Sendable, CaseIterable {
    case ltr, rtl
}

/// What happens to the stacks when the scene collapses (SEMANTICS 6).
public enum CollapsePolicy: String, Codable, Hashable, Sendable, CaseIterable {
    case uikit, moveDetailExceptRoot, keepPrimary
}

/// What happens to the collapsed stack when the scene expands (SEMANTICS 6).
public enum ExpandPolicy: String, Codable, Hashable, Sendable, CaseIterable {
    case uikit, moveAllButRoot
}

/// Which column ends on top of the collapsed stack for column styles.
public enum TopColumnForCollapsing: String, Codable, Hashable, Sendable, CaseIterable {
    case secondary, primary, supplementary, lastNavigated
}

/// How `showDetail` fills the secondary while expanded.
public enum DetailRouting: String, Codable, Hashable, Sendable, CaseIterable {
    case replace, resetAndPush
}

public enum BackBehavior: String, Codable, Hashable, Sendable, CaseIterable {
    case popLatest, popUntilLayoutChange
}

/// How a scene's size follows its attached windows (SEMANTICS 9, after tmux's window-size).
public enum SizePolicy: String, Codable, Hashable, Sendable, CaseIterable {
    case latest, largest, smallest, manual
}

/// UIKit's `displayModeButtonVisibility` (SEMANTICS 5, revision 2).
public enum DisplayModeButtonVisibility: String, Codable, Hashable, Sendable, CaseIterable {
    case automatic, always, never
}

public enum PresentationStyle: String, Codable, Hashable, Sendable, CaseIterable {
    case fullScreen, pageSheet, formSheet, popover
}

/// Root view controllers of each column (restoration identifiers).
public struct ColumnRoots: Codable, Hashable, Sendable {
    public var primary: String?
    public var supplementary: String?
    public var secondary: String?
    public var compact: String?
    /// The inspector column's root (SEMANTICS 6, revision 2; column styles only); nil: no
    /// inspector.
    public var inspector: String?

    public init(
        primary: String? = nil, supplementary: String? = nil,
        secondary: String? = nil, compact: String? = nil, inspector: String? = nil
    ) {
        self.primary = primary
        self.supplementary = supplementary
        self.secondary = secondary
        self.compact = compact
        self.inspector = inspector
    }
}

/// One tab of a tab bar held by the primary column.
public struct TabConfig: Codable, Hashable, Sendable {
    public var root: String
    public var title: String?

    public init(root: String, title: String? = nil) {
        self.root = root
        self.title = title
    }
}

/// The split configuration of SEMANTICS section 4. Every field has UIKit's default.
/// `nil` for a preferred width/fraction means "automatic".
public struct SplitConfig: Codable, Hashable, Sendable {
    public var style: SplitStyle = .classic
    public var preferredDisplayMode: DisplayMode = .automatic
    public var preferredSplitBehavior: SplitBehavior = .automatic
    public var preferredPrimaryColumnWidth: Double? = nil
    public var preferredPrimaryColumnWidthFraction: Double? = nil
    public var minimumPrimaryColumnWidth: Double = 0
    public var maximumPrimaryColumnWidth: Double = 320
    public var preferredSupplementaryColumnWidth: Double? = nil
    public var preferredSupplementaryColumnWidthFraction: Double? = nil
    public var minimumSupplementaryColumnWidth: Double = 0
    public var maximumSupplementaryColumnWidth: Double = 320
    public var primaryEdge: PrimaryEdge = .leading
    public var layoutDirection: LayoutDirection = .ltr
    public var presentsWithGesture: Bool = true
    public var showsSecondaryOnlyButton: Bool = false
    public var roots: ColumnRoots = ColumnRoots()
    /// Id of the secondary's placeholder root (seed 000's EmptyController); nil: none.
    public var placeholder: String? = nil
    /// Tabs held by the primary column; empty: no tab bar.
    public var tabs: [TabConfig] = []
    public var collapsePolicy: CollapsePolicy = .uikit
    public var expandPolicy: ExpandPolicy = .uikit
    public var topColumnForCollapsing: TopColumnForCollapsing = .secondary
    public var detailRouting: DetailRouting = .replace
    public var backBehavior: BackBehavior = .popLatest
    public var sizePolicy: SizePolicy = .latest
    /// A rule set layered on the device (SEMANTICS 2, revision 2): its matching rules
    /// override only the classes they set; nil: none.
    public var traitOverrides: String? = nil
    /// When the display-mode button shows (SEMANTICS 5, revision 2); column styles only.
    public var displayModeButtonVisibility: DisplayModeButtonVisibility = .automatic
    /// Whether entering `background` runs the app-switcher snapshot session (SEMANTICS 10).
    public var snapshotOnBackground: Bool = true
    /// The inspector's widths, like the primary's (SEMANTICS 6; defaults ours: 320,
    /// clamped to [0, 400]).
    public var preferredInspectorColumnWidth: Double? = nil
    public var preferredInspectorColumnWidthFraction: Double? = nil
    public var minimumInspectorColumnWidth: Double = 0
    public var maximumInspectorColumnWidth: Double = 400

    public init() {}
}
