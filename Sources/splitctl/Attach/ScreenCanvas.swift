/// How a cell is drawn (SGR attributes; ANSI only).
struct CellStyle: Equatable {
    var bold = false
    var faint = false
    var reverse = false
    /// A 16-color foreground (30...37, 90...97); nil for the terminal's default.
    var color: Int?

    static let plain = CellStyle()

    /// The SGR sequence selecting exactly this style from any other.
    var sequence: String {
        var codes = ["0"]
        if bold { codes.append("1") }
        if faint { codes.append("2") }
        if reverse { codes.append("7") }
        if let color { codes.append(String(color)) }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }
}

/// A grid of styled characters, drawn into by the renderer and turned into one frame of
/// output. One character per cell: wide (CJK) characters are not measured, a documented
/// limitation of this ANSI-only client.
struct ScreenCanvas {
    let width: Int
    let height: Int
    private(set) var characters: [Character]
    private(set) var styles: [CellStyle]

    init(width: Int, height: Int) {
        self.width = max(width, 0)
        self.height = max(height, 0)
        characters = Array(repeating: " ", count: self.width * self.height)
        styles = Array(repeating: .plain, count: self.width * self.height)
    }

    /// Writes `text` from (x, y) to the right, clipped to the canvas and to `limit` columns.
    /// Control characters (in view-controller ids, messages) are drawn as `\xHH`: written raw
    /// they would reach the terminal as escape sequences.
    mutating func put(_ text: String, x: Int, y: Int, style: CellStyle = .plain, limit: Int? = nil) {
        guard y >= 0, y < height else { return }
        let end = min(width, limit.map { x + $0 } ?? width)
        var column = x
        for character in visible(text) {
            if column >= end { break }
            if column >= 0 { set(column, y, character, style) }
            column += 1
        }
    }

    mutating func fill(
        x: Int, y: Int, width w: Int, height h: Int, _ character: Character = " ", style: CellStyle = .plain
    ) {
        for row in span(y, h, height) {
            for column in span(x, w, width) { set(column, row, character, style) }
        }
    }

    /// Applies `change` to the style of every cell of the rectangle (dimming an area).
    mutating func restyle(x: Int, y: Int, width w: Int, height h: Int, _ change: (inout CellStyle) -> Void) {
        for row in span(y, h, height) {
            for column in span(x, w, width) { change(&styles[row * width + column]) }
        }
    }

    /// `start..<start+length` clipped to `0..<limit` (empty when they do not meet).
    private func span(_ start: Int, _ length: Int, _ limit: Int) -> Range<Int> {
        let lower = max(start, 0), upper = min(start + length, limit)
        return lower < upper ? lower..<upper : 0..<0
    }

    /// A box-drawing frame; `openLeft`/`openRight` leave that side undrawn (a column that
    /// continues past the window edge).
    mutating func box(
        x: Int, y: Int, width w: Int, height h: Int, style: CellStyle = .plain,
        openLeft: Bool = false, openRight: Bool = false
    ) {
        guard w >= 2, h >= 2 else { return }
        let right = x + w - 1, bottom = y + h - 1
        for column in x...right {
            set(column, y, "─", style)
            set(column, bottom, "─", style)
        }
        for row in y...bottom {
            if !openLeft { set(x, row, "│", style) }
            if !openRight { set(right, row, "│", style) }
        }
        if !openLeft {
            set(x, y, "┌", style)
            set(x, bottom, "└", style)
        }
        if !openRight {
            set(right, y, "┐", style)
            set(right, bottom, "┘", style)
        }
    }

    func character(x: Int, y: Int) -> Character { characters[y * width + x] }

    /// The whole canvas as output: each row positioned absolutely (no scrolling, no
    /// dependence on auto-wrap), styles switched only where they change. `ascii`: every
    /// character outside ASCII is drawn as one ASCII character (`asciiFallback`), for a
    /// terminal whose locale is not UTF-8, where a box-drawing character takes several cells.
    func frame(ascii: Bool = false) -> String {
        var output = ""
        for row in 0..<height {
            output += "\u{1B}[\(row + 1);1H"
            var current: CellStyle?
            for column in 0..<width {
                let style = styles[row * width + column]
                if style != current {
                    output += style.sequence
                    current = style
                }
                let character = characters[row * width + column]
                output.append(ascii ? Self.asciiFallback(character) : character)
            }
        }
        return output + CellStyle.plain.sequence
    }

    /// One ASCII character in place of `character`: the screen's own symbols as lookalikes,
    /// anything else outside ASCII (in ids) as `?`.
    static func asciiFallback(_ character: Character) -> Character {
        if character.isASCII { return character }
        switch character {
        case "─": return "-"
        case "│": return "|"
        case "┌", "┐", "└", "┘": return "+"
        case "▸", "›", "→": return ">"
        case "←", "⌫": return "<"
        case "↑": return "^"
        case "↓": return "v"
        case "⏎": return "#"
        case "·": return "-"
        case "…": return "~"
        default: return "?"
        }
    }

    /// The plain text of a row (tests and debugging).
    func text(row: Int) -> String { String(characters[(row * width)..<((row + 1) * width)]) }

    private mutating func set(_ x: Int, _ y: Int, _ character: Character, _ style: CellStyle) {
        guard x >= 0, x < width, y >= 0, y < height else { return }
        characters[y * width + x] = character
        styles[y * width + x] = style
    }
}
