/// The response type of an endpoint whose answer has no body worth decoding (`204 No Content`,
/// or a body the caller ignores): the body is not read at all.
public struct NoContent: Sendable, Equatable {
    /// The empty value.
    public init() {}
}
