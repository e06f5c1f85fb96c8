/// Snapshot sessions (SEMANTICS 8) as pure functions of a base state.
extension SplitEngine {
    /// SEMANTICS 8 on explicit sizes. Never mutates `state`. Each snapshot is the layout after
    /// a single resize from the base (path independent); the round trip replays the sizes in
    /// order and back to the base size.
    public func snapshot(_ state: SceneState, sizes: [Size]) throws(CoreError) -> SnapshotResult {
        guard !sizes.isEmpty else { throw .badRequest("a snapshot needs at least one size") }
        guard sizes.count <= limits.maxSnapshotSizes else {
            throw CoreError(.limitExceeded, "more than \(limits.maxSnapshotSizes) snapshot sizes")
        }
        if let bad = sizes.first(where: { !$0.isValidWindowSize }) { throw .badRequest("invalid size \(bad)") }
        // The reducer without events: a session only needs the states and their layouts.
        var snapshots: [SizedLayout] = []
        for size in sizes {
            snapshots.append(SizedLayout(size: size, layout: layout(of: try resize(state, to: size).0)))
        }
        return SnapshotResult(
            baseRevision: state.revision, snapshots: snapshots, roundTrip: try replay(state, sizes: sizes))
    }

    /// SEMANTICS 8 on a preset such as `appSwitcher`.
    public func snapshot(_ state: SceneState, preset: String) throws(CoreError) -> SnapshotResult {
        guard
            let sizes = catalog.presetSizes(
                preset, device: state.device, current: state.size,
                interfaceOrientation: interfaceOrientation(of: state))
        else {
            throw .badRequest("unknown snapshot preset '\(preset)' for device '\(state.device)'")
        }
        return try snapshot(state, sizes: sizes)
    }

    /// Resizes through `sizes` in order, as UIKit does, then back to the base size.
    func replay(_ base: SceneState, sizes: [Size]) throws(CoreError) -> RoundTripReport {
        var state = base
        for size in sizes + [base.size] { state = try resize(state, to: size).0 }
        let found = RoundTripComparison.losses(base, state)
        return RoundTripReport(lossless: found.isEmpty, differences: found.map(\.finding), lost: found.map(\.part))
    }
}

/// What "the exact base state" means after a replay (ours): same size, traits, collapsed
/// flag, configuration, visible stack, column stacks (a collapsed scene is compared in its
/// expanded form too, so a provenance relabelled by the trip is not a loss), tabs, selected
/// tab, presentations and (revision 2, SEMANTICS 8.3) a display mode chosen by a user
/// action: UIKit's live replay expires it with the size-class change, which is the damage
/// seed 003 describes, so it is reported as lost (`displayMode`). Not compared: the
/// revision (it grows).
enum RoundTripComparison {
    static func differences(_ base: SceneState, _ final: SceneState) -> [String] {
        losses(base, final).map(\.finding)
    }

    /// Each difference with the name of the part it is about.
    static func losses(_ base: SceneState, _ final: SceneState) -> [(part: String, finding: String)] {
        var found: [(part: String, finding: String)] = []
        // Each value in the words of the wire, never a Swift type's debug text: the report is
        // stored, hashed and compared with golden files.
        func compare<T: Equatable>(_ name: String, _ a: T, _ b: T, _ text: (T) -> String) {
            if a != b { found.append((partName(name), "\(name): was \(text(a)), now \(text(b))")) }
        }
        compare("size", base.size, final.size) { "\($0)" }
        compare("traits", base.traits, final.traits) {
            "horizontal \($0.horizontalSizeClass.rawValue), vertical \($0.verticalSizeClass.rawValue)"
        }
        compare("collapsed", base.collapsed, final.collapsed) { "\($0)" }
        if base.config != final.config { found.append(("config", "config: changed")) }  // a resize never changes it
        compare("visible stack", visibleStack(base), visibleStack(final), list)
        let a = expandedForm(base)
        let b = expandedForm(final)
        for column in Column.allCases {
            compare("\(column.rawValue) stack", a.stack(column), b.stack(column), list)
        }
        compare("tabs", a.tabs, b.tabs) { tabs in
            "["
                + tabs.map {
                    "{primary \(list($0.primary)), saved detail \(list($0.savedDetail))"
                        + ($0.savedSecondary.map { ", saved secondary \(list($0))" } ?? "") + "}"
                }.joined(separator: ", ") + "]"
        }
        compare("selected tab", a.selectedTab, b.selectedTab) { $0.map(String.init) ?? "none" }
        compare("presentations", a.presentations, b.presentations) { presentations in
            "[" + presentations.map { "\(quoted($0.vc)) (\($0.style.rawValue))" }.joined(separator: ", ") + "]"
        }
        if let chosen = base.display.userDisplayMode, final.display.userDisplayMode != chosen {
            let now =
                final.display.userDisplayMode.map { "\($0.rawValue) (chosen by the user)" } ?? "resolved for the size"
            found.append(("displayMode", "displayMode: was \(chosen.rawValue) (chosen by the user), now \(now)"))
        }
        return found
    }

    /// A finding's label as an identifier: "secondary stack" -> "secondaryStack".
    static func partName(_ label: String) -> String {
        let words = label.split(separator: " ")
        guard let first = words.first else { return label }
        return String(first) + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// Ids as a JSON array: `["inbox", "thread"]`.
    static func list(_ ids: [String]) -> String {
        "[" + ids.map(quoted).joined(separator: ", ") + "]"
    }

    /// An id as a JSON string (ids may hold any character: `"`, `\` and control characters
    /// are escaped, so that two different losses never read the same).
    static func quoted(_ id: String) -> String {
        var text = "\""
        for scalar in id.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }

    static func visibleStack(_ state: SceneState) -> [String] {
        state.navigation.collapsed?.vcs ?? state.config.style.columns.flatMap { state.navigation.stack($0) }
    }

    static func expandedForm(_ state: SceneState) -> NavigationState {
        Expand.expand(state.navigation, config: state.config).0
    }
}
