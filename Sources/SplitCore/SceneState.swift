/// The whole state of one scene. Plain value; the engine is the only thing that changes it.
/// Codable and stable: the daemon persists it as is.
public struct SceneState: Codable, Hashable, Sendable {
    public var id: String
    /// A device profile id or a rule-set name (SEMANTICS 2).
    public var device: String
    public var size: Size
    /// The size classes resolved for `size` (also fed back for rule-set hysteresis).
    public var traits: Traits
    public var config: SplitConfig
    /// Grows by exactly 1 with every accepted change; 1 at creation.
    public var revision: Int
    public var navigation: NavigationState
    /// The display side's memory (user-chosen mode, last traits).
    public var display: DisplayMemory
    /// How the device is held (SEMANTICS 1, revision 2), stored only where the rule cannot
    /// derive it from `size` alone: nil exactly when it equals
    /// `DeviceCatalog.derivedInterfaceOrientation` for `size` (a value kept from an earlier
    /// size, or stated by a resize). So a state persisted without the field reads back as
    /// the rule gives. Read it through `SplitEngine.interfaceOrientation(of:)`.
    public var heldOrientation: Orientation?
    /// UIKit's `UIScene.ActivationState` (SEMANTICS 10); nil exactly when `foregroundActive`,
    /// the state of a new scene (and of a state persisted without the field).
    public var activationState: ActivationState?

    public init(
        id: String, device: String, size: Size, traits: Traits, config: SplitConfig,
        revision: Int, navigation: NavigationState, display: DisplayMemory,
        heldOrientation: Orientation? = nil, activationState: ActivationState? = nil
    ) {
        self.id = id
        self.device = device
        self.size = size
        self.traits = traits
        self.config = config
        self.revision = revision
        self.navigation = navigation
        self.display = display
        self.heldOrientation = heldOrientation
        self.activationState = activationState
    }

    /// The activation state, `foregroundActive` when none is stored.
    public var activation: ActivationState { activationState ?? .foregroundActive }

    /// True while the horizontal size class is compact (SEMANTICS 3): one visible stack.
    public var collapsed: Bool { navigation.collapsed != nil }
}
