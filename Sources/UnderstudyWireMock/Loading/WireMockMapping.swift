import UnderstudyCore
import UnderstudyJSON
/// What the WireMock adapter keeps with a stub it decoded from a mapping (the stub's
/// ``Stub/annotation``): the mapping as written, which WireMock's admin API echoes, and its
/// `metadata`, which the native format has no field for.
final class WireMockMapping: StubAnnotation {
    /// The mapping as written (with its `id` when the file gave one only as `uuid` or none).
    let json: JSONValue
    /// The mapping's free-form `metadata`, kept for WireMock's clients.
    let metadata: JSONValue?

    init(json: JSONValue, metadata: JSONValue?) {
        self.json = json
        self.metadata = metadata
    }

    /// The WireMock mapping a stub was decoded from; nil for a native stub.
    static func of(_ stub: Stub) -> WireMockMapping? { stub.annotation as? WireMockMapping }
}
