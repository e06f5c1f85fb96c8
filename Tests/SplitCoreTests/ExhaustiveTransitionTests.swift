import Testing
@testable import SplitCore

// Exhaustive transitions, after TCA's TestStore: each step states how the change moves the
// *whole* scene state, the whole layout and the complete event list from where they were.
// Whatever a step does not mention must stay as it was; every field that differs from the
// expectation is reported by its path, so a transition cannot change something unnoticed.

/// The paths at which `actual` differs from `expected`, one per differing leaf
/// (`navigation.primary[1]`, `layout.columns[0].width`). Structs, enums with payloads,
/// optionals, arrays and tuples are walked; other values are compared by their description.
func fieldDifferences(_ expected: Any, _ actual: Any, path: String = "") -> [String] {
    let e = Mirror(reflecting: expected)
    let a = Mirror(reflecting: actual)
    func leaf() -> [String] {
        let (left, right) = (String(reflecting: expected), String(reflecting: actual))
        return left == right ? [] : ["\(path.isEmpty ? "(value)" : path): expected \(left), got \(right)"]
    }
    if e.displayStyle == .optional || a.displayStyle == .optional {
        switch (e.children.first, a.children.first) {
        case (nil, nil): return []
        case let (left?, right?): return fieldDifferences(left.value, right.value, path: path)
        default: return leaf()
        }
    }
    if e.displayStyle == .enum {
        // A case without payload, or another case: compare whole; the same case: its payload.
        guard let left = e.children.first, let right = a.children.first, left.label == right.label else {
            return leaf()
        }
        return fieldDifferences(left.value, right.value, path: path + "." + (left.label ?? "?"))
    }
    if e.displayStyle == .collection {
        let (left, right) = (Array(e.children), Array(a.children))
        var found: [String] = []
        for index in 0..<max(left.count, right.count) {
            let at = "\(path)[\(index)]"
            if index >= left.count {
                found.append("\(at): expected nothing, got \(String(reflecting: right[index].value))")
            } else if index >= right.count {
                found.append("\(at): expected \(String(reflecting: left[index].value)), got nothing")
            } else {
                found += fieldDifferences(left[index].value, right[index].value, path: at)
            }
        }
        return found
    }
    if (e.displayStyle == .struct || e.displayStyle == .tuple || e.displayStyle == .class),
        e.children.count == a.children.count, !e.children.isEmpty
    {
        var found: [String] = []
        for (index, (left, right)) in zip(e.children, a.children).enumerated() {
            let name = left.label ?? String(index)
            found += fieldDifferences(left.value, right.value, path: path.isEmpty ? name : path + "." + name)
        }
        return found
    }
    return leaf()
}

/// A scene driven through the engine one change at a time, each change checked in full.
struct EngineTestStore {
    private(set) var state: SceneState
    private(set) var layout: Layout

    init(_ state: SceneState) {
        self.state = state
        layout = engine.layout(of: state)
    }

    /// Applies `change`; `expect` receives the state and layout as they were and an empty
    /// event list, and makes them what the change must give. Every difference is an issue.
    mutating func send(
        _ change: SceneChange, sourceLocation: SourceLocation = #_sourceLocation,
        _ expect: (_ state: inout SceneState, _ layout: inout Layout, _ events: inout [SceneEvent]) -> Void
    ) {
        var expectedState = state
        var expectedLayout = layout
        var expectedEvents: [SceneEvent] = []
        expect(&expectedState, &expectedLayout, &expectedEvents)
        let transition: Transition
        do throws(CoreError) {
            transition = try engine.apply(change, to: state, currentLayout: layout)
        } catch {
            Issue.record("\(change) was refused: \(error)", sourceLocation: sourceLocation)
            return
        }
        // Revision 2's layout members (button target, interface orientation...) are checked by
        // Revision2Tests; here they must only be what a fresh resolution gives (below).
        expectedLayout.revision2 = transition.layout.revision2
        let found =
            fieldDifferences(expectedState, transition.state, path: "state")
            + fieldDifferences(expectedLayout, transition.layout, path: "layout")
            + fieldDifferences(expectedEvents, transition.events, path: "events")
        for difference in found {
            Issue.record("\(change): \(difference)", sourceLocation: sourceLocation)
        }
        #expect(transition.changed == (expectedState != state), "\(change): changed", sourceLocation: sourceLocation)
        // The layout a client gets is the one a fresh resolution of the new state gives.
        #expect(transition.layout == engine.layout(of: transition.state), sourceLocation: sourceLocation)
        state = transition.state
        layout = transition.layout
    }

