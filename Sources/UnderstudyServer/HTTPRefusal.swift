/// Why the transport refuses a request without asking the responder: the status it answers with
/// and a sentence naming what the client did wrong. The sentence is the 400's body and the
/// journal entry's reason, so a client's test sees exactly what its client sent wrong.
///
/// Every refusal closes the connection: once the framing is in doubt, nothing after it on the
/// connection can be trusted to start where the client thought it did (RFC 9112 §11.2).
struct HTTPRefusal: Error, Equatable {
    /// 400, 413, 414, 431, 501 or 505.
    var status: Int
    /// What was wrong, e.g. "whitespace before the colon in `Content-Length` (RFC 9112 §5.1)".
    var reason: String

    static func badRequest(_ reason: String) -> HTTPRefusal {
        HTTPRefusal(status: 400, reason: reason)
    }
}
