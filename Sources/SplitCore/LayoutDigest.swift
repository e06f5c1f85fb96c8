/// A digest of a layout's fields, stored with each journal entry so a restart can tell
/// whether replaying the entry gives back the layout acknowledged then. Fed field by field
/// (numbers as bit patterns, strings with their length) instead of over the encoded JSON,
/// which would cost several times as much; unlike `Hasher`, it is the same in every process.
///
/// Three formats, told apart by length and first character:
/// - format 3 (written now): "3" and 14 hex digits, format 2's hash over protocol 1's fields
///   and then revision 2's (`Layout.revision2`: interface orientation, activation, the
///   display-mode button, each presentation's requested style, anchor and edge preference,
///   the inspector). A replay that gets any of them wrong fails the check;
/// - format 2 (entries of earlier daemons): "2" and 14 hex digits, 56 bits of a hash that
///   takes protocol 1's fields 8 bytes at a time (`WordHash`). 15 bytes fit a String inline
///   (no allocation) and the hash costs a fifth of format 1's multiply per byte (format 1
///   was ~2 % of the daemon's CPU);
/// - format 1 (entries of earlier daemons): 16 hex digits of FNV-1a 64 over protocol 1's
///   fields, one byte at a time.
/// Formats 1 and 2 are computed exactly as the daemons that wrote them did, over the fields
/// they covered, so every digest stored before format 3 still verifies.
public enum LayoutDigest {
    /// What a replay found when it compared a layout with a stored digest.
    public enum Verdict: Equatable, Sendable {
        case matches
        /// The layout's digest in the stored one's format.
        case differs(computed: String)
        case unknownFormat
    }

    /// The digest a new journal entry stores (format 3).
    public static func text(_ layout: Layout) -> String {
        var hash = WordHash()
        feed(layout, into: &hash)
        feedRevision2(layout.revision2, into: &hash)
        return wordDigest(hash, format: "3")
    }

    /// Format 2: protocol 1's fields only, as daemons before format 3 wrote it.
    public static func formatTwo(_ layout: Layout) -> String {
        var hash = WordHash()
        feed(layout, into: &hash)
        return wordDigest(hash, format: "2")
    }

    /// `format` and the top 56 bits of `hash` as 14 hex digits.
    private static func wordDigest(_ hash: WordHash, format: Unicode.Scalar) -> String {
        let value = hash.finish() >> 8
        return String(unsafeUninitializedCapacity: 15) { digits in
            digits[0] = UInt8(ascii: format)
            for index in 0..<14 {
                digits[1 + index] = hexDigit(value >> UInt64(52 - 4 * index))
            }
            return 15
        }
    }

    /// Compares `layout` with a stored digest of any format, in that format.
    public static func verify(_ layout: Layout, against stored: String) -> Verdict {
        let computed: String
        switch (stored.utf8.count, stored.utf8.first) {
        case (16, _): computed = hex(layout)
        case (15, UInt8(ascii: "2")): computed = formatTwo(layout)
        case (15, UInt8(ascii: "3")): computed = text(layout)
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

    /// Revision 2's fields, after `feed`'s (format 3). Absent (a layout not resolved by the
    /// engine) differs from every present value; so does an absent inspector or anchor.
    private static func feedRevision2(_ additions: Revision2Layout?, into hash: inout WordHash) {
        guard let additions else { return hash.add(0 as UInt64) }
        hash.add(additions.interfaceOrientation.rawValue)
        hash.add(additions.activation.rawValue)
        hash.add(additions.displayModeButton.visible)
        hash.add(additions.displayModeButton.target?.rawValue)
        hash.add(additions.presentations.count)
        for presentation in additions.presentations {
            hash.add(presentation.requestedStyle)
            hash.add(presentation.anchor)
            hash.add(presentation.prefersEdgeAttachedInCompactHeight)
        }
        guard let inspector = additions.inspector else { return hash.add(-1) }
        hash.add(inspector.shown)
        hash.add(inspector.visible)
        hash.add(inspector.presentedAsSheet)
        hash.add(inspector.x)
        hash.add(inspector.width)
        hash.add(inspector.overlay)
        hash.add(inspector.stack.count)
        for vc in inspector.stack { hash.add(vc) }
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
