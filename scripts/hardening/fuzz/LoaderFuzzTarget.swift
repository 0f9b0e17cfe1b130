// libFuzzer target over the stub loader: any bytes must become a stub set or a list of errors.
// Compiled by scripts/fuzz against the UnderstudyCore module (built with coverage and ASan).
@testable import UnderstudyCore

/// One loader input: any bytes become a stub set or well-formed errors.
func fuzzLoader(_ bytes: [UInt8]) {
    // "<fuzz>" is not a file on disk, so bodyFile is refused rather than read from the fuzzer's cwd.
    do {
        let set = try StubLoader.parse(bytes: bytes, file: "<fuzz>", root: nil)
        // Every stub the loader accepts must be usable by the engine.
        let responder = UnderstudyResponder(stubs: set, configuration: EngineConfiguration(clock: ManualEngineClock()))
        _ = responder.respond(to: HTTPRequest(method: "GET", target: "/", headers: HTTPHeaders(), body: []))
    } catch {
        // Errors must be well-formed: positive positions, non-empty messages.
        precondition(!error.errors.isEmpty, "a failure without errors")
        for item in error.errors {
            precondition(item.line >= 1 && item.column >= 1, "bad position in \(item)")
            precondition(!item.message.isEmpty, "empty message")
            _ = item.description
        }
    }
}
