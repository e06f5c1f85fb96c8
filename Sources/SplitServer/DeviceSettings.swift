import Foundation
import SplitCore

/// What `devices.*` make of the built-in device catalog.
extension ServerSettings {
    /// The built-in profiles and rule sets, windowed iPads regular from
    /// `windowedRegularMinWidth`, plus the rule sets of `ruleSetsFile`. Throws a
    /// `ConfigError` naming the file and what is wrong with it.
    func deviceCatalog() throws(ConfigError) -> DeviceCatalog {
        var catalog = DeviceCatalog.builtIn
        catalog.windowedRegularMinWidth = Double(windowedRegularMinWidth)
        guard let file = ruleSetsFile else { return catalog }
        guard let data = FileManager.default.contents(atPath: file) else {
            throw ConfigError(problems: ["devices.ruleSetsFile: cannot read \(file)"])
        }
        do {
            return try catalog.adding(ruleSetsJSON: data)
        } catch {
            throw ConfigError(problems: ["devices.ruleSetsFile \(file): \(error.message)"])
        }
    }
}
