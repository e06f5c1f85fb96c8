import SplitCore

// The wire names of the enums a layout carries, as static strings: the response encoder
// copies them without building a String or scanning for escapes. `WireNamesTests` checks
// each equals the enum's raw value.

extension Orientation {
    var wireName: StaticString {
        switch self {
        case .portrait: "portrait"
        case .landscape: "landscape"
        }
    }
}

extension ActivationState {
    var wireName: StaticString {
        switch self {
        case .foregroundActive: "foregroundActive"
        case .foregroundInactive: "foregroundInactive"
        case .background: "background"
        }
    }
}

extension SizeClass {
    var wireName: StaticString {
        switch self {
        case .compact: "compact"
        case .regular: "regular"
        }
    }
}

extension DisplayMode {
    var wireName: StaticString {
        switch self {
        case .automatic: "automatic"
        case .secondaryOnly: "secondaryOnly"
        case .oneBesideSecondary: "oneBesideSecondary"
        case .oneOverSecondary: "oneOverSecondary"
        case .twoBesideSecondary: "twoBesideSecondary"
        case .twoOverSecondary: "twoOverSecondary"
        case .twoDisplaceSecondary: "twoDisplaceSecondary"
        }
    }
}

extension SplitBehavior {
    var wireName: StaticString {
        switch self {
        case .automatic: "automatic"
        case .tile: "tile"
        case .overlay: "overlay"
        case .displace: "displace"
        }
    }
}

extension Column {
    var wireName: StaticString {
        switch self {
        case .primary: "primary"
        case .supplementary: "supplementary"
        case .secondary: "secondary"
        case .compact: "compact"
        }
    }
}

extension PresentationStyle {
    var wireName: StaticString {
        switch self {
        case .fullScreen: "fullScreen"
        case .pageSheet: "pageSheet"
        case .formSheet: "formSheet"
        case .popover: "popover"
        }
    }
}

extension SceneEvent {
    /// `type` as a static string.
    var wireType: StaticString {
        switch self {
        case .traitsChanged: "traitsChanged"
        case .viewWillTransition: "viewWillTransition"
        case .willCollapse: "willCollapse"
        case .didCollapse: "didCollapse"
        case .willExpand: "willExpand"
        case .didExpand: "didExpand"
        case .displayModeChanged: "displayModeChanged"
        case .appear: "appear"
        case .disappear: "disappear"
        case .presented: "presented"
        case .dismissed: "dismissed"
        }
    }
}
