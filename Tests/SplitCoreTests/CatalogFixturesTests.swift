// Shared fixtures of core-layout's suites: the SEMANTICS 2 tables, transcribed from the spec
// independently of Config/*.json so that the data is checked against the document.
@testable import SplitCore

enum Spec {
    struct Device {
        var id: String
        var portrait: Size
        var idiom: DeviceIdiom
        var landscapeHorizontal: SizeClass
    }

    /// SEMANTICS 2, the profile table (mac: any window).
    static let devices: [Device] = [
        Device(
            id: "ipad-pro-12.9", portrait: Size(width: 1024, height: 1366), idiom: .pad, landscapeHorizontal: .regular),
        Device(id: "ipad-pro-11", portrait: Size(width: 834, height: 1194), idiom: .pad, landscapeHorizontal: .regular),
        Device(
            id: "ipad-air-10.9", portrait: Size(width: 820, height: 1180), idiom: .pad, landscapeHorizontal: .regular),
        Device(id: "ipad-10.5", portrait: Size(width: 834, height: 1112), idiom: .pad, landscapeHorizontal: .regular),
        Device(id: "ipad-10.2", portrait: Size(width: 810, height: 1080), idiom: .pad, landscapeHorizontal: .regular),
        Device(id: "ipad-9.7", portrait: Size(width: 768, height: 1024), idiom: .pad, landscapeHorizontal: .regular),
        Device(
            id: "ipad-mini-8.3", portrait: Size(width: 744, height: 1133), idiom: .pad, landscapeHorizontal: .regular),
        Device(id: "iphone-se", portrait: Size(width: 320, height: 568), idiom: .phone, landscapeHorizontal: .compact),
        Device(id: "iphone-8", portrait: Size(width: 375, height: 667), idiom: .phone, landscapeHorizontal: .compact),
        Device(
            id: "iphone-8-plus", portrait: Size(width: 414, height: 736), idiom: .phone, landscapeHorizontal: .regular),
        Device(id: "iphone-x", portrait: Size(width: 375, height: 812), idiom: .phone, landscapeHorizontal: .compact),
        Device(id: "iphone-11", portrait: Size(width: 414, height: 896), idiom: .phone, landscapeHorizontal: .regular),
        Device(id: "iphone-14", portrait: Size(width: 390, height: 844), idiom: .phone, landscapeHorizontal: .compact),
        Device(
            id: "iphone-14-plus", portrait: Size(width: 428, height: 926), idiom: .phone, landscapeHorizontal: .regular),
        Device(
            id: "iphone-15-pro", portrait: Size(width: 393, height: 852), idiom: .phone, landscapeHorizontal: .compact),
        Device(
            id: "iphone-15-pro-max", portrait: Size(width: 430, height: 932), idiom: .phone,
            landscapeHorizontal: .regular),
        Device(
            id: "iphone-17-pro", portrait: Size(width: 402, height: 874), idiom: .phone, landscapeHorizontal: .compact),
        Device(
            id: "iphone-17-pro-max", portrait: Size(width: 440, height: 956), idiom: .phone,
            landscapeHorizontal: .regular),
    ]

    /// SEMANTICS 2 multitasking widths: landscape 2/3, 1/2, 1/3 | portrait 2/3, 1/3.
    /// (The "9.7"/mini 7.9"" row belongs to the 1024x768 screen, ipad-9.7.)
    static let multitasking: [String: (landscape: [String: Double], portrait: [String: Double])] = [
        "ipad-pro-12.9": (["2/3": 981, "1/2": 678, "1/3": 375], ["2/3": 639, "1/3": 375]),
        "ipad-pro-11": (["2/3": 809, "1/2": 592, "1/3": 375], ["2/3": 504, "1/3": 320]),
        "ipad-air-10.9": (["2/3": 795, "1/2": 585, "1/3": 375], ["2/3": 490, "1/3": 320]),
        "ipad-10.5": (["2/3": 782, "1/2": 551, "1/3": 320], ["2/3": 504, "1/3": 320]),
        "ipad-10.2": (["2/3": 750, "1/2": 535, "1/3": 320], ["2/3": 480, "1/3": 320]),
        "ipad-9.7": (["2/3": 694, "1/2": 507, "1/3": 320], ["2/3": 438, "1/3": 320]),
    ]

    static let ruleSets = ["material", "adwaita", "compact-below-1000", "regular-above-414"]

    static func landscape(_ portrait: Size) -> Size { Size(width: portrait.height, height: portrait.width) }
}

enum Fixture {
    static let catalog = DeviceCatalog.builtIn

    /// The error code thrown by `body`, nil if it did not throw.
    static func code(_ body: () throws -> Void) -> CoreError.Code? {
        do {
            try body()
            return nil
        } catch let error as CoreError {
            return error.code
        } catch {
            return nil
        }
    }

    /// The error thrown by `body`, nil if it did not throw a CoreError.
    static func error(_ body: () throws -> Void) -> CoreError? {
        do {
            try body()
            return nil
        } catch {
            return error as? CoreError
        }
    }

    /// A configuration built in place.
    static func config(_ build: (inout SplitConfig) -> Void = { _ in }) -> SplitConfig {
        var config = SplitConfig()
        build(&config)
        return config
    }

    static func resolve(_ config: SplitConfig, _ size: Size, user: DisplayMode? = nil) -> ExpandedResolution {
        DisplayResolver.resolve(config: config, size: size, memory: DisplayMemory(userDisplayMode: user))
    }

    static let landscape = Size(width: 1366, height: 1024)
    static let portrait = Size(width: 1024, height: 1366)
}

extension ExpandedResolution {
    func frame(_ column: Column) -> ColumnFrame? { frames.first { $0.column == column } }
}
