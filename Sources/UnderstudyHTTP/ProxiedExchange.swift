/// What happened upstream for a proxied request, journaled as `proxied`:
/// `{"upstream": URL, "status": N | null, "ms": T, "error": CODE?, "reason": TEXT?}`.
///
/// The transport fills it in and hands it to the request's ticket
/// (``JournalTicket/noteProxied(_:)``) just before it commits the entry. A class, so the journal
/// record carries it as one pointer that is nil for every request not proxied.
public final class ProxiedExchange: Sendable {
    /// The URL requested upstream.
    public let upstream: String
    /// The upstream's status, or nil when it sent none (a failure before its answer).
    public let status: Int?
    /// Milliseconds from sending the request upstream to the end of its answer (or the failure).
    public let milliseconds: Double
    /// Why the exchange failed (`connection-refused`, `timeout`, `bad-certificate`, …); nil when
    /// it did not.
    public let error: String?
    /// The upstream client's own words for the failure.
    public let reason: String?

    /// Creates the record of one upstream exchange.
    public init(upstream: String, status: Int?, milliseconds: Double, error: String? = nil, reason: String? = nil) {
        self.upstream = upstream
        self.status = status
        self.milliseconds = milliseconds
        self.error = error
        self.reason = reason
    }
}