    /// Applies `change`, which must be refused with `code` and leave everything as it was.
    func refuse(_ change: SceneChange, _ code: CoreError.Code, sourceLocation: SourceLocation = #_sourceLocation) {
        do throws(CoreError) {
            let transition = try engine.apply(change, to: state, currentLayout: layout)
            Issue.record("\(change) was accepted: \(transition.events)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == code, sourceLocation: sourceLocation)
        }
    }
}

extension Layout {
    /// The column named `column`, to be changed in place by an expectation.
    subscript(column column: Column) -> ColumnLayout {
        get { columns.first { $0.column == column }! }
        set { columns[columns.firstIndex { $0.column == column }!] = newValue }
    }
}

@Suite struct ExhaustiveTransitionTests {
    static let regularRegular = Traits(horizontalSizeClass: .regular, verticalSizeClass: .regular)
    static let compactRegular = Traits(horizontalSizeClass: .compact, verticalSizeClass: .regular)

    /// The mail scene of the README: a 12.9" iPad in landscape, primary `inbox`, placeholder
    /// `empty` as the secondary's root.
    static func mail() throws -> EngineTestStore {
        try EngineTestStore(
            makeScene {
                $0.roots = ColumnRoots(primary: "inbox"); $0.placeholder = "empty"
            })
    }

    /// The helper itself: two differing fields are two issues, each named by its path.
    @Test func everyDifferingFieldIsReportedByItsPath() throws {
        let state = try makeScene()
        var other = state
        other.revision = 9
        other.navigation.secondary.append("extra")
        let found = fieldDifferences(state, other, path: "state")
        #expect(found.count == 2, "\(found)")
        #expect(found.contains { $0.hasPrefix("state.revision: expected 1, got 9") }, "\(found)")
        #expect(
            found.contains { $0.hasPrefix("state.navigation.secondary[1]: expected nothing, got \"extra\"") },
            "\(found)")
        #expect(fieldDifferences(state, state).isEmpty)
        let events: [SceneEvent] = [.displayModeChanged(from: .secondaryOnly, to: .oneOverSecondary)]
        let moved: [SceneEvent] = [.displayModeChanged(from: .secondaryOnly, to: .oneBesideSecondary)]
        #expect(fieldDifferences(events, moved, path: "events").count == 1)
    }

    /// A resize that keeps the size classes and the orientation: the size and the revision,
    /// the secondary's width, one `viewWillTransition`; nothing else.
    @Test func aResizeWithinTheSizeClassMovesOnlyTheSizeAndTheSecondary() throws {
        var store = try Self.mail()
        store.send(.resize(Size(width: 1200, height: 1024))) { state, layout, events in
            state.size = Size(width: 1200, height: 1024)
            state.revision = 2
            layout.size = Size(width: 1200, height: 1024)
            layout[column: .secondary].width = 880
            events = [.viewWillTransition(to: Size(width: 1200, height: 1024))]
        }
        // The same size again changes nothing at all.
        store.send(.resize(Size(width: 1200, height: 1024))) { _, _, _ in }
    }

    /// showDetail, collapse, expand: the mail flow's every field, and the round trip back to
    /// the expanded state it started from.
    @Test func showDetailCollapseAndExpandChangeExactlyWhatTheyShould() throws {
        var store = try Self.mail()
        store.send(.intent(.showDetail(vc: "message-7"))) { state, layout, events in
            state.revision = 2
            state.navigation.secondary = ["message-7"]
            state.navigation.lastNavigated = .secondary
            layout[column: .secondary].stack = ["message-7"]
            events = [.disappear(vc: "empty", column: .secondary), .appear(vc: "message-7", column: .secondary)]
        }
        let expanded = store.state

        store.send(.resize(padThird)) { state, layout, events in
            state.size = padThird
            state.traits = Self.compactRegular
            state.revision = 3
            state.display.lastTraits = Self.compactRegular
            let entries = [StackEntry(vc: "inbox", origin: .primary), StackEntry(vc: "message-7", origin: .secondary)]
            state.navigation.collapsed = CollapsedStack(
                entries: entries, built: entries,
                shares: ColumnShares(primary: 1, secondary: 1))
            layout = Layout(
                size: padThird, orientation: .portrait, traits: Self.compactRegular, collapsed: true,
                displayMode: nil, splitBehavior: nil,
                columns: [
                    ColumnLayout(
                        column: .compact, visible: true, x: 0, width: 375, overlay: false,
                        dimmed: false, stack: ["inbox", "message-7"])
                ],
                presentations: [], selectedTab: nil)
            events = [
                .traitsChanged(from: Self.regularRegular, to: Self.compactRegular),
                .willCollapse(moved: ["message-7"]), .didCollapse(moved: ["message-7"]),
                .displayModeChanged(from: .oneBesideSecondary, to: nil),
                .viewWillTransition(to: padThird), .disappear(vc: "inbox", column: .primary),
            ]
        }

        store.send(.resize(padLandscape)) { state, layout, events in
            state = expanded
            state.revision = 4
            layout = engine.layout(of: expanded)
            events = [
                .traitsChanged(from: Self.compactRegular, to: Self.regularRegular),
                .willExpand(moved: ["message-7"]), .didExpand(moved: ["message-7"]),
                .displayModeChanged(from: nil, to: .oneBesideSecondary),
                .viewWillTransition(to: padLandscape), .appear(vc: "inbox", column: .primary),
            ]
        }
    }

