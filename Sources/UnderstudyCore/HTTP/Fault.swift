/// A broken response the transport carries out for real, so clients meet the failure as they
/// would on a network. The raw values are the names used in stub files.
public enum Fault: String, Sendable, CaseIterable, Codable {
    /// Reset the connection (RST, via `SO_LINGER` 0) without sending anything.
    case connectionReset = "connection-reset"
    /// Close the connection without sending a byte.
    case emptyResponse = "empty-response"
    /// Send bytes that are not HTTP, then close.
    case malformedResponse = "malformed-response"
    /// Send the status line and headers (with a `Content-Length`), then close before the body.
    case closeAfterHeaders = "close-after-headers"
    /// Send bytes that are not HTTP (WireMock's fixed garbage), then close (WireMock's `RANDOM_DATA_THEN_CLOSE`).
    case randomDataThenClose = "random-data-then-close"
    /// Send the status line and `Transfer-Encoding: chunked` headers, then a chunk that breaks
    /// the chunked framing, then close (WireMock's `MALFORMED_RESPONSE_CHUNK`).
    case malformedResponseChunk = "malformed-response-chunk"
}
