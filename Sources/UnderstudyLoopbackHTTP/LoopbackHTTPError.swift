/// Why a ``LoopbackHTTPClient`` exchange produced no response: below HTTP (the address, the
/// connection, the deadline) or in the bytes that came back.
///
/// Every case's `description` is a sentence a caller can hand on as it is
/// (`understudy record --session` prints it; the test kit puts it in its `AdminError`).
public enum LoopbackHTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What the exchange was doing when its deadline passed.
    public enum Phase: String, Sendable, Equatable {
        /// Opening the TCP connection.
        case connecting
        /// Writing the request.
        case sending
        /// Reading the response.
        case receiving
    }

    /// `getaddrinfo` could not turn the host into an address.
    case cannotResolve(host: String, reason: String)
    /// Every address of the host refused the connection: nothing listens on that port.
    case connectionRefused(host: String, port: Int)
    /// Connecting failed for another reason (`strerror`'s words).
    case cannotConnect(host: String, port: Int, reason: String)
    /// The whole exchange's deadline passed in `phase`.
    case timedOut(host: String, port: Int, seconds: Double, phase: Phase)
    /// The connection failed while the request was written or the response read.
    case connectionFailed(host: String, port: Int, phase: Phase, reason: String)
    /// The bytes that came back are not an HTTP/1.x response (a bad status line, header line or
    /// chunk size, or conflicting `Content-Length`s).
    case malformedResponse(String)
    /// The connection closed before the response was whole (inside its head, before
    /// `Content-Length` bytes of body, or inside a chunked body).
    case truncatedResponse(String)

    public var description: String {
        switch self {
        case let .cannotResolve(host, reason):
            return "cannot resolve \(host): \(reason)"
        case let .connectionRefused(host, port):
            return "cannot connect to \(Self.address(host, port)): connection refused (is the daemon running there?)"
        case let .cannotConnect(host, port, reason):
            return "cannot connect to \(Self.address(host, port)): \(reason)"
        case let .timedOut(host, port, seconds, phase):
            let what =
                switch phase {
                case .connecting: "connecting"
                case .sending: "sending the request"
                case .receiving: "waiting for the response"
                }
            return "\(Self.address(host, port)) timed out after \(Self.seconds(seconds)) s while \(what)"
        case let .connectionFailed(host, port, phase, reason):
            let what =
                switch phase {
                case .connecting: "connecting to"
                case .sending: "sending to"
                case .receiving: "receiving from"
                }
            return "\(what) \(Self.address(host, port)) failed: \(reason)"
        case let .malformedResponse(detail):
            return "malformed HTTP response: \(detail)"
        case let .truncatedResponse(detail):
            return "truncated HTTP response: \(detail)"
        }
    }

    /// `host:port`, with an IPv6 host in brackets.
    static func address(_ host: String, _ port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// `30`, `0.5`: whole seconds without a fraction.
    private static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
