import CFuzzDriver
import KeyframeFuzzHarness

/// libFuzzer's per-input callback: the `sheet-xml` surface on the fuzzer's bytes, in memory.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    surface.run(bytes)
    return 0
}

/// The executable's entry point (SwiftPM links it as `main`): hands the command line over to libFuzzer.
@_cdecl("FuzzSheetXML_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzzOneInput)
}

private let surface = FuzzSurface.named("sheet-xml")!
