// A minimal, deterministic SVG writer: attribute order is the order given, numbers are
// printed by `svgNumber`, text is escaped. Two equal inputs give byte-equal output, which
// is what lets pictures be golden-tested.

/// One SVG/XML element under construction.
struct SVGElement {
    var name: String
    var attributes: [(String, String)] = []
    var children: [SVGElement] = []
    /// Escaped on output; an element has either text or children.
    var text: String?

    init(_ name: String, _ attributes: [(String, String)] = [], text: String? = nil, children: [SVGElement] = []) {
        self.name = name
        self.attributes = attributes
        self.text = text
        self.children = children
    }

    mutating func append(_ child: SVGElement) { children.append(child) }

    func write(into out: inout String, indent: Int) {
        let pad = String(repeating: "  ", count: indent)
        out += pad + "<" + name
        for (key, value) in attributes { out += " \(key)=\"\(xmlEscaped(value))\"" }
        if let text {
            out += ">" + xmlEscaped(text) + "</\(name)>\n"
        } else if children.isEmpty {
            out += "/>\n"
        } else {
            out += ">\n"
            for child in children { child.write(into: &out, indent: indent + 1) }
            out += pad + "</\(name)>\n"
        }
    }

    /// The document: one `svg` root, no XML declaration (HTML pages embed it inline).
    var document: String {
        var out = ""
        write(into: &out, indent: 0)
        return out
    }
}

/// `value` with the five XML specials escaped, and control characters other than tab and
/// newline dropped (XML 1.0 cannot carry them, and ids come from clients).
func xmlEscaped(_ value: String) -> String {
    var out = ""
    out.reserveCapacity(value.utf8.count)
    for scalar in value.unicodeScalars {
        switch scalar {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "'": out += "&apos;"
        case "\t", "\n": out.unicodeScalars.append(scalar)
        default:
            if scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value) { continue }
            out.unicodeScalars.append(scalar)
        }
    }
    return out
}

/// A number as SVG reads it: integers without a fraction, others rounded to 2 decimals
/// (a layout's widths can be fractions of a point, e.g. 1366 x 0.38).
public func svgNumber(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    let hundredths = (value * 100).rounded()
    if hundredths == 0 { return "0" }
    let negative = hundredths < 0
    let magnitude = abs(hundredths)
    let whole = Int64(magnitude / 100)
    let fraction = Int64(magnitude) - whole * 100
    var text = negative ? "-" : ""
    text += String(whole)
    if fraction != 0 {
        let digits = fraction < 10 ? "0" + String(fraction) : String(fraction)
        text += "." + (digits.hasSuffix("0") ? String(digits.dropLast()) : digits)
    }
    return text
}

/// A compact JSON object of string and integer fields, in the order given: the intents a
/// picture's controls carry (`data-intent`), read by splitweb's page.
func jsonObject(_ fields: [(String, JSONField)]) -> String {
    "{" + fields.map { key, value in "\"\(key)\":\(value.json)" }.joined(separator: ",") + "}"
}

enum JSONField {
    case string(String)
    case int(Int)

    var json: String {
        switch self {
        case .int(let value): return String(value)
        case .string(let value):
            var out = "\""
            for scalar in value.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                default:
                    if scalar.value < 0x20 {
                        let hex = String(scalar.value, radix: 16)
                        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                    } else {
                        out.unicodeScalars.append(scalar)
                    }
                }
            }
            return out + "\""
        }
    }
}

/// `text` cut to at most `limit` characters, with an ellipsis when cut (SVG text does not
/// wrap or clip by itself; 7 pt per character at 13 pt is the budget used everywhere).
func truncated(_ text: String, toFit width: Double, characterWidth: Double = 7) -> String {
    let limit = max(Int(width / characterWidth), 1)
    guard text.count > limit else { return text }
    return limit <= 1 ? "…" : String(text.prefix(limit - 1)) + "…"
}
