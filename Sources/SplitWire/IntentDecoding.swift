import SplitCore

/// Decodes the `intent` object of an `intent` request (WIRE.md intent kinds).
///
/// Error codes (ours, from WIRE.md's split of `bad_request` "missing/invalid field" and
/// `invalid_intent` "e.g. unknown column"): a missing `kind` or field, a field of the wrong
/// type, an unknown `kind`, style or display mode is `bad_request`; a well-formed column
/// field naming no column is `invalid_intent`.
extension FieldReader {
    /// The fields an intent object of `kind` may carry (WIRE.md, revision 2 included); nil
    /// for an unknown kind.
    static func intentFields(_ kind: String) -> Set<String>? {
        switch kind {
        case "push", "show": ["kind", "column", "vc"]
        case "pop", "popToRoot", "showColumn", "hideColumn": ["kind", "column"]
        case "showDetail": ["kind", "vc"]
        case "back", "dismiss", "displayModeButton", "gesture", "tapDimmed": ["kind"]
        case "selectTab": ["kind", "index"]
        case "present": ["kind", "vc", "style", "anchor", "prefersEdgeAttachedInCompactHeight"]
        case "setPreferredDisplayMode": ["kind", "mode"]
        case "setConfig": ["kind", "config"]
        case "activation": ["kind", "state"]
        default: nil
        }
    }

    /// An intent object, revision 2's forms included (WIRE.md "Revision 2 additions"): a
    /// `present` with `style: automatic`, an `anchor` or `prefersEdgeAttachedInCompactHeight`;
    /// `column: inspector`; kind `activation`. Everything else is a protocol-1 `Intent`
    /// (`.change(.intent)`), so its journal record is the one protocol 1 wrote. A field the
    /// kind does not take is refused (`bad_request` naming it). `activation`'s session id
    /// is the daemon's to give: it is empty here.
    func command() throws(WireError) -> SceneCommand {
        let kind = try string("kind")
        if let known = FieldReader.intentFields(kind) {
            for key in object.keys where !known.contains(key) {
                throw WireError.badRequest(
                    "unknown field '\(fieldName(key))' for intent kind '\(kind)' (fields: "
                        + known.sorted().joined(separator: ", ") + ")")
            }
        }
        switch kind {
        case "present":
            let automatic = optional("style")?.string == "automatic"
            let anchor = try optionalString("anchor")
            let edge = try optionalBool("prefersEdgeAttachedInCompactHeight")
            guard automatic || anchor != nil || edge != nil else { break }
            if let anchor, anchor.isEmpty {
                throw WireError.badRequest("field '\(fieldName("anchor"))' must not be empty")
            }
            let style = automatic ? nil : try presentationStyle()
            return .present(
                PresentationRequest(
                    vc: try identifier("vc"), style: style, anchor: anchor,
                    prefersEdgeAttachedInCompactHeight: edge ?? false))
        case "push", "pop", "popToRoot", "showColumn", "hideColumn":
            guard optional("column")?.string == "inspector" else { break }
            switch kind {
            case "push": return .inspector(.push(vc: try identifier("vc")))
            case "pop": return .inspector(.pop)
            case "popToRoot": return .inspector(.popToRoot)
            case "showColumn": return .inspector(.show)
            default: return .inspector(.hide)
            }
        case "activation":
            return .activation(try enumeration("state", ActivationState.self), backgroundSession: "")
        default: break
        }
        return .change(.intent(try intent()))
    }

    /// `style` of a present: absent is protocol 1's `pageSheet`.
    private func presentationStyle() throws(WireError) -> PresentationStyle {
        optional("style") == nil ? .pageSheet : try enumeration("style", PresentationStyle.self)
    }

    func intent() throws(WireError) -> Intent {
        let kind = try string("kind")
        switch kind {
        case "push": return .push(column: try column("column"), vc: try identifier("vc"))
        case "pop": return .pop(column: try column("column"))
        case "popToRoot": return .popToRoot(column: try column("column"))
        case "show":
            if optional("column")?.string == "inspector" {
                throw WireError(
                    .invalidIntent,
                    "intent 'show' cannot name column 'inspector' in field '\(fieldName("column"))': "
                        + "show(vc, column) pushes in a navigation column of the split; to reveal the "
                        + "inspector use showColumn with column 'inspector', to put a view controller on its "
                        + "stack use push with column 'inspector', and its root is config roots.inspector")
            }
            return .show(vc: try identifier("vc"), column: try column("column"))
        case "showDetail": return .showDetail(vc: try identifier("vc"))
        case "back": return .back
        case "selectTab": return .selectTab(index: try int("index"))
        case "present":
            // UIKit's automatic modal style resolves to pageSheet since iOS 13.
            let style = optional("style") == nil ? .pageSheet : try enumeration("style", PresentationStyle.self)
            return .present(vc: try identifier("vc"), style: style)
        case "dismiss": return .dismiss
        case "setPreferredDisplayMode": return .setPreferredDisplayMode(try displayMode("mode"))
        case "displayModeButton": return .displayModeButton
        case "gesture": return .gesture
        case "tapDimmed": return .tapDimmed
        case "showColumn": return .showColumn(try column("column"))
        case "hideColumn": return .hideColumn(try column("column"))
        case "setConfig": return .setConfig(try nested("config").configPatch())
        default:
            throw WireError.badRequest(
                "unknown intent kind '\(kind)' in field '\(fieldName("kind"))' (expected one of "
                    + (Intent.allKinds + ["activation"]).joined(separator: ", ") + ")")
        }
    }

    /// A column name; an unknown one is an impossible intent (WIRE.md `invalid_intent`).
    func column(_ name: String) throws(WireError) -> Column {
        let text = try string(name)
        guard let column = Column(rawValue: text) else {
            throw WireError(
                .invalidIntent,
                "unknown column '\(text)' in field '\(fieldName(name))' (columns: "
                    + Column.allCases.map(\.rawValue).joined(separator: ", ") + ", inspector)")
        }
        return column
    }

    /// A display mode, deprecated UIKit aliases accepted (SEMANTICS 4).
    func displayMode(_ name: String) throws(WireError) -> DisplayMode {
        let text = try string(name)
        guard let mode = DisplayMode(wireName: text) else {
            throw WireError.badRequest(
                "field '\(fieldName(name))' must be a display mode ("
                    + DisplayMode.allCases.map(\.rawValue).joined(separator: ", ")
                    + ", or allVisible, primaryHidden, primaryOverlay), got '\(text)'")
        }
        return mode
    }
}
