import SplitCore
import SplitWire
import FuzzDriver

// Fuzzes the request path of protocol 1 with arbitrary request lines. Besides "never
// crashes", it checks the promises the codec makes:
// - a JSON value the parser accepts is written back as JSON that parses to the same value;
// - a request the decoder accepts, encoded by the client-side encoder, decodes to itself
//   (the encoder is documented as the decoder's exact inverse);
// - a refused line echoes an `id` only when that id is really the line's integer or string
//   `id` (WIRE.md: `id` echoed if it could be read), for a line that is not JSON the `id`
//   of the object it opens, read before what broke it.

/// libFuzzer entry point: returns 0; a broken property traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let line = UnsafeRawBufferPointer(start: data, count: size)
    let parsed = try? JSONParser().parse(line)
    if let parsed { checkWriteRoundTrip(parsed, line) }

    do {
        let request = try RequestDecoder().decode(line)
        checkEncodeRoundTrip(request, line)
    } catch {
        checkEchoedID(error.id, parsed: parsed, line)
    }
    return 0
}

func checkWriteRoundTrip(_ value: JSONValue, _ line: UnsafeRawBufferPointer) {
    let written = JSONWriter.encode(value)
    guard let reparsed = try? JSONParser().parse(written) else {
        trap("the writer's output of a parsed value does not parse: \(String(decoding: written, as: UTF8.self))", line)
    }
    if reparsed != value {
        trap("write then parse changed the value: \(String(decoding: written, as: UTF8.self))", line)
    }
}

func checkEncodeRoundTrip(_ request: Request, _ line: UnsafeRawBufferPointer) {
    let encoded = WireEncoder.encode(request)
    guard encoded.last == 0x0A, encoded.dropLast().firstIndex(of: 0x0A) == nil else {
        trap("an encoded request is not exactly one line", line)
    }
    do {
        let again = try RequestDecoder().decode(encoded)
        if again != request {
            trap("encode then decode changed the request: \(request) -> \(again)", line)
        }
    } catch {
        trap("the encoding of an accepted request is refused (\(error)): \(String(decoding: encoded, as: UTF8.self))", line)
    }
}

func checkEchoedID(_ echoed: RequestID?, parsed: JSONValue?, _ line: UnsafeRawBufferPointer) {
    guard let echoed else { return }
    if let parsed {
        guard case .object(let object) = parsed, let id = object["id"], RequestID(json: id) == echoed else {
            trap("a refusal echoes id \(echoed) that the line does not carry", line)
        }
        return
    }
    // Not JSON: the id was read from the object the line opens, before what broke it. Some
    // prefix of the line, closed with "}", must then parse to an object with that id.
    guard line.count <= 2048 else { return }
    for length in (0...line.count).reversed() {
        let closed = Array(line[0..<length]) + [UInt8(ascii: "}")]
        if case .object(let object)? = try? JSONParser().parse(closed), let id = object["id"],
           RequestID(json: id) == echoed {
            return
        }
    }
    trap("a refusal of a line that is not JSON echoes id \(echoed), which no prefix of the line carries", line)
}

func trap(_ message: String, _ line: UnsafeRawBufferPointer) -> Never {
    fatalError("FuzzRequestDecoder: \(message)\nline: \(String(decoding: line.prefix(512), as: UTF8.self))")
}

// libFuzzer's driver runs the target (FuzzDriver).
@_cdecl("FuzzRequestDecoder_main")
public func fuzzRequestDecoderMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzRequestDecoder)
}
