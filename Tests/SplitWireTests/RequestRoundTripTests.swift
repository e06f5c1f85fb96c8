import Foundation
import PropertyBased
import SplitCore
import SplitWire
import Testing

@Suite("Request round trips and fuzzing")
struct RequestRoundTripTests {
    @Test("encode then decode gives back every request")
    func roundTrip() async {
        await propertyCheck(count: 1000, input: WireGenerators.request) { request throws in
            let line = WireEncoder.encode(request)
            #expect(line.last == UInt8(ascii: "\n"))
            #expect(try RequestDecoder.decode(line) == request)
        }
    }

    @Test("config patches: the hand decoder agrees with SplitConfigPatch's Codable")
    func patchMatchesCodable() async {
        await propertyCheck(count: 500, input: WireGenerators.patch) { patch throws in
            var writer = JSONWriter()
            writer.write(patch)
            let viaCodable = try JSONDecoder().decode(SplitConfigPatch.self, from: Data(writer.bytes))
            #expect(viaCodable == patch)
            let text = String(decoding: writer.bytes, as: UTF8.self)
            let line = #"{"id":1,"op":"intent","scene":"s","intent":{"kind":"setConfig","config":"# + text + "}}"
            #expect(
                try RequestDecoder.decode(line).op
                    == .intent(scene: "s", intent: .setConfig(viaCodable), baseRevision: nil))
            // And the hand encoder writes what the Codable encoder writes.
            #expect(try JSONParser.parse(writer.bytes) == JSONParser.parse(Array(JSONEncoder().encode(patch))))
        }
    }

    @Test("random bytes always yield a request or a failure")
    func randomBytes() async {
        let bytes = Gen<UInt8>.value(in: 0...255).array(of: 0...96)
        await propertyCheck(count: 2000, input: bytes) { line throws in
            do throws(RequestFailure) {
                _ = try RequestDecoder.decode(line)
            } catch {
                #expect(!error.error.message.isEmpty)
                #expect(WireErrorCode.protocolOne.contains(error.error.code))
            }
        }
    }

    /// Valid request lines with a few bytes replaced, inserted or deleted.
    static let mutatedLines = Generator<[UInt8], Shrink.None<[UInt8]>>(run: { rng in
        var line = WireEncoder.encode(WireGenerators.makeRequest(using: &rng))
        let interesting = Array("{}[]\",:0-1e.\\ntu".utf8) + [0x00, 0xFF, 0xC3]
        for _ in 0..<Int.random(in: 1...4, using: &rng) where !line.isEmpty {
            let index = Int.random(in: 0..<line.count, using: &rng)
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: line[index] = interesting.randomElement(using: &rng)!
            case 1: line.insert(interesting.randomElement(using: &rng)!, at: index)
            default: line.remove(at: index)
            }
        }
        return line
    })

    @Test("mutated valid requests always yield a request or a classified failure")
    func mutatedRequests() async {
        await propertyCheck(count: 3000, input: Self.mutatedLines) { line throws in
            do throws(RequestFailure) {
                let request = try RequestDecoder.decode(line)
                // Whatever is accepted re-encodes to something that decodes the same.
                #expect((try? RequestDecoder.decode(WireEncoder.encode(request))) == request)
            } catch {
                #expect(WireErrorCode.protocolOne.contains(error.error.code))
                // A line that is not JSON echoes an id only if a prefix of it, closed, carries it.
                if error.error.code == .badJSON, let id = error.id {
                    let carried = (0...line.count).contains { length in
                        let closed = Array(line.prefix(length)) + [UInt8(ascii: "}")]
                        guard case .object(let object)? = try? JSONParser.parse(closed),
                            let value = object["id"]
                        else { return false }
                        return RequestID(json: value) == id
                    }
                    #expect(carried, "id \(id) echoed for \(String(decoding: line, as: UTF8.self))")
                }
            }
        }
    }
}
