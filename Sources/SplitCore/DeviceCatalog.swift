// Device profiles and rule sets by name (SEMANTICS 2).

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The kind of device a profile simulates.
public enum DeviceIdiom: String, Codable, Hashable, Sendable, CaseIterable {
    case pad, phone, mac
}

/// An Apple device profile (Config/devices.json).
public struct DeviceProfile: Codable, Hashable, Sendable {
    public var id: String
    public var idiom: DeviceIdiom
    /// The screen in portrait, in points (for `mac`, the default window turned upright).
    public var screen: Size
    /// Horizontal class of a full-screen landscape phone (the Plus/Max class is regular).
    public var landscapeHorizontalClass: SizeClass
    /// iPad: the minimum width of a horizontally regular window narrower than the screen;
    /// nil: the catalog's `windowedRegularMinWidth`.
    public var windowedRegularMinWidth: Double?
    /// For a Display Zoom variant, the physical model it runs on.
    public var zoomOf: String?
    /// Named sizes, both orientations (`full`, `2/3`, `1/2`, `1/3`, `slideOver`).
    public var presets: [NamedSize]
    /// Where the row's values come from (revision 2 rows cite Apple's published table).
    public var source: String?
    /// The fields Apple has not published for this model (`landscapeHorizontalClass`,
    /// `multitaskingWidths`): marked rather than guessed (SEMANTICS 2, revision 2).
    public var unpublished: [String]?

    public init(
        id: String, idiom: DeviceIdiom, screen: Size, landscapeHorizontalClass: SizeClass,
        windowedRegularMinWidth: Double? = nil, zoomOf: String? = nil, presets: [NamedSize],
        source: String? = nil, unpublished: [String]? = nil
    ) {
        self.id = id
        self.idiom = idiom
        self.screen = screen
        self.landscapeHorizontalClass = landscapeHorizontalClass
        self.windowedRegularMinWidth = windowedRegularMinWidth
        self.zoomOf = zoomOf
        self.presets = presets
        self.source = source
        self.unpublished = unpublished
    }

    /// The full screen in `orientation`.
    public func screen(in orientation: Orientation) -> Size {
        let short = min(screen.width, screen.height), long = max(screen.width, screen.height)
        return orientation == .portrait ? Size(width: short, height: long) : Size(width: long, height: short)
    }
}

extension Orientation {
    /// How a device is held while one of its windows is `size`: the one rule for the
    /// daemon's snapshot presets and splitctl's preset names. A window in Split View or Slide
    /// Over is as high as the screen (or a little less) whatever its width, so a 700x1024
    /// window on a 12.9-inch iPad is on a landscape screen although it is taller than wide.
    /// Landscape when the window is as high as the landscape screen, portrait when as high
    /// as the portrait screen; else the orientation of the preset the size equals
    /// (`matchingPreset`: Slide Over, 375x984 on the landscape 12.9-inch); else the window's own.
    public static func held(showing size: Size, landscapeScreen: Size?, matchingPreset: Orientation?) -> Orientation {
        if let screen = landscapeScreen {
            let short = min(screen.width, screen.height), long = max(screen.width, screen.height)
            if size.height == short { return .landscape }
            if size.height == long { return .portrait }
        }
        return matchingPreset ?? size.orientation
    }
}

/// A named size a device profile offers (SEMANTICS 2 multitasking presets).
public struct NamedSize: Codable, Hashable, Sendable {
    /// e.g. `full`, `2/3`, `1/2`, `1/3`, `slideOver`.
    public var name: String
    public var orientation: Orientation
    public var size: Size

    public init(name: String, orientation: Orientation, size: Size) {
        self.name = name
        self.orientation = orientation
        self.size = size
    }
}

/// The top level of a device file: `{"windowedRegularMinWidth", "profiles": [...]}`.
struct DeviceFile: Decodable {
    var windowedRegularMinWidth: Double?
    var profiles: [DeviceProfile]
}

/// Device profiles and rule sets, loaded from `Config/` data.
public struct DeviceCatalog: Sendable {
    /// The catalog shipped in `Config/` (embedded at build time).
    public static let builtIn: DeviceCatalog = {
        do {
            return try DeviceCatalog(
                devicesJSON: Data(EmbeddedCatalog.devicesJSON.utf8),
                ruleSetsJSON: Data(EmbeddedCatalog.ruleSetsJSON.utf8))
        } catch {
            fatalError("embedded catalog is invalid: \(error)")  // caught by CatalogTests
        }
    }()

    /// Profiles in file order.
    public private(set) var profiles: [DeviceProfile]
    /// Rule sets in file order, user-defined ones last.
    public private(set) var ruleSets: [RuleSet]
    /// iPad windows narrower than the screen are horizontally regular from this width (640).
    public var windowedRegularMinWidth: Double

    private var profileIndex: [String: Int] = [:]
    private var ruleSetIndex: [String: Int] = [:]

