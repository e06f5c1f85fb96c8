/// A plain-text table: the first column left-aligned, the others right-aligned.
struct Table {
    let header: [String]
    private(set) var rows: [[String]] = []

    init(_ header: [String]) {
        self.header = header
    }

    mutating func add(_ row: [String]) {
        rows.append(row)
    }

    func render() -> String {
        let all = [header] + rows
        var widths = Array(repeating: 0, count: header.count)
        for row in all {
            for (column, cell) in row.enumerated() where column < widths.count {
                widths[column] = max(widths[column], cell.count)
            }
        }
        func line(_ row: [String]) -> String {
            row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: max(0, widths[min(column, widths.count - 1)] - cell.count))
                return column == 0 ? cell + padding : padding + cell
            }.joined(separator: "  ")
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
    }
}

/// `value` with `digits` decimals.
func fixed(_ value: Double, _ digits: Int = 1) -> String {
    guard value.isFinite else { return "-" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (abs(value) * scale).rounded() / scale
    let whole = Int(rounded)
    var text = String(whole)
    if digits > 0 {
        var fraction = String(Int(((rounded - Double(whole)) * scale).rounded()))
        while fraction.count < digits { fraction = "0" + fraction }
        text += "." + fraction
    }
    return value < 0 && rounded != 0 ? "-" + text : text
}

/// A count with thousands separators (`287 000` style is ambiguous; use `287k`).
func rate(_ value: Double) -> String {
    value >= 100_000 ? fixed(value / 1000, 0) + "k" : value >= 10_000 ? fixed(value / 1000, 1) + "k" : fixed(value, 0)
}

func mebibytes(_ bytes: Int?) -> String {
    bytes.map { fixed(Double($0) / 1_048_576, 1) } ?? "-"
}

func optionalPercent(_ value: Double?) -> String {
    value.map { fixed($0, 0) } ?? "-"
}
