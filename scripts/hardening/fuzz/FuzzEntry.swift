// The one libFuzzer entry point of the fuzz binary. Both targets live in one binary so the
// Swift sources compile once; UNDERSTUDY_FUZZ_TARGET (loader | engine) picks the target.
@testable import UnderstudyCore
import UnderstudyWireMock
#if canImport(Glibc)
import Glibc
#endif

private enum FuzzTarget {
    case loader, engine

    static let selected: FuzzTarget = {
        // The loader reads WireMock mappings as the daemon does (its `main` installs them too).
        WireMockSupport.install()
        switch getenv("UNDERSTUDY_FUZZ_TARGET").map({ String(cString: $0) }) {
        case "loader": return .loader
        case "engine": return .engine
        default:
            fputs("set UNDERSTUDY_FUZZ_TARGET to loader or engine\n", stderr)
            exit(2)
        }
    }()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func understudyFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    switch FuzzTarget.selected {
    case .loader: fuzzLoader(bytes)
    case .engine: fuzzEngine(bytes)
    }
    return 0
}
