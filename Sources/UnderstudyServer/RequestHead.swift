import UnderstudyCore

/// A request's first line and headers as they arrived on the wire, before libevent parses them.
///
/// libevent 2.1 forgets the name of a method it does not know and never hands over a request it
/// refuses (a body over the limit), so the transport reads the raw stream alongside it to keep
/// both: the method as sent, and enough of a refused request to journal it.
struct RequestHead {
    /// The method token exactly as sent.
    var method: String
    /// The request target exactly as sent (path and query, still percent-encoded).
    var target: String
    /// Header fields in arrival order.
    var headers: HTTPHeaders
    /// The `Content-Length` the client declared, when it declared one (and no chunked coding).
    var declaredLength: Int?
    /// Whether the body uses chunked transfer coding.
    var chunked: Bool

    /// Whether libevent 2.1 reads a body for this method. It skips bodies of HEAD, TRACE and any
    /// method it does not know; the transport reads those itself when they have fully arrived.
    var libeventReadsBody: Bool {
        switch method {
        case "GET", "POST", "PUT", "DELETE", "OPTIONS", "CONNECT", "PATCH": return true
        default: return false
        }
    }

    /// Whether libevent knows the method at all (its 2.1 parser has a fixed list).
    var isKnownToLibevent: Bool {
        libeventReadsBody || method == "HEAD" || method == "TRACE"
    }

    /// The request as the engine sees it, with the given body.
    func request(body: [UInt8] = []) -> HTTPRequest {
        HTTPRequest(method: method, target: RequestHead.originForm(target), headers: headers, body: body)
    }

    /// Reduces an absolute-form target (`http://host/path?q`) to origin form (`/path?q`), as a
    /// proxy-style client may send; everything else is returned unchanged.
    static func originForm(_ target: String) -> String {
        guard target.utf8.first != UInt8(ascii: "/"), let schemeEnd = target.firstRange(of: "://") else { return target }
        let afterAuthority = target[schemeEnd.upperBound...]
        guard let slash = afterAuthority.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
        let rest = String(afterAuthority[slash...])
        return rest.hasPrefix("?") ? "/" + rest : rest
    }
}
