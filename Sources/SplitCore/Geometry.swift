/// A window size in points. Orientation is derived from it, never stored.
public struct Size: Codable, Hashable, Sendable, CustomStringConvertible {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// `landscape` iff width > height (a 678x1024 half split on a landscape iPad acts like portrait).
    public var orientation: Orientation { width > height ? .landscape : .portrait }

    /// Largest accepted side, in points (WIRE.md: `> 0, <= 100000`).
    public static let maximumSide: Double = 100_000

    /// True when both sides are finite, > 0 and <= `maximumSide`.
    public var isValidWindowSize: Bool {
        width.isFinite && height.isFinite && width > 0 && height > 0
            && width <= Size.maximumSide && height <= Size.maximumSide
    }

    public var description: String { "\(formatPoints(width))x\(formatPoints(height))" }
}

/// Prints 1366.0 as "1366" and 1.5 as "1.5".
func formatPoints(_ value: Double) -> String {
    if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
    return String(value)
}

public enum Orientation: String, Codable, Hashable, Sendable, CaseIterable {
    case portrait, landscape
}

public enum SizeClass: String, Codable, Hashable, Sendable, CaseIterable {
    case compact, regular
}

/// The resolved trait pair of a scene (UIKit's horizontal and vertical size classes).
public struct Traits: Codable, Hashable, Sendable {
    public var horizontalSizeClass: SizeClass
    public var verticalSizeClass: SizeClass

    public init(horizontalSizeClass: SizeClass, verticalSizeClass: SizeClass) {
        self.horizontalSizeClass = horizontalSizeClass
        self.verticalSizeClass = verticalSizeClass
    }

    public static let regularRegular = Traits(horizontalSizeClass: .regular, verticalSizeClass: .regular)
    public static let compactRegular = Traits(horizontalSizeClass: .compact, verticalSizeClass: .regular)
    public static let compactCompact = Traits(horizontalSizeClass: .compact, verticalSizeClass: .compact)
    public static let regularCompact = Traits(horizontalSizeClass: .regular, verticalSizeClass: .compact)
}