    /// A catalog of these profiles and rule sets. Throws `bad_request` for a duplicate or
    /// invalid name, size or rule.
    public init(profiles: [DeviceProfile], ruleSets: [RuleSet], windowedRegularMinWidth: Double = 640) throws(CoreError)
    {
        guard windowedRegularMinWidth.isFinite, windowedRegularMinWidth >= 0 else {
            throw .badRequest("windowedRegularMinWidth must be a finite number >= 0")
        }
        self.profiles = []
        self.ruleSets = []
        self.windowedRegularMinWidth = windowedRegularMinWidth
        for profile in profiles { try add(profile) }
        for ruleSet in ruleSets { try add(ruleSet) }
    }

    /// A catalog from the JSON of `Config/devices.json` and/or `Config/rulesets.json`
    /// (nil: none of that kind). Throws `bad_request` naming what is wrong.
    public init(devicesJSON: Data?, ruleSetsJSON: Data?) throws(CoreError) {
        let devices = try devicesJSON.map { data throws(CoreError) in
            try decodeJSON(DeviceFile.self, from: data, what: "device profiles")
        }
        let ruleSets = try ruleSetsJSON.map { data throws(CoreError) in
            try decodeJSON(RuleSetFile.self, from: data, what: "rule sets")
        }
        try self.init(
            profiles: devices?.profiles ?? [], ruleSets: ruleSets?.ruleSets ?? [],
            windowedRegularMinWidth: devices?.windowedRegularMinWidth ?? 640)
    }

    /// This catalog plus user-defined rule sets (the daemon's config file). A name already
    /// used by a profile or a rule set is refused.
    public func adding(ruleSets extra: [RuleSet]) throws(CoreError) -> DeviceCatalog {
        var catalog = self
        for ruleSet in extra { try catalog.add(ruleSet) }
        return catalog
    }

    /// This catalog plus the rule sets of a JSON document shaped like `Config/rulesets.json`.
    public func adding(ruleSetsJSON: Data) throws(CoreError) -> DeviceCatalog {
        try adding(ruleSets: decodeJSON(RuleSetFile.self, from: ruleSetsJSON, what: "rule sets").ruleSets)
    }

    private mutating func add(_ profile: DeviceProfile) throws(CoreError) {
        try checkNew(profile.id)
        guard profile.screen.isValidWindowSize else {
            throw .badRequest("profile '\(profile.id)': invalid screen size")
        }
        if let width = profile.windowedRegularMinWidth, !(width.isFinite && width >= 0) {
            throw .badRequest("profile '\(profile.id)': invalid windowedRegularMinWidth")
        }
        for preset in profile.presets where !preset.size.isValidWindowSize || preset.name.isEmpty {
            throw .badRequest("profile '\(profile.id)': invalid preset '\(preset.name)'")
        }
        profileIndex[profile.id] = profiles.count
        profiles.append(profile)
    }

    private mutating func add(_ ruleSet: RuleSet) throws(CoreError) {
        try ruleSet.validate()
        try checkNew(ruleSet.name)
        ruleSetIndex[ruleSet.name] = ruleSets.count
        ruleSets.append(ruleSet)
    }

    private func checkNew(_ name: String) throws(CoreError) {
        guard !name.isEmpty else { throw .badRequest("a device profile or rule set needs a name") }
        guard !contains(device: name) else { throw .badRequest("device '\(name)' is defined twice") }
    }

    /// The profile with this id, if any.
    public func profile(_ id: String) -> DeviceProfile? { profileIndex[id].map { profiles[$0] } }

    /// The rule set with this name, if any.
    public func ruleSet(_ name: String) -> RuleSet? { ruleSetIndex[name].map { ruleSets[$0] } }

    /// True if `device` names a profile or a rule set.
    public func contains(device: String) -> Bool { profileIndex[device] != nil || ruleSetIndex[device] != nil }

    /// All profile ids and rule-set names.
    public var deviceNames: [String] { profiles.map(\.id) + ruleSets.map(\.name) }

    /// Size used by `scene.create` without `size`: the full screen in landscape; nil for
    /// rule sets (a size is then required).
    public func defaultSize(device: String) -> Size? {
        profile(device)?.screen(in: .landscape)
    }

    /// Size classes for a window of `size` on `device`. `previous` feeds rule-set hysteresis.
    /// Throws `bad_request` for an invalid size, `unknown_device` for an unknown name.
    public func traits(device: String, size: Size, previous: Traits?) throws(CoreError) -> Traits {
        guard size.isValidWindowSize else {
            throw .badRequest(
                "invalid size \(size): width and height must be > 0 and <= \(formatPoints(Size.maximumSide))")
        }
        // Read in place (every resize comes here): `profile(_:)` returns a copy, a retain and
        // release of each of the profile's strings and arrays.
        if let decided = decidedProfileTraits(device: device, size: size) { return decided.traits }
        if let index = ruleSetIndex[device] { return ruleSets[index].traits(for: size, previous: previous) }
        throw CoreError(.unknownDevice, "unknown device '\(device)'")
    }

