/// A close frame's status code (RFC 6455 §7.4), with the IANA-registered ones named.
///
/// Any `UInt16` can be written (a fault may send one on purpose); ``isAllowedOnWire`` says whether
/// a peer may send it, which is what the parser enforces on a received close frame.
public struct WebSocketCloseCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The code as sent, in network order on the wire.
    public var rawValue: UInt16

    /// A code, whether or not it may be sent.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// 1000: the purpose of the connection is fulfilled.
    public static let normalClosure = WebSocketCloseCode(rawValue: 1000)
    /// 1001: the endpoint is going away (a server shutting down, a page navigated away).
    public static let goingAway = WebSocketCloseCode(rawValue: 1001)
    /// 1002: the peer broke the protocol.
    public static let protocolError = WebSocketCloseCode(rawValue: 1002)
    /// 1003: a message of a type the endpoint cannot accept (binary where only text is).
    public static let unsupportedData = WebSocketCloseCode(rawValue: 1003)
    /// 1005: "no status code was present"; only reported locally, never sent.
    public static let noStatusReceived = WebSocketCloseCode(rawValue: 1005)
    /// 1006: "closed without a close frame"; only reported locally, never sent.
    public static let abnormalClosure = WebSocketCloseCode(rawValue: 1006)
    /// 1007: a message's data did not match its type (a text message that is not UTF-8).
    public static let invalidPayloadData = WebSocketCloseCode(rawValue: 1007)
    /// 1008: a message violated the endpoint's policy.
    public static let policyViolation = WebSocketCloseCode(rawValue: 1008)
    /// 1009: a message too big to process.
    public static let messageTooBig = WebSocketCloseCode(rawValue: 1009)
    /// 1010: the client expected an extension the server did not negotiate.
    public static let mandatoryExtension = WebSocketCloseCode(rawValue: 1010)
    /// 1011: the server met an unexpected condition.
    public static let internalError = WebSocketCloseCode(rawValue: 1011)
    /// 1012: the service is restarting (IANA registry); a client should reconnect.
    public static let serviceRestart = WebSocketCloseCode(rawValue: 1012)
    /// 1013: try again later (IANA registry); a client should back off before reconnecting.
    public static let tryAgainLater = WebSocketCloseCode(rawValue: 1013)
    /// 1014: a gateway got an invalid response upstream (IANA registry).
    public static let badGateway = WebSocketCloseCode(rawValue: 1014)
    /// 1015: the TLS handshake failed; only reported locally, never sent.
    public static let tlsHandshakeFailure = WebSocketCloseCode(rawValue: 1015)

    /// Whether a close frame may carry this code (§7.4.1, §7.4.2 and the IANA registry): 1000-1003,
    /// 1007-1014 and the 3000-4999 range for libraries and applications. Below 1000, 1004 (reserved),
    /// 1005, 1006 and 1015 (local only), 1016-2999 (reserved for the RFC and its extensions) and 5000
    /// up are not, and a received one is a protocol error (1002).
    public var isAllowedOnWire: Bool {
        switch rawValue {
        case 1000...1003, 1007...1014, 3000...4999: return true
        default: return false
        }
    }

    /// The code as a number (`1012`).
    public var description: String { String(rawValue) }
}
