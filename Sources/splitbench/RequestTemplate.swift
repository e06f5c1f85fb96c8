/// One request line with holes, in the anchor load generator's syntax: `%c` is the
/// connection's index (0 for the first), `%n` the connection's request counter (1 for its
/// first request) and `%%` a percent sign. Connections cycle through their templates in order.
struct RequestTemplate: Sendable {
    enum Piece: Sendable {
        case literal([UInt8])
        case connection
        case counter
    }

    let pieces: [Piece]

    init(_ text: String) {
        var pieces: [Piece] = []
        var literal: [UInt8] = []
        var bytes = Array(text.utf8).makeIterator()
        while let byte = bytes.next() {
            guard byte == UInt8(ascii: "%") else {
                literal.append(byte)
                continue
            }
            switch bytes.next() {
            case UInt8(ascii: "c"):
                if !literal.isEmpty { pieces.append(.literal(literal)); literal = [] }
                pieces.append(.connection)
            case UInt8(ascii: "n"):
                if !literal.isEmpty { pieces.append(.literal(literal)); literal = [] }
                pieces.append(.counter)
            case UInt8(ascii: "%"):
                literal.append(byte)
            case let other?:
                literal.append(byte)
                literal.append(other)
            case nil:
                literal.append(byte)
            }
        }
        if !literal.isEmpty { pieces.append(.literal(literal)) }
        self.pieces = pieces
    }

    /// Appends the request line (with its newline) for `connection`'s `counter`th request.
    @inline(__always)
    func append(connection: Int, counter: Int, to buffer: inout [UInt8]) {
        for piece in pieces {
            switch piece {
            case .literal(let bytes): buffer.append(contentsOf: bytes)
            case .connection: appendDecimal(connection, to: &buffer)
            case .counter: appendDecimal(counter, to: &buffer)
            }
        }
        buffer.append(UInt8(ascii: "\n"))
    }

    /// Templates from a file's non-empty lines.
    static func lines(of text: String) -> [RequestTemplate] {
        text.split(separator: "\n", omittingEmptySubsequences: true)
            .map { String($0).trimmingSpaces() }
            .filter { !$0.isEmpty }
            .map(RequestTemplate.init)
    }
}

/// Appends `value` in decimal without going through String.
@inline(__always)
func appendDecimal(_ value: Int, to buffer: inout [UInt8]) {
    if value < 0 {
        buffer.append(UInt8(ascii: "-"))
        appendDecimal(-value, to: &buffer)
        return
    }
    if value < 10 {
        buffer.append(UInt8(ascii: "0") + UInt8(value))
        return
    }
    var digits:
        (
            UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
            UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
        ) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var count = 0
    var rest = value
    withUnsafeMutableBytes(of: &digits) { raw in
        while rest > 0 {
            raw[count] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
            count += 1
        }
        for index in stride(from: count - 1, through: 0, by: -1) { buffer.append(raw[index]) }
    }
}

extension String {
    func trimmingSpaces() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" || first == "\r" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" || last == "\r" { scalars.removeLast() }
        return String(scalars)
    }
}
