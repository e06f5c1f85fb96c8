/// Text from splitd (view-controller ids, messages) made safe for a terminal: every C0
/// control character, DEL and every C1 control character (U+0000-U+001F, U+007F-U+009F)
/// becomes `\xHH`, its code point in two lowercase hex digits (`\x1b` for ESC, `\x0a` for a
/// newline). Any client may push any string as a view-controller id, so written raw it
/// could retitle, clear or recolour the terminal of everyone watching the scene, or break
/// the line layout. `--json` output is JSON and keeps the exact ids (escaped as JSON).
func visible(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    var result = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
        guard isControl(scalar) else {
            result.append(scalar)
            continue
        }
        let hex = String(scalar.value, radix: 16)
        result.append(contentsOf: ("\\x" + (hex.count < 2 ? "0" + hex : hex)).unicodeScalars)
    }
    return String(result)
}

private func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
}
