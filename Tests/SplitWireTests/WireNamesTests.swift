import SplitCore
@testable import SplitWire
import Testing

/// The static wire names the encoder uses must be the raw values SplitCore's Codable writes.
@Suite("WireNames")
struct WireNamesTests {
    private func check<E: CaseIterable & RawRepresentable>(_: E.Type, _ name: (E) -> StaticString)
    where E.RawValue == String {
        for value in E.allCases { #expect("\(name(value))" == value.rawValue) }
    }

    @Test("every enum case's static name equals its raw value")
    func enumNames() {
        check(Orientation.self, \.wireName)
        check(SizeClass.self, \.wireName)
        check(DisplayMode.self, \.wireName)
        check(SplitBehavior.self, \.wireName)
        check(Column.self, \.wireName)
        check(PresentationStyle.self, \.wireName)
    }

    @Test("every event's static type equals its type")
    func eventTypes() {
        let events: [SceneEvent] = [
            .traitsChanged(from: .regularRegular, to: .compactRegular),
            .viewWillTransition(to: Size(width: 1, height: 1)),
            .willCollapse(moved: []), .didCollapse(moved: []), .willExpand(moved: []), .didExpand(moved: []),
            .displayModeChanged(from: nil, to: .secondaryOnly), .appear(vc: "a", column: .primary),
            .disappear(vc: "a", column: .primary), .presented(vc: "a", style: .popover), .dismissed(vc: "a"),
        ]
        #expect(Set(events.map(\.type)).count == 11)
        for event in events { #expect("\(event.wireType)" == event.type) }
    }
}
