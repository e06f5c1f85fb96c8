/// The fields revision 2 adds to WIRE.md's Layout object, resolved beside `Layout` (which
/// holds protocol 1's): `SplitEngine.revision2Layout(of:)`.
public struct Revision2Layout: Codable, Hashable, Sendable {
    /// How the device is held (SEMANTICS 1).
    public var interfaceOrientation: Orientation
    public var activation: ActivationState
    public var displayModeButton: DisplayModeButtonLayout
    /// One entry per `Layout.presentations` entry, same order.
    public var presentations: [PresentationAdditions]
    /// The inspector column; nil without a configured inspector.
    public var inspector: InspectorLayout?

    public init(
        interfaceOrientation: Orientation, activation: ActivationState,
        displayModeButton: DisplayModeButtonLayout, presentations: [PresentationAdditions],
        inspector: InspectorLayout? = nil
    ) {
        self.interfaceOrientation = interfaceOrientation
        self.activation = activation
        self.displayModeButton = displayModeButton
        self.presentations = presentations
        self.inspector = inspector
    }
}

/// A presentation's revision-2 fields.
public struct PresentationAdditions: Codable, Hashable, Sendable {
    /// The requested style as the request named it: `automatic` or a style's wire name.
    public var requestedStyle: String
    public var anchor: String?
    public var prefersEdgeAttachedInCompactHeight: Bool

    public init(requestedStyle: String, anchor: String?, prefersEdgeAttachedInCompactHeight: Bool) {
        self.requestedStyle = requestedStyle
        self.anchor = anchor
        self.prefersEdgeAttachedInCompactHeight = prefersEdgeAttachedInCompactHeight
    }
}

extension SplitEngine {
    /// The revision-2 fields of `state`'s layout (`Layout.revision2`).
    public func revision2Layout(of state: SceneState) -> Revision2Layout {
        // `LayoutAssembly.layout` always sets it.
        layout(of: state).revision2!
    }
}

extension LayoutAssembly {
    /// The revision-2 fields of `state`'s layout, its inspector already resolved.
    static func revision2(
        of state: SceneState, interfaceOrientation: Orientation, inspector: InspectorLayout?
    ) -> Revision2Layout {
        Revision2Layout(
            interfaceOrientation: interfaceOrientation,
            activation: state.activation,
            displayModeButton: DisplayResolver.button(
                config: state.config, size: state.size, memory: state.display,
                collapsed: state.collapsed),
            presentations: state.navigation.presentations.map {
                PresentationAdditions(
                    requestedStyle: $0.requestedAutomatic == true ? "automatic" : $0.style.rawValue,
                    anchor: $0.anchor,
                    prefersEdgeAttachedInCompactHeight: $0.prefersEdgeAttachedInCompactHeight ?? false)
            },
            inspector: inspector)
    }
}
