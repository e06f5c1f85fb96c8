/// WIRE.md's Layout object from a scene state: traits, the display side's resolution
/// (expanded) and the stacks.
enum LayoutAssembly {
    static func layout(of state: SceneState) -> Layout {
        let presentations = state.navigation.presentations.map {
            PresentationLayout(vc: $0.vc, style: $0.style, effectiveStyle: $0.effectiveStyle(in: state.traits))
        }
        let selectedTab = state.navigation.tabs.isEmpty ? nil : state.navigation.selectedTab
        if let collapsed = state.navigation.collapsed {
            let column = ColumnLayout(column: .compact, visible: true, x: 0, width: state.size.width, stack: collapsed.vcs)
            return Layout(size: state.size, orientation: state.size.orientation, traits: state.traits, collapsed: true,
                          displayMode: nil, splitBehavior: nil, columns: [column],
                          presentations: presentations, selectedTab: selectedTab)
        }
        let resolution = DisplayResolver.resolve(config: state.config, size: state.size, memory: state.display)
        let columns = resolution.frames.map { frame in
            ColumnLayout(column: frame.column, visible: frame.visible, x: frame.x, width: frame.width,
                         overlay: frame.overlay, dimmed: frame.dimmed, stack: state.navigation.stack(frame.column))
        }
        return Layout(size: state.size, orientation: state.size.orientation, traits: state.traits, collapsed: false,
                      displayMode: resolution.displayMode, splitBehavior: resolution.splitBehavior,
                      columns: columns, presentations: presentations, selectedTab: selectedTab)
    }
}