    /// The display-mode button on a portrait iPad: the user's mode is remembered, the primary
    /// comes over the dimmed secondary, and the primary's top appears; tapping the dimmed
    /// secondary undoes all of it.
    @Test func theButtonAndTapDimmedChangeOnlyTheDisplay() throws {
        var store = try EngineTestStore(makeScene(size: padPortrait) { $0.roots = ColumnRoots(primary: "list") })
        let before = store.layout
        store.send(.intent(.displayModeButton)) { state, layout, events in
            state.revision = 2
            state.display.userDisplayMode = .oneOverSecondary
            layout.displayMode = .oneOverSecondary
            layout[column: .primary].visible = true
            layout[column: .primary].overlay = true
            layout[column: .secondary].dimmed = true
            events = [
                .displayModeChanged(from: .secondaryOnly, to: .oneOverSecondary),
                .appear(vc: "list", column: .primary),
            ]
        }
        store.send(.intent(.tapDimmed)) { state, layout, events in
            state.revision = 3
            state.display.userDisplayMode = .secondaryOnly
            layout = before
            events = [
                .displayModeChanged(from: .oneOverSecondary, to: .secondaryOnly),
                .disappear(vc: "list", column: .primary),
            ]
        }
    }

    /// push and pop in the primary: the stack, the last navigated column, one appear and
    /// one disappear each; a pop at the root is refused and changes nothing.
    @Test func pushAndPopChangeOneStackAndItsVisibility() throws {
        var store = try Self.mail()
        store.refuse(.intent(.pop(column: .primary)), .invalidIntent)
        store.send(.intent(.push(column: .primary, vc: "folder-2"))) { state, layout, events in
            state.revision = 2
            state.navigation.primary = ["inbox", "folder-2"]
            state.navigation.lastNavigated = .primary
            layout[column: .primary].stack = ["inbox", "folder-2"]
            events = [.disappear(vc: "inbox", column: .primary), .appear(vc: "folder-2", column: .primary)]
        }
        store.send(.intent(.pop(column: .primary))) { state, layout, events in
            state.revision = 3
            state.navigation.primary = ["inbox"]
            layout[column: .primary].stack = ["inbox"]
            events = [.disappear(vc: "folder-2", column: .primary), .appear(vc: "inbox", column: .primary)]
        }
    }

    /// A new preferred display mode by setConfig: the configuration, the mode, the primary
    /// hidden and the secondary across the window, and the primary's top disappearing; the
    /// same setConfig again is no change at all.
    @Test func setConfigOfTheDisplayModeChangesTheConfigAndTheDisplayOnly() throws {
        var store = try Self.mail()
        let hide = SceneChange.intent(.setConfig(patch { $0.preferredDisplayMode = .secondaryOnly }))
        store.send(hide) { state, layout, events in
            state.revision = 2
            state.config.preferredDisplayMode = .secondaryOnly
            layout.displayMode = .secondaryOnly
            layout[column: .primary].visible = false
            layout[column: .secondary].x = 0
            layout[column: .secondary].width = 1366
            events = [
                .displayModeChanged(from: .oneBesideSecondary, to: .secondaryOnly),
                .disappear(vc: "inbox", column: .primary),
            ]
        }
        store.send(hide) { _, _, _ in }
    }

    /// Presenting a form sheet adds it to the modal stack (shown as requested in a regular
    /// width) and says so; dismissing it empties the modal stack and changes nothing else.
    @Test func presentAndDismissChangeOnlyTheModalStack() throws {
        var store = try Self.mail()
        store.send(.intent(.present(vc: "compose", style: .formSheet))) { state, layout, events in
            state.revision = 2
            state.navigation.presentations = [Presentation(vc: "compose", style: .formSheet)]
            layout.presentations = [PresentationLayout(vc: "compose", style: .formSheet, effectiveStyle: .formSheet)]
            events = [.presented(vc: "compose", style: .formSheet)]
        }
        store.send(.intent(.dismiss)) { state, layout, events in
            state.revision = 3
            state.navigation.presentations = []
            layout.presentations = []
            events = [.dismissed(vc: "compose")]
        }
    }
}
