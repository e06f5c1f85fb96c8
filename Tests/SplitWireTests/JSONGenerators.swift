import PropertyBased
import SplitWire

/// Random JSON values for round-trip properties: every kind, nested, with awkward strings
/// (escapes, control characters, non-ASCII, astral scalars) and awkward numbers.
enum JSONGenerators {
    static let value = Generator<JSONValue, Shrink.None<JSONValue>>(run: { rng in
        makeValue(depth: 0, using: &rng)
    })

    static func makeValue(depth: Int, using rng: inout any SeededRandomNumberGenerator) -> JSONValue {
        let kinds = depth >= 4 ? 5 : 7
        switch Int.random(in: 0..<kinds, using: &rng) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2: return .int(makeInt(using: &rng))
        case 3: return .double(makeDouble(using: &rng))
        case 4: return .string(makeString(using: &rng))
        case 5:
            let count = Int.random(in: 0...4, using: &rng)
            return .array((0..<count).map { _ in makeValue(depth: depth + 1, using: &rng) })
        default:
            var object = JSONObject()
            for _ in 0..<Int.random(in: 0...5, using: &rng) {
                object[makeString(using: &rng)] = makeValue(depth: depth + 1, using: &rng)
            }
            return .object(object)
        }
    }

    static func makeInt(using rng: inout any SeededRandomNumberGenerator) -> Int64 {
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: return Int64.random(in: -1000...1000, using: &rng)
        case 1: return [Int64.min, Int64.max, 0, -1, 1 << 53, (1 << 53) + 1].randomElement(using: &rng)!
        default: return Int64.random(in: .min ... .max, using: &rng)
        }
    }

    static func makeDouble(using rng: inout any SeededRandomNumberGenerator) -> Double {
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: return Double.random(in: -2000...2000, using: &rng)
        case 1: return Double(Int.random(in: -100_000...100_000, using: &rng)) / 4
        case 2:
            // Any finite bit pattern: subnormals, huge exponents, negative zero.
            var bits = UInt64.random(in: .min ... .max, using: &rng)
            while !Double(bitPattern: bits).isFinite { bits = UInt64.random(in: .min ... .max, using: &rng) }
            return Double(bitPattern: bits)
        default:
            let awkward = [0.1, 1e-7, 1e21, Double.leastNonzeroMagnitude, .greatestFiniteMagnitude, -0.0, 1366.0]
            return awkward.randomElement(using: &rng)!
        }
    }

    static let awkwardScalars: [Unicode.Scalar] = [
        "a", "Z", "0", " ", "\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{1}", "\u{1F}", "\u{7F}",
        "é", "微", "\u{2028}", "\u{FEFF}", "😀", "\u{10FFFF}",
    ]

    static func makeString(using rng: inout any SeededRandomNumberGenerator) -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...8, using: &rng) {
            scalars.append(awkwardScalars.randomElement(using: &rng)!)
        }
        return String(scalars)
    }
}
