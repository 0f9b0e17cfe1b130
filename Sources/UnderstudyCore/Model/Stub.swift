/// One stub: which requests it answers and the responses it gives, in order.
public struct Stub: Sendable {
    /// Unique across everything loaded.
    public var id: String
    /// The file it came from (`"<admin>"` when posted to the admin API).
    public var file: String
}
