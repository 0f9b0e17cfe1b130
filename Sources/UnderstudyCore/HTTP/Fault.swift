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
    /// HTTP/2: `RST_STREAM` with `INTERNAL_ERROR` instead of the response (over HTTP/1.1: as
    /// `empty-response`).
    case rstStream = "rst-stream"
    /// HTTP/2: `RST_STREAM` with `REFUSED_STREAM` (the request was not processed; safe to retry).
    case rstStreamRefused = "rst-stream-refused"
    /// HTTP/2: `RST_STREAM` with `CANCEL`.
    case rstStreamCancel = "rst-stream-cancel"
    /// HTTP/2: the response's `HEADERS`, then `RST_STREAM` with `INTERNAL_ERROR` before any body
    /// (over HTTP/1.1: as `close-after-headers`).
    case rstStreamAfterHeaders = "rst-stream-after-headers"
    /// HTTP/2: `GOAWAY` (`NO_ERROR`) whose last-stream id is the stream before this one, so this
    /// request was not processed; streams already in flight finish, then the connection closes
    /// (over HTTP/1.1: as `empty-response`).
    case goaway
    /// HTTP/2: `GOAWAY` (`INTERNAL_ERROR`, the same last-stream id), then the connection closes at
    /// once, cutting streams in flight (over HTTP/1.1: as `empty-response`).
    case goawayNow = "goaway-now"
    /// The response's headers, then no body, as if the client's flow-control window were never
    /// updated: the stream (HTTP/1.1: the connection) stays open until the client gives up.
    case flowControlStall = "flow-control-stall"

    /// Whether the response's status and headers go out before the fault (the journal records them).
    public var sendsHead: Bool {
        switch self {
        case .closeAfterHeaders, .malformedResponseChunk, .rstStreamAfterHeaders, .flowControlStall: return true
        default: return false
        }
    }
}
