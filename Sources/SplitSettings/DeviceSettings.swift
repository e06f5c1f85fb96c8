import Foundation
import SplitCore

/// What `devices.*` make of the built-in device catalog.
extension ServerSettings {
    /// The built-in profiles and rule sets, windowed iPads regular from
    /// `windowedRegularMinWidth`, plus the rule sets of `ruleSetsFile`. Throws a
    /// `ConfigError` naming the file and what is wrong with it.
    public func deviceCatalog() throws(ConfigError) -> DeviceCatalog {
        var catalog = DeviceCatalog.builtIn
        catalog.windowedRegularMinWidth = Double(windowedRegularMinWidth)
        guard let file = ruleSetsFile else { return catalog }
        // Only the bytes the configuration read: a second read could see another file.
        guard let bytes = ruleSetsJSON else {
            throw ConfigError(problems: ["devices.ruleSetsFile: cannot read \(file)"])
        }
        do {
            return try catalog.adding(ruleSetsJSON: Data(bytes))
        } catch {
            throw ConfigError(problems: ["devices.ruleSetsFile \(file): \(error.message)"])
        }
    }

    /// The bytes of a rule-sets file, nil if it cannot be read.
    static func readRuleSets(_ file: String) -> [UInt8]? {
        FileManager.default.contents(atPath: file).map { [UInt8]($0) }
    }
}
