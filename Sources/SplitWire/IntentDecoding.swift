import SplitCore

/// Decodes the `intent` object of an `intent` request (WIRE.md intent kinds).
///
/// Error codes (ours, from WIRE.md's split of `bad_request` "missing/invalid field" and
/// `invalid_intent` "e.g. unknown column"): a missing `kind` or field, a field of the wrong
/// type, an unknown `kind`, style or display mode is `bad_request`; a well-formed column
/// field naming no column is `invalid_intent`.
extension FieldReader {
    func intent() throws(WireError) -> Intent {
        let kind = try string("kind")
        switch kind {
        case "push": return .push(column: try column("column"), vc: try identifier("vc"))
        case "pop": return .pop(column: try column("column"))
        case "popToRoot": return .popToRoot(column: try column("column"))
        case "show": return .show(vc: try identifier("vc"), column: try column("column"))
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
                    + Intent.allKinds.joined(separator: ", ") + ")")
        }
    }

    /// A column name; an unknown one is an impossible intent (WIRE.md `invalid_intent`).
    func column(_ name: String) throws(WireError) -> Column {
        let text = try string(name)
        guard let column = Column(rawValue: text) else {
            throw WireError(
                .invalidIntent,
                "unknown column '\(text)' in field '\(fieldName(name))' (columns: "
                    + Column.allCases.map(\.rawValue).joined(separator: ", ") + ")")
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
