/// A request the transport is to forward to an upstream server instead of answering from a stub
/// (a stub's `proxy` response): the engine decides what to send and where, the transport sends it
/// on its own client and answers with what comes back. Built by the engine (``ProxySetting``), so
/// what is forwarded is decided, and tested, without a socket.
///
/// A class, so a response carries it as one pointer and copying a response costs nothing more.
public final class UpstreamRequest: Sendable {
    /// The method, as the client sent it.
    public let method: String
    /// The absolute URL to request: the upstream's base, the client's path (less any stripped
    /// prefix) and its query, as sent (still percent-encoded).
    public let url: String
    /// The client's header fields less the hop-by-hop ones, `Host` (the client sets the upstream's)
    /// and the body's framing (`Content-Length`, `Transfer-Encoding`: the client frames the body).
    public let headers: HTTPHeaders
    /// The request body.
    public let body: [UInt8]
    /// Milliseconds the whole exchange may take before it is given up (a `502`).
    public let timeoutMs: Double
    /// The upstream's base URL as the stub wrote it, for the journal.
    public let upstream: String
    /// Fields the transport adds to the upstream's answer (the stub's `addResponseHeaders`).
    public let addResponseHeaders: HTTPHeaders

    /// Creates an upstream request from its parts.
    public init(
        method: String, url: String, headers: HTTPHeaders, body: [UInt8], timeoutMs: Double, upstream: String,
        addResponseHeaders: HTTPHeaders = HTTPHeaders()
    ) {
        self.addResponseHeaders = addResponseHeaders
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeoutMs = timeoutMs
        self.upstream = upstream
    }

    /// Field names that describe one connection, not the message (RFC 9110 §7.6.1), which a proxy
    /// must not forward in either direction; `Proxy-Connection` is the non-standard one clients
    /// still send.
    static let hopByHop: Set<String> = [
        "connection", "proxy-connection", "keep-alive", "te", "trailer", "transfer-encoding", "upgrade",
        "proxy-authenticate", "proxy-authorization",
    ]

    /// `fields` less the hop-by-hop ones, those the `Connection` field names, and `dropping`
    /// (lower-case names).
    public static func endToEnd(_ fields: HTTPHeaders, dropping: Set<String> = []) -> HTTPHeaders {
        var named: Set<String> = []
        for value in fields.values(for: "Connection") {
            for option in value.split(separator: ",") {
                let trimmed = option.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }
                named.insert(String(trimmed.reversed()).lowercased())
            }
        }
        return HTTPHeaders(
            fields.fields.filter { field in
                let name = field.name.lowercased()
                return !hopByHop.contains(name) && !named.contains(name) && !dropping.contains(name)
            })
    }

    /// The client's fields as forwarded: end-to-end ones only, without `Host`, the body's framing
    /// and `Expect` (the upstream client speaks for itself).
    public static func forwardedHeaders(_ fields: HTTPHeaders) -> HTTPHeaders {
        endToEnd(fields, dropping: ["host", "content-length", "expect"])
    }
}
