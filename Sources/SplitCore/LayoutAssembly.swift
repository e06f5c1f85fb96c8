/// WIRE.md's Layout object from a scene state: traits, the display side's resolution
/// (expanded) and the stacks.
enum LayoutAssembly {
    /// The whole layout: protocol 1's fields and revision 2's (`Layout.revision2`), a tiled
    /// inspector's room taken from the secondary.
    static func layout(of state: SceneState, interfaceOrientation: Orientation) -> Layout {
        var layout = protocol1Layout(of: state)
        let inspector = state.config.roots.inspector == nil ? nil : inspectorFrame(of: state, layout: layout)
        // A tiled inspector takes its width from the secondary.
        if let tiled = inspector?.secondary, let index = layout.columns.firstIndex(where: { $0.column == .secondary }) {
            layout.columns[index] = tiled
        }
        layout.revision2 = revision2(
            of: state, interfaceOrientation: interfaceOrientation, inspector: inspector?.inspector)
        return layout
    }

    /// Protocol 1's fields only, the secondary at its full width.
    static func protocol1Layout(of state: SceneState) -> Layout {
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
        return Layout(
            size: state.size, orientation: state.size.orientation, traits: state.traits, collapsed: false,
            displayMode: mode, splitBehavior: behavior,
            columns: columns, presentations: presentations, selectedTab: selectedTab)
    }
}
