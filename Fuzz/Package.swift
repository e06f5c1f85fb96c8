// swift-tools-version:6.0
// libFuzzer targets for splitd, built out of the main package so that fuzzing needs no change
// to it: `Modules/` holds symlinks to the real sources of SplitCore, SplitWire and
// SplitLines (the line framer), compiled here exactly as they ship. Build and run with
// `Scripts/fuzz-smoke` (CI, seconds) or `Scripts/fuzz` (long runs); see docs/RELIABILITY.md.
//
// Each fuzz target is one `@_cdecl("LLVMFuzzerTestOneInput")` function; libFuzzer supplies
// `main`, so build with `-Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library`.
import PackageDescription

let package = Package(
    name: "splitd-fuzz",
    targets: [
        .target(name: "SplitCore", path: "Modules/SplitCore", exclude: ["CONTRACT.md"]),
        .target(name: "SplitWire", dependencies: ["SplitCore"], path: "Modules/SplitWire"),
        // The line framer: it depends on nothing but Glibc.
        .target(name: "SplitLines", path: "Modules/SplitLines"),

        // libFuzzer's driver, declared once for every target.
        .target(name: "FuzzDriver"),

        .executableTarget(name: "FuzzFramer", dependencies: ["SplitLines", "FuzzDriver"]),
        .executableTarget(name: "FuzzRequestDecoder", dependencies: ["SplitWire", "SplitCore", "FuzzDriver"]),
        .executableTarget(name: "FuzzReducer", dependencies: ["SplitCore", "SplitWire", "FuzzDriver"]),
        .executableTarget(name: "FuzzSceneState", dependencies: ["SplitCore", "SplitWire", "FuzzDriver"]),
    ],
    swiftLanguageModes: [.v6]
)
