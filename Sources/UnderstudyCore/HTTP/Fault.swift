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
}
