/// FNV-1a, 64 bits (offset basis 0xcbf29ce484222325, prime 0x100000001b3), as 16 lowercase
/// hex digits: the content hash of a recorded snapshot session. Not cryptographic: it tells
/// equal results from different ones, which is what golden comparisons need.
enum SessionHash {
    static func fnv1a64(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let text = String(fnv1a64(bytes), radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }
}
