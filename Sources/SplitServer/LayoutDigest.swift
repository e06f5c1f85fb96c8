import SplitCore

/// FNV-1a (64 bits) over a layout's fields, as 16 hex digits: stored with each journal entry
/// so a restart can tell whether replaying the entry gives back the layout acknowledged then.
/// Fed field by field (numbers as bit patterns, strings with their length) instead of over
/// the encoded JSON, which would cost several times the ~0.2 µs this does; unlike `Hasher`,
/// it is the same in every process.
enum LayoutDigest {
    static func hex(_ layout: Layout) -> String {
        hex(hash(layout))
    }

    /// 16 lowercase hex digits, written in place: `String(_:radix:)` and padding built three
    /// strings per change.
    static func hex(_ value: UInt64) -> String {
        String(unsafeUninitializedCapacity: 16) { digits in
            for index in 0..<16 {
                let nibble = UInt8(truncatingIfNeeded: value >> UInt64(60 - 4 * index)) & 0xF
                digits[index] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
            }
            return 16
        }
    }

    static func hash(_ layout: Layout) -> UInt64 {
        var fnv = FNV1a()
        fnv.add(layout.size.width)
        fnv.add(layout.size.height)
        fnv.add(layout.orientation.rawValue)
        fnv.add(layout.traits.horizontalSizeClass.rawValue)
        fnv.add(layout.traits.verticalSizeClass.rawValue)
        fnv.add(layout.collapsed)
        fnv.add(layout.displayMode?.rawValue)
        fnv.add(layout.splitBehavior?.rawValue)
        fnv.add(layout.columns.count)
        for column in layout.columns {
            fnv.add(column.column.rawValue)
            fnv.add(column.visible)
            fnv.add(column.x)
            fnv.add(column.width)
            fnv.add(column.overlay)
            fnv.add(column.dimmed)
            fnv.add(column.stack.count)
            for vc in column.stack { fnv.add(vc) }
        }
        fnv.add(layout.presentations.count)
        for presentation in layout.presentations {
            fnv.add(presentation.vc)
            fnv.add(presentation.style.rawValue)
            fnv.add(presentation.effectiveStyle.rawValue)
        }
        fnv.add(layout.selectedTab.map { $0 + 1 } ?? 0)
        return fnv.value
    }
}

/// The FNV-1a state (offset basis 0xcbf29ce484222325, prime 0x100000001b3, as `SessionHash`).
/// Inlined: called once per byte, a call each would cost more than the hash itself.
struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    @inline(__always)
    mutating func add(byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }

    /// Little-endian, so the digest does not depend on the machine.
    @inline(__always)
    mutating func add(_ word: UInt64) {
        var rest = word
        for _ in 0..<8 {
            add(byte: UInt8(truncatingIfNeeded: rest))
            rest >>= 8
        }
    }

    @inline(__always)
    mutating func add(_ number: Int) { add(UInt64(bitPattern: Int64(number))) }
    @inline(__always)
    mutating func add(_ number: Double) { add(number.bitPattern) }
    @inline(__always)
    mutating func add(_ flag: Bool) { add(byte: flag ? 1 : 0) }

    /// With its length first, so adjacent strings cannot run into each other.
    mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            add(bytes.count)
            for byte in bytes { add(byte: byte) }
        }
    }

    /// nil differs from every string (a length of -1).
    mutating func add(_ text: String?) {
        if let text { add(text) } else { add(-1) }
    }
}
