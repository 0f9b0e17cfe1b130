/// What a transport did with a response, reported when it happens: the journal entry is written
/// from it, before any byte of the response reaches the socket.
///
/// The status and head are what went on the wire, not what the stub asked for: `status` is nil
/// when no status line was sent (a fault before the head, a client that left, a shutdown).
public struct Delivery {
    /// How the request ended.
    public var outcome: ReplyOutcome
    /// The status line sent, or nil when none was.
    public var status: Int?
    /// The header fields sent, in order (empty when no head was sent).
    public var headers: HTTPHeaders
    /// The header fields sent, lent as raw bytes by a transport (see
    /// ``answered(status:rawHeaders:body:)``); when set, they stand for ``headers``.
    package var rawHeaders: UnsafeBufferPointer<RawHeaderField>?
    /// The body bytes sent (empty for HEAD, 1xx, 204, 304, and every fault).
    public var body: [UInt8]
    /// The fault carried out, for ``ReplyOutcome/fault``.
    public var fault: Fault?
    /// Why the transport refused the request, for ``ReplyOutcome/refused``.
    public var reason: String?
    /// The `RST_STREAM` or `GOAWAY` an HTTP/2 fault sent (journaled as `errorCode` and `lastStreamId`).
    public var frame: FaultParameters.Frame?

    /// Creates a delivery report.
    public init(
        outcome: ReplyOutcome, status: Int? = nil, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [],
        fault: Fault? = nil
    ) {
        self.outcome = outcome
        self.status = status
        self.headers = headers
        self.body = body
        self.fault = fault
    }

    /// The response was sent in full.
    public static func answered(status: Int, headers: HTTPHeaders, body: [UInt8]) -> Delivery {
        Delivery(outcome: .answered, status: status, headers: headers, body: body)
    }

    /// The response was sent in full; its head is given as the transport's own bytes, which need
    /// to stay valid only until ``JournalTicket/commit(_:)`` returns (the entry is encoded by then).
    /// Spares a transport making a `String` of every header it wrote.
    public static func answered(status: Int, rawHeaders: UnsafeBufferPointer<RawHeaderField>, body: [UInt8]) -> Delivery
    {
        var delivery = Delivery(outcome: .answered, status: status, body: body)
        delivery.rawHeaders = rawHeaders
        return delivery
    }

    /// The transport refused the request for `reason` and sent this answer (its head lent as in
    /// ``answered(status:rawHeaders:body:)``).
    public static func refused(
        status: Int, rawHeaders: UnsafeBufferPointer<RawHeaderField>, body: [UInt8], reason: String
    ) -> Delivery {
        var delivery = Delivery(outcome: .refused, status: status, body: body)
        delivery.rawHeaders = rawHeaders
        delivery.reason = reason
        return delivery
    }

    /// `fault` was carried out; `head` is the status and headers sent first, if any
    /// (`close-after-headers`); `frame` the HTTP/2 `RST_STREAM` or `GOAWAY` it sent, if any.
    public static func faulted(
        _ fault: Fault, head: (status: Int, headers: HTTPHeaders)? = nil, frame: FaultParameters.Frame? = nil
    ) -> Delivery {
        var delivery = Delivery(
            outcome: .fault, status: head?.status, headers: head?.headers ?? HTTPHeaders(), fault: fault)
        delivery.frame = frame
        return delivery
    }

    /// The client left before its answer.
    public static var clientGone: Delivery { Delivery(outcome: .clientGone) }

    /// The server stopped before the answer was due.
    public static var shutdown: Delivery { Delivery(outcome: .shutdown) }

    /// What sending `response` as it stands amounts to, for callers without a transport (the
    /// engine's own ``StubEngine/handle(_:)``): its status, headers and body, or its fault.
    public static func planned(_ response: HTTPResponse) -> Delivery {
        guard let fault = response.fault else {
            return .answered(status: response.status, headers: response.headers, body: response.body)
        }
        // Some faults send a head first.
        return fault.sendsHead ? .faulted(fault, head: (response.status, response.headers)) : .faulted(fault)
    }
}

/// One header field as raw UTF-8: name and value bytes borrowed from a transport.
public struct RawHeaderField {
    /// The field name's bytes as sent; valid only while the transport's buffer is.
    public var name: UnsafeBufferPointer<UInt8>
    /// The field value's bytes as sent; valid only while the transport's buffer is.
    public var value: UnsafeBufferPointer<UInt8>

    /// Borrows `name` and `value`: nothing is copied until the journal encodes the field.
    public init(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
        self.name = name
        self.value = value
    }
}
