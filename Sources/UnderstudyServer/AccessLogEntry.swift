import UnderstudyCore

/// One answered (or refused, faulted, abandoned) request, for the access log.
public struct AccessLogEntry: Sendable, Equatable {
    /// The method as sent.
    public var method: String
    /// The request target as sent (path and query).
    public var target: String
    /// The status line sent, or nil when none was (a fault before the head, a client that left,
    /// a shutdown), as in the journal.
    public var status: Int?
    /// The stub that answered, or nil (unmatched, admin, refused).
    public var stubID: String?
    /// The fault carried out instead of a normal response, if any.
    public var fault: Fault?
    /// How the request ended on the wire.
    public var outcome: ReplyOutcome
    /// Milliseconds from the request's arrival to its answer (or its end), delays included.
    public var milliseconds: Double

    /// An entry with every field given; `outcome` is `.answered` unless the request ended otherwise.
    public init(
        method: String, target: String, status: Int?, stubID: String?, fault: Fault?,
        outcome: ReplyOutcome = .answered, milliseconds: Double
    ) {
        self.method = method
        self.target = target
        self.status = status
        self.stubID = stubID
        self.fault = fault
        self.outcome = outcome
        self.milliseconds = milliseconds
    }

    /// The line written to stderr: `GET /posts?page=1 200 list-posts 0.41ms`, with `-` for no
    /// status or no stub, the fault's name after the stub when one was carried out, and the
    /// outcome when nothing was sent (`client-gone`, `shutdown`) or the transport refused the
    /// request (`refused`).
    public var line: String {
        let ms = (milliseconds * 100).rounded() / 100
        let faultPart = fault.map { " fault=\($0.rawValue)" } ?? ""
        let outcomePart =
            outcome == .clientGone || outcome == .shutdown || outcome == .refused ? " \(outcome.rawValue)" : ""
        return
            "\(method) \(target) \(status.map(String.init) ?? "-") \(stubID ?? "-")\(faultPart)\(outcomePart) \(ms)ms"
    }
}
