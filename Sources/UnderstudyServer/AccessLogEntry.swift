import UnderstudyCore

/// One answered (or refused) request, for the access log.
public struct AccessLogEntry: Sendable, Equatable {
    /// The method as sent.
    public var method: String
    /// The request target as sent (path and query).
    public var target: String
    /// The status sent; for a fault, the status the stub named (the client never sees it).
    public var status: Int
    /// The stub that answered, or nil (unmatched, admin, refused).
    public var stubID: String?
    /// The fault carried out instead of a normal response, if any.
    public var fault: Fault?
    /// Milliseconds from the request's arrival to its answer, delays included.
    public var milliseconds: Double

    public init(method: String, target: String, status: Int, stubID: String?, fault: Fault?, milliseconds: Double) {
        self.method = method
        self.target = target
        self.status = status
        self.stubID = stubID
        self.fault = fault
        self.milliseconds = milliseconds
    }

    /// The line written to stderr: `GET /posts?page=1 200 list-posts 0.41ms`, with `-` for no stub
    /// and the fault's name after the status when one was carried out.
    public var line: String {
        let ms = (milliseconds * 100).rounded() / 100
        let faultPart = fault.map { " fault=\($0.rawValue)" } ?? ""
        return "\(method) \(target) \(status) \(stubID ?? "-")\(faultPart) \(ms)ms"
    }
}
