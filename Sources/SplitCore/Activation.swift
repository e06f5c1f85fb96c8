// Scene activation states (SEMANTICS 10, revision 2).

/// UIKit's `UIScene.ActivationState`, as the wire names it.
public enum ActivationState: String, Codable, Hashable, Sendable, CaseIterable {
    case foregroundActive, foregroundInactive, background
}
