import Foundation
import SplitCore
import SplitWire
import FuzzDriver

// Fuzzes the stored scene-state codec (`SceneStateCodec`, a byte scanner over raw pointers)
// against a reference, on arbitrary bytes. The reference is strict JSON (`JSONParser`) read by
// SplitCore's Codable conformances (Foundation's JSONDecoder, which alone would let trailing
// commas and malformed numbers in skipped members through):
// - both refuse, or both accept the same state. One intended divergence: the codec ignores
//   a duplicated unknown member, which the parser refuses (`duplicateKey`); duplicated
//   known members are refused by both;
// - an accepted state encodes to the JSON Foundation writes for it, and those bytes decode
//   back to the state.
// The input is handed over as borrowed bytes of exactly its size, so that under ASan a read
// past the end is reported.
//
// Seeds: `FUZZ_WRITE_SEEDS=DIR FuzzSceneState` writes states built by the engine (every
// device, configs, stacks, collapsed, presentations) encoded by the codec and by Foundation.

/// libFuzzer entry point: returns 0; a broken property traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSceneState(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let scanned: SceneState?
    do { scanned = try SceneStateCodec.decode(bytes) } catch { scanned = nil }
    let strict = (try? JSONParser().parse(UnsafeRawBufferPointer(bytes))) != nil
    let reference = strict ? try? JSONDecoder().decode(SceneState.self, from: Data(buffer: bytes)) : nil
    switch (scanned, reference) {
    case let (state?, reference?):
        require(state == reference, "the codec and the reference decode different states", bytes)
        checkEncoding(state, bytes)
    case let (state?, nil):
        // Allowed only for the intended divergence: a duplicated (unknown) member.
        require(hasDuplicateKey(bytes),
                "the codec accepts a document the reference refuses, without a duplicated key", bytes)
        checkEncoding(state, bytes)
    case (nil, _?):
        trap("the codec refuses a document the reference accepts", bytes)
    case (nil, nil):
        break
    }
    return 0
}

/// Whether the generic parser refuses the bytes for a duplicated object key.
func hasDuplicateKey(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    do {
        _ = try JSONParser().parse(UnsafeRawBufferPointer(bytes))
        return false
    } catch {
        if case .duplicateKey = error.reason { return true }
        return false
    }
}

/// The codec writes the JSON Foundation writes, and reads it back unchanged.
func checkEncoding(_ state: SceneState, _ input: UnsafeBufferPointer<UInt8>) {
    let foundation = try? JSONEncoder().encode(state)
    guard let encoded = try? SceneStateCodec.encode(state) else {
        // Only a non-finite number cannot be written; Foundation must refuse it too.
        require(foundation == nil, "the codec cannot encode a state Foundation can", input)
        return
    }
    let sameJSON = foundation.map { (try? JSONParser.parse(Array($0))) == (try? JSONParser.parse(encoded)) } ?? false
    require(sameJSON, "the codec's JSON differs from Foundation's", input)
    require((try? SceneStateCodec.decode(encoded)) == state, "an encoded state does not decode back to itself", input)
}

// Texts are autoclosures: built only when a property fails.
func require(_ condition: Bool, _ message: @autoclosure () -> String, _ input: UnsafeBufferPointer<UInt8>) {
    if !condition { trap(message(), input) }
}

func trap(_ message: String, _ input: UnsafeBufferPointer<UInt8>) -> Never {
    fatalError("FuzzSceneState: \(message)\ninput: \(String(decoding: input.prefix(2048), as: UTF8.self))")
}

// MARK: seeds

/// Writes seed inputs into `directory`: engine-built states, codec- and Foundation-encoded.
func writeSeeds(to directory: String) throws {
    let engine = SplitEngine()
    let configs = seedConfigs()
    var states: [SceneState] = []
    for (index, device) in engine.catalog.deviceNames.enumerated() {
        let config = configs[index % configs.count]
        guard var state = try? engine.createScene(id: "seed-\(index)", device: device, size: nil, config: config) else { continue }
        states.append(state)
        let changes: [SceneChange] = [
            .intent(.push(column: .primary, vc: "p\(index)")),
            .intent(.push(column: .secondary, vc: "s\(index)")),
            .intent(.present(vc: "sheet", style: .formSheet)),
            .resize(Size(width: 375, height: 812)),
            .intent(.push(column: .compact, vc: "c\(index)")),
        ]
        for change in changes {
            guard let next = try? engine.apply(change, to: state) else { continue }
            state = next.state
        }
        states.append(state)
    }
    let foundation = JSONEncoder()
    foundation.outputFormatting = [.sortedKeys]
    for (index, state) in states.enumerated() {
        try Data(try SceneStateCodec.encode(state)).write(to: URL(fileURLWithPath: "\(directory)/codec-\(index)"))
        if index % 4 == 0 {
            try foundation.encode(state).write(to: URL(fileURLWithPath: "\(directory)/foundation-\(index)"))
        }
    }
    print("FuzzSceneState: wrote \(states.count) codec seeds and \((states.count + 3) / 4) Foundation seeds to \(directory)")
}

/// A few configurations that exercise the optional members of the stored form.
func seedConfigs() -> [SplitConfigPatch] {
    var plain = SplitConfigPatch()
    plain.roots = ColumnRoots(primary: "inbox", secondary: "detail")
    var tabs = plain
    tabs.tabs = [TabConfig(root: "t0"), TabConfig(root: "t1", title: "Two")]
    var triple = SplitConfigPatch()
    triple.style = .tripleColumn
    triple.placeholder = .some("empty")
    triple.preferredPrimaryColumnWidth = .some(320)
    triple.preferredSupplementaryColumnWidthFraction = .some(0.3)
    return [SplitConfigPatch(), plain, tabs, triple]
}

// libFuzzer's driver runs the target (FuzzDriver).
@_cdecl("FuzzSceneState_main")
public func fuzzSceneStateMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    if let directory = ProcessInfo.processInfo.environment["FUZZ_WRITE_SEEDS"] {
        do { try writeSeeds(to: directory) } catch { fatalError("FuzzSceneState: writing seeds: \(error)") }
        return 0
    }
    return runFuzzer(argc, argv, fuzzSceneState)
}
