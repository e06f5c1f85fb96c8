import Testing
@testable import SplitCore

/// `DisplayResolver.interpret` picks its mode without building the allowed modes'
/// array. Every mode, behavior and style must give what indexing `allowedModes` gives.
@Suite struct InterpretModeTests {
    @Test func interpretIsTheAllowedModeWithAsManySidebars() {
        for style in SplitStyle.allCases {
            for behavior in SplitBehavior.allCases {
                let allowed = DisplayResolver.allowedModes(behavior: behavior, style: style)
                for mode in DisplayMode.allCases {
                    let sidebars = DisplayResolver.sidebarCount(
                        DisplayResolver.oneSidebarEquivalent(mode, style: style))
                    let expected = allowed[min(sidebars, allowed.count - 1)]
                    #expect(
                        DisplayResolver.interpret(mode, behavior: behavior, style: style) == expected,
                        "\(mode) under \(behavior) in \(style)")
                }
            }
        }
    }
}