    /// The classes of a profile's window of `size` (valid), the rule that gave them and the
    /// windowed-regular width it compared with; nil when `device` is not a profile.
    func decidedProfileTraits(
        device: String, size: Size
    ) -> (traits: Traits, rule: DeviceTraitRule, windowedRegularMinWidth: Double)? {
        guard let index = profileIndex[device] else { return nil }
        let minWidth = profiles[index].windowedRegularMinWidth ?? windowedRegularMinWidth
        let decided = profiles[index].decidedTraits(for: size, windowedRegularMinWidth: minWidth)
        return (decided.traits, decided.rule, minWidth)
    }

    /// The multitasking presets of a device profile, both orientations (empty for rule sets).
    public func presets(device: String) -> [NamedSize] { profile(device)?.presets ?? [] }

    /// The sizes of a snapshot preset for a scene of `device` currently at `current`; nil if
    /// unknown. Presets:
    /// - `appSwitcher` (SEMANTICS 8, seed 003): for an iPad, the other orientation's full
    ///   screen, then the multitasking sizes of SEMANTICS 2 (`2/3`, `1/2`, `1/3` and
    ///   `slideOver`) of both orientations, then `current`; for a phone, the other orientation's full
    ///   screen then `current`; for `mac` and rule sets (nothing rotates), `current` turned by
    ///   90 degrees then `current`. "Other" is relative to the device orientation, which is the
    ///   orientation of the preset `current` matches (a 678x1024 half split is on a landscape
    ///   iPad), else the window's. Duplicates are dropped, first occurrence kept.
    /// - `ORIENTATION/NAME` (`portrait/1/3`, `landscape/full`) or `NAME` (in the device
    ///   orientation): one preset of the profile.
    public func presetSizes(_ preset: String, device: String, current: Size) -> [Size]? {
        presetSizes(preset, device: device, current: current, interfaceOrientation: nil)
    }

    /// `presetSizes` for a scene whose interface orientation is known (SEMANTICS 1,
    /// revision 2): the app switcher's "other orientation" is the other interface
    /// orientation (nil: inferred from `current` as above). A preset named without an
    /// orientation keeps the rule above, which splitctl applies to the same name.
    public func presetSizes(
        _ preset: String, device: String, current: Size, interfaceOrientation: Orientation?
    ) -> [Size]? {
        let profile = profile(device)
        guard profile != nil || ruleSet(device) != nil else { return nil }
        if preset == "appSwitcher" {
            return deduplicated(appSwitcherSizes(profile: profile, current: current, held: interfaceOrientation))
        }
        guard let profile else { return nil }
        let (orientation, name) = splitPresetName(preset, default: deviceOrientation(profile, current: current))
        return profile.presets.first { $0.orientation == orientation && $0.name == name }.map { [$0.size] }
    }

    private func appSwitcherSizes(profile: DeviceProfile?, current: Size, held: Orientation?) -> [Size] {
        guard let profile, profile.idiom != .mac else {
            return [Size(width: current.height, height: current.width), current]
        }
        let other: Orientation =
            (held ?? deviceOrientation(profile, current: current)) == .landscape ? .portrait : .landscape
        let splits =
            profile.idiom == .pad
            ? profile.presets.filter { $0.name != "full" }.map(\.size) : []
        return [profile.screen(in: other)] + splits + [current]
    }

    /// The orientation the device is held in while showing a window of `current`.
    private func deviceOrientation(_ profile: DeviceProfile, current: Size) -> Orientation {
        .held(
            showing: current, landscapeScreen: profile.screen(in: .landscape),
            matchingPreset: profile.presets.first { $0.size == current }?.orientation)
    }

    private func splitPresetName(_ preset: String, default orientation: Orientation) -> (Orientation, String) {
        guard let slash = preset.firstIndex(of: "/"),
            let named = Orientation(rawValue: String(preset[..<slash]))
        else { return (orientation, preset) }
        return (named, String(preset[preset.index(after: slash)...]))
    }

    private func deduplicated(_ sizes: [Size]) -> [Size] {
        var seen: Set<Size> = []
        return sizes.filter { seen.insert($0).inserted }
    }
}

/// Decodes catalog JSON, turning decoding failures into `bad_request`.
func decodeJSON<T: Decodable>(_ type: T.Type, from data: Data, what: String) throws(CoreError) -> T {
    do {
        return try JSONDecoder().decode(type, from: data)
    } catch let error as CoreError {
        throw error
    } catch {
        throw .badRequest("invalid \(what): \(describe(error))")
    }
}

/// A short description of a decoding error: the path and the reason.
func describe(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return "\(error)" }
    let (path, reason): ([any CodingKey], String) =
        switch error {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c):
            (c.codingPath, c.debugDescription)
        case .keyNotFound(let key, let c): (c.codingPath + [key], "missing")
        @unknown default: ([], "\(error)")
        }
    let field = path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    return field.isEmpty ? reason : "\(field.dropFirst(field.hasPrefix(".") ? 1 : 0)): \(reason)"
}
