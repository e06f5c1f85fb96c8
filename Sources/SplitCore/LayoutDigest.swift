/// A digest of a layout's fields, stored with each journal entry so a restart can tell
/// whether replaying the entry gives back the layout acknowledged then. Fed field by field
/// (numbers as bit patterns, strings with their length) instead of over the encoded JSON,
/// which would cost several times as much; unlike `Hasher`, it is the same in every process.
///
/// Two formats, told apart by length:
/// - format 2 (written now): "2" and 14 hex digits, 56 bits of a hash that takes the fields
///   8 bytes at a time (`WordHash`). 15 bytes fit a String inline (no allocation) and the hash
///   costs a fifth of format 1's multiply per byte (format 1 was ~2 % of the daemon's CPU);
/// - format 1 (entries of earlier daemons): 16 hex digits of FNV-1a 64, one byte at a time.
public enum LayoutDigest {
    /// What a replay found when it compared a layout with a stored digest.
    public enum Verdict: Equatable, Sendable {
        case matches
        /// The layout's digest in the stored one's format.
        case differs(computed: String)
        case unknownFormat
    }

    /// The digest a new journal entry stores (format 2).
    public static func text(_ layout: Layout) -> String {
        var hash = WordHash()
        feed(layout, into: &hash)
        let value = hash.finish() >> 8
        return String(unsafeUninitializedCapacity: 15) { digits in
            digits[0] = UInt8(ascii: "2")
            for index in 0..<14 {
                digits[1 + index] = hexDigit(value >> UInt64(52 - 4 * index))
            }
            return 15
        }
    }

    /// Compares `layout` with a stored digest of either format.
    public static func verify(_ layout: Layout, against stored: String) -> Verdict {
        let computed: String
        switch stored.utf8.count {
        case 16: computed = hex(layout)
        case 15 where stored.utf8.first == UInt8(ascii: "2"): computed = text(layout)
        default: return .unknownFormat
        }
        return computed == stored ? .matches : .differs(computed: computed)
    }

    /// Format 1: FNV-1a 64 as 16 hex digits.
    public static func hex(_ layout: Layout) -> String {
        hex(hash(layout))
    }

    /// 16 lowercase hex digits, written in place: `String(_:radix:)` and padding built three
    /// strings per change.
    public static func hex(_ value: UInt64) -> String {
        String(unsafeUninitializedCapacity: 16) { digits in
            for index in 0..<16 {
                digits[index] = hexDigit(value >> UInt64(60 - 4 * index))
            }
            return 16
        }
    }

    @inline(__always)
    private static func hexDigit(_ value: UInt64) -> UInt8 {
        let nibble = UInt8(truncatingIfNeeded: value) & 0xF
        return nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    /// Format 1's hash.
    public static func hash(_ layout: Layout) -> UInt64 {
        var fnv = FNV1a()
        feed(layout, into: &fnv)
        return fnv.value
    }

    /// The fields both formats cover, in one order. Generic, specialized for each hash.
    @inline(__always)
    private static func feed<Hash: LayoutFieldHash>(_ layout: Layout, into fnv: inout Hash) {
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
    }
}

/// What `LayoutDigest.feed` needs of a hash.
protocol LayoutFieldHash {
    mutating func add(_ word: UInt64)
    mutating func add(_ number: Int)
    mutating func add(_ number: Double)
    mutating func add(_ flag: Bool)
    mutating func add(_ text: String)
    mutating func add(_ text: String?)
}

/// Format 2's hash: each field as 8-byte words (a string as its length, then its UTF-8 bytes
/// 8 at a time, the last word zero-padded), each word xored in and mixed by one multiply and
/// shift; finished with MurmurHash3's 64-bit finalizer so every output bit depends on every
/// input bit.
struct WordHash: LayoutFieldHash {
    private var value: UInt64 = 0x243f_6a88_85a3_08d3

    @inline(__always)
    mutating func add(_ word: UInt64) {
        value = (value ^ word) &* 0x9e37_79b9_7f4a_7c15
        value ^= value >> 32
    }

    @inline(__always)
    mutating func add(_ number: Int) { add(UInt64(bitPattern: Int64(number))) }
    @inline(__always)
    mutating func add(_ number: Double) { add(number.bitPattern) }
    @inline(__always)
    mutating func add(_ flag: Bool) { add(flag ? 1 as UInt64 : 2) }

    mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            add(bytes.count)
            let raw = UnsafeRawBufferPointer(bytes)
            var offset = 0
            while offset + 8 <= raw.count {
                add(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
                offset += 8
            }
            guard offset < raw.count else { return }
            var last: UInt64 = 0
            for index in offset..<raw.count {
                last |= UInt64(raw[index]) << UInt64(8 * (index - offset))
            }
            add(last)
        }
    }

    mutating func add(_ text: String?) {
        if let text { add(text) } else { add(-1) }
    }

    func finish() -> UInt64 {
        var mixed = value
        mixed ^= mixed >> 33
        mixed &*= 0xff51_afd7_ed55_8ccd
        mixed ^= mixed >> 33
        mixed &*= 0xc4ce_b9fe_1a85_ec53
        mixed ^= mixed >> 33
        return mixed
    }
}

/// The FNV-1a state (offset basis 0xcbf29ce484222325, prime 0x100000001b3, as `SessionHash`).
/// Inlined: called once per byte, a call each would cost more than the hash itself.
struct FNV1a: LayoutFieldHash {
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
