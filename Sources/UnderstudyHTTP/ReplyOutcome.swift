/// How a journaled request ended on the wire: the journal entry's `outcome` field.
public enum ReplyOutcome: String, Sendable, CaseIterable, Codable {
    /// The response was handed to the connection in full: status line, headers and body.
    case answered
    /// A fault was carried out (`fault` names it). No status line was sent, except by
    /// `close-after-headers`, which sends the head and then closes.
    case fault
    /// The client closed its connection before its answer was due (during a `delayMs`), so
    /// nothing was sent.
    case clientGone = "client-gone"
    /// The server stopped before the answer was due (the shutdown grace period ran out during a
    /// `delayMs`), so nothing was sent.
    case shutdown
    /// The transport refused the request without asking the stubs (a malformed request, or one
    /// over a limit) and answered with a 4xx/5xx saying why; the entry's `reason` says the same.
    case refused
    /// An outbound request (a webhook attempt) got no answer: refused, timed out, reset, or its
    /// target refused by the allow-list; the entry's `outbound.error` says which.
    case failed
}
