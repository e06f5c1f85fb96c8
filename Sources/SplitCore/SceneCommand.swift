/// Every change a scene accepts, revision 2's included. `SceneChange` is the part protocol
/// 1 and the journal carry; the other cases are the revision-2 requests whose fields
/// `Intent` and `SceneChange` cannot hold (their cases stay as they are so that exhaustive
/// switches over them keep compiling).
public enum SceneCommand: Hashable, Sendable {
    case change(SceneChange)
    /// A resize stating the interface orientation (SEMANTICS 1; nil: by the rule).
    case resize(Size, interfaceOrientation: Orientation?)
    /// `present` with `automatic`, `anchor` or `prefersEdgeAttachedInCompactHeight`.
    case present(PresentationRequest)
    /// A new activation state (SEMANTICS 10). `backgroundSession`: the id the app-switcher
    /// session is recorded under when this change enters `background`.
    case activation(ActivationState, backgroundSession: String)
    /// showColumn/hideColumn/push/pop/popToRoot naming the inspector column.
    case inspector(InspectorIntent)
}

/// An event of revision 2's kinds (SEMANTICS 7), or one of protocol 1's.
public enum TimelineEvent: Hashable, Sendable {
    case scene(SceneEvent)
    /// The delegate's `willShow`/`willHide`: an expanded scene's column becomes visible or
    /// hidden because of a size change, the button, the gesture, tapDimmed or showDetail's
    /// dismissal (not for showColumn/hideColumn intents, as in UIKit).
    case willShowColumn(Column)
    case willHideColumn(Column)
    case activationChanged(from: ActivationState, to: ActivationState)
    /// The app-switcher session a change entering `background` ran (SEMANTICS 10).
    case snapshotTaken(session: String)
    /// `appear`/`disappear` of the inspector column's top (on the wire, `column:
    /// "inspector"`): it becomes visible or hidden as a column or as a sheet.
    case inspectorAppear(vc: String)
    case inspectorDisappear(vc: String)

    /// The wire `type` of the event.
    public var type: String {
        switch self {
        case .scene(let event): event.type
        case .willShowColumn: "willShowColumn"
        case .willHideColumn: "willHideColumn"
        case .activationChanged: "activationChanged"
        case .snapshotTaken: "snapshotTaken"
        case .inspectorAppear: "appear"
        case .inspectorDisappear: "disappear"
        }
    }
}

/// A revision-2 event and where it goes among a transition's `events`.
public struct PositionedEvent: Hashable, Sendable {
    public var event: TimelineEvent
    /// The index in `events` of the event it comes before.
    public var position: Int

    public init(_ event: TimelineEvent, at position: Int) {
        self.event = event
        self.position = position
    }
}
