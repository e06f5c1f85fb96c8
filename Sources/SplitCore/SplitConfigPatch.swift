/// A partial configuration for `setConfig` (and `scene.create`'s `config`): every field is
/// optional; absent fields keep their value. For the preferred widths and fractions, JSON
/// `null` or `"automatic"` resets to automatic (`.some(nil)`).
public struct SplitConfigPatch: Hashable, Sendable {
    public var style: SplitStyle?
    public var preferredDisplayMode: DisplayMode?
    public var preferredSplitBehavior: SplitBehavior?
    public var preferredPrimaryColumnWidth: Double??
    public var preferredPrimaryColumnWidthFraction: Double??
    public var minimumPrimaryColumnWidth: Double?
    public var maximumPrimaryColumnWidth: Double?
    public var preferredSupplementaryColumnWidth: Double??
    public var preferredSupplementaryColumnWidthFraction: Double??
    public var minimumSupplementaryColumnWidth: Double?
    public var maximumSupplementaryColumnWidth: Double?
    public var primaryEdge: PrimaryEdge?
    public var layoutDirection: LayoutDirection?
    public var presentsWithGesture: Bool?
    public var showsSecondaryOnlyButton: Bool?
    public var roots: ColumnRoots?
    public var placeholder: String??
    public var tabs: [TabConfig]?
    public var collapsePolicy: CollapsePolicy?
    public var expandPolicy: ExpandPolicy?
    public var topColumnForCollapsing: TopColumnForCollapsing?
    public var detailRouting: DetailRouting?
    public var backBehavior: BackBehavior?
    public var sizePolicy: SizePolicy?
    /// A rule-set name, or `.some(nil)` (JSON `null`) for none.
    public var traitOverrides: String??
    public var displayModeButtonVisibility: DisplayModeButtonVisibility?
    public var snapshotOnBackground: Bool?
    public var preferredInspectorColumnWidth: Double??
    public var preferredInspectorColumnWidthFraction: Double??
    public var minimumInspectorColumnWidth: Double?
    public var maximumInspectorColumnWidth: Double?

    public init() {}
}
