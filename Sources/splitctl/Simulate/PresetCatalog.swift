import SplitCore
import SplitWire

/// The daemon's device list (the `devices` op), used to expand `matrix` device lists and to
/// resolve preset names: the daemon, not this client, decides which devices exist.
struct PresetCatalog {
    struct Preset: Equatable {
        var orientation: Orientation
        var name: String
        var size: Size

        /// `landscape/1/3`.
        var qualifiedName: String { "\(orientation.rawValue)/\(name)" }
    }

    /// Profile ids in the daemon's order (rule sets excluded).
    private(set) var profiles: [String] = []
    private var presetsByDevice: [String: [Preset]] = [:]
    /// Each profile's full screen in landscape (`defaultSize`); rule sets have none.
    private var landscapeScreens: [String: Size] = [:]

    /// Reads the `devices` result: `{"devices": [{"device", "kind", "presets": [{name, orientation, size}]}]}`.
    init(devicesResult: JSONValue) {
        for device in devicesResult["devices"]?.array ?? [] {
            guard let id = device["device"]?.string else { continue }
            if device["kind"]?.string == "profile" { profiles.append(id) }
            if let width = device["defaultSize"]?["width"]?.double,
                let height = device["defaultSize"]?["height"]?.double
            {
                landscapeScreens[id] = Size(width: max(width, height), height: min(width, height))
            }
            presetsByDevice[id] = (device["presets"]?.array ?? []).compactMap { preset in
                guard let name = preset["name"]?.string,
                    let orientation = preset["orientation"]?.string.flatMap(Orientation.init(rawValue:)),
                    let width = preset["size"]?["width"]?.double, let height = preset["size"]?["height"]?.double
                else { return nil }
                return Preset(orientation: orientation, name: name, size: Size(width: width, height: height))
            }
        }
    }

    func presets(of device: String) -> [Preset] { presetsByDevice[device] ?? [] }

    /// `ORIENTATION/NAME`, or `NAME` in the orientation the device is held in while showing
    /// `current` (`heldOrientation`).
    func resolve(_ name: String, device: String, current: Size?) -> Preset? {
        let presets = presets(of: device)
        if let slash = name.firstIndex(of: "/"), let orientation = Orientation(rawValue: String(name[..<slash])) {
            let bare = String(name[name.index(after: slash)...])
            return presets.first { $0.orientation == orientation && $0.name == bare }
        }
        let held = current.map { heldOrientation(of: device, showing: $0) } ?? .landscape
        return presets.first { $0.orientation == held && $0.name == name }
    }

    /// How `device` is held while a window shows `size`: SplitCore's rule (`Orientation.held`),
    /// which the daemon's snapshot presets follow too.
    func heldOrientation(of device: String, showing size: Size) -> Orientation {
        .held(
            showing: size, landscapeScreen: landscapeScreens[device],
            matchingPreset: presets(of: device).first { $0.size == size }?.orientation)
    }
}
