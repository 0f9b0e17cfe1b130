import UnderstudyCore

/// A proxied request's answer on its way back: the upstream call, and what has gone to the
/// client so far. Owned by its ``PendingReply``, so a client that leaves drops it (and the call,
/// whose handles are freed at once).
///
/// An answer with a length (the upstream's `Content-Length`) is gathered whole and then sent as
/// any stub answer is, its journal entry committed from the bytes written. An open-ended one
/// (chunked or ended by close: a server-sent event stream) is relayed as it comes, its head at
/// once and each piece as it arrives; its entry is committed when it ends, with all it sent, just
/// before the last chunk goes out (or, if the client leaves first, as `client-gone` with what it
/// had been sent).
final class ProxyRelay {
    let call: UpstreamCall
    /// Monotonic nanoseconds when the request went upstream.
    let startedAt: UInt64
    /// The request's journal entry (also the pending reply's), for a relayed answer's late commit.
    let journal: JournalTicket?
    /// The upstream's status and the fields passed on (hop-by-hop ones dropped), once its head came.
    var status: Int?
    var headers = HTTPHeaders()
    /// The body so far: all of it for a gathered answer; what was relayed for a streamed one.
    var body: [UInt8] = []
    /// Whether the answer is being relayed as it comes (its head already sent).
    var relaying = false
    var chunked = false
    var closing = false
    /// The fields of the head as sent to the client (the upstream's, plus the framing added).
    var sentHeaders = HTTPHeaders()
    /// What the journal says about the upstream, set when the exchange ends.
    var proxied: ProxiedExchange?

    init(call: UpstreamCall, startedAt: UInt64, journal: JournalTicket?) {
        self.call = call
        self.startedAt = startedAt
        self.journal = journal
    }

    deinit {
        // A relayed answer whose client left before it ended: journaled with what it was sent.
        guard relaying, let journal, !journal.isCommitted else { return }
        journal.noteProxied(
            proxied
                ?? ProxiedExchange(
                    upstream: call.request.url, status: status,
                    milliseconds: MonotonicClock().milliseconds(since: startedAt)))
        journal.commit(Delivery(outcome: .clientGone, status: status, headers: sentHeaders, body: body))
    }
}
