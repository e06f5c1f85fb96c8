/// WIRE.md's Layout object from a scene state: traits, the display side's resolution
/// (expanded) and the stacks.
enum LayoutAssembly {
    static func layout(of state: SceneState) -> Layout {
        let presentations = state.navigation.presentations.map {
            PresentationLayout(vc: $0.vc, style: $0.style, effectiveStyle: $0.effectiveStyle(in: state.traits))
        }
        let selectedTab = state.navigation.tabs.isEmpty ? nil : state.navigation.selectedTab
        if let collapsed = state.navigation.collapsed {
            let column = ColumnLayout(
                column: .compact, visible: true, x: 0, width: state.size.width, stack: collapsed.vcs)
            return Layout(
                size: state.size, orientation: state.size.orientation, traits: state.traits, collapsed: true,
                displayMode: nil, splitBehavior: nil, columns: [column],
                presentations: presentations, selectedTab: selectedTab)
        }
        // The columns are made from the frames as they are laid out, not mapped from
        // `DisplayResolver.resolve`'s array of frames (an allocation per expanded layout).
        let (widths, behavior, mode) = DisplayResolver.resolveMode(
            config: state.config, size: state.size,
            memory: state.display)
        let columns = ColumnFrames.frames(
            config: state.config, behavior: behavior, mode: mode, widths: widths,
            windowWidth: state.size.width
        ) { frame in
            ColumnLayout(
                column: frame.column, visible: frame.visible, x: frame.x, width: frame.width,
                overlay: frame.overlay, dimmed: frame.dimmed, stack: state.navigation.stack(frame.column))
        }
        var layout = Layout(
            size: state.size, orientation: state.size.orientation, traits: state.traits, collapsed: false,
            displayMode: mode, splitBehavior: behavior,
            columns: columns, presentations: presentations, selectedTab: selectedTab)
        // A tiled inspector (revision 2) takes its width from the secondary.
        if state.navigation.inspectorShown == true, state.config.roots.inspector != nil,
            let secondary = SplitEngine().inspectorFrame(of: state, layout: layout)?.secondary,
            let index = layout.columns.firstIndex(where: { $0.column == .secondary })
        {
            layout.columns[index] = secondary
        }
        return layout
    }
}
