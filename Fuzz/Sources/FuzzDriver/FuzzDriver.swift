/// What every fuzz target shares: libFuzzer's driver. SwiftPM links an executable's entry
/// point as `<module>_main`; each target's `@_cdecl("<Target>_main")` hands its arguments
/// and its one-input function here.
public func runFuzzer(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                      _ testOneInput: @convention(c) (UnsafePointer<UInt8>, Int) -> Int32) -> Int32 {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments, testOneInput)
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<Int32>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ testOneInput: @convention(c) (UnsafePointer<UInt8>, Int) -> Int32) -> Int32
