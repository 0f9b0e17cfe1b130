/// A request that got no usable HTTP response: the connection failed or the answer was broken.
///
/// URLSession reports these as `URLError`s whose codes differ by platform (on Linux, libcurl's
/// "empty reply" is `badServerResponse`, a non-HTTP answer is `unsupportedURL`, a cut-off body is
/// `unknown`); RESTNetworking classifies them once, here, so callers and retry policies see the
/// same `Kind` everywhere. The original error stays in `underlying`.
public struct HTTPTransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong on the wire.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Nothing listens there (connection refused, host unreachable).
        case cannotConnect
        /// The connection was reset or dropped before a response arrived.
        case connectionLost
        /// The server closed the connection without sending a byte.
        case emptyResponse
        /// The server sent bytes that are not an HTTP response.
        case malformedResponse
        /// The response started but the connection closed before the body was complete.
        case truncatedResponse
        /// No answer within the session's timeout.
        case timedOut
        /// The TLS handshake failed or the server's certificate was refused; ``tls`` says why.
        case tls
        /// Any other transport failure.
        case other
    }

    /// What went wrong, whatever code the platform's URLSession gave it.
    public var kind: Kind
    /// The request URL.
    public var url: String
    /// URLSession's own error. Another transport's error is carried inside one with the closest
    /// code (see ``cause``).
    public var underlying: URLError
    /// Why TLS failed, when `kind` is ``Kind/tls`` (nil otherwise).
    public var tls: TLSFailure?

    /// An error of this kind for the request to `url`.
    public init(kind: Kind, url: String, underlying: URLError, tls: TLSFailure? = nil) {
        self.kind = kind
        self.url = url
        self.underlying = underlying
        self.tls = tls
    }

    /// An error of this kind from a transport whose errors are not URLErrors (AsyncHTTPClient's,
    /// NIOSSL's): `underlying` is a URLError with the closest `code`, `cause` under
    /// `NSUnderlyingErrorKey` and its description as the message, so nothing of it is lost.
    public init(kind: Kind, url: String, cause: any Error, code: URLError.Code, tls: TLSFailure? = nil) {
        let carried = URLError(code, userInfo: [NSUnderlyingErrorKey: cause, NSLocalizedDescriptionKey: "\(cause)"])
        self.init(kind: kind, url: url, underlying: carried, tls: tls)
    }

    /// The error the transport itself reported: URLSession's URLError (``underlying``), or
    /// another transport's own error (AsyncHTTPClient's, NIOSSL's) that ``underlying`` carries.
    public var cause: any Error {
        (underlying.userInfo[NSUnderlyingErrorKey] as? any Error) ?? underlying
    }

    /// Classifies a URLSession error.
    public init(_ error: URLError, url: String) {
        let message = (error as NSError).userInfo[NSLocalizedDescriptionKey] as? String ?? ""
        if let failure = Self.tlsFailure(of: error, message: message) {
            self.init(kind: .tls, url: url, underlying: error, tls: failure)
        } else {
            self.init(kind: Self.classify(error, message: message.lowercased()), url: url, underlying: error)
        }
    }

    public var description: String {
        let what = tls.map { "tls(\($0))" } ?? kind.rawValue
        return "\(what) for \(url) (URLError \(underlying.code.rawValue): \(underlying.localizedDescription))"
    }

    private static func classify(_ error: URLError, message: String) -> Kind {
        switch error.code {
        case .cannotConnectToHost, .cannotFindHost, .notConnectedToInternet, .dnsLookupFailed:
            return .cannotConnect
        case .networkConnectionLost:
            return message.contains("transfer closed") ? .truncatedResponse : .connectionLost
        case .timedOut:
            return .timedOut
        case .zeroByteResource:
            return .emptyResponse
        case .badServerResponse:
            return message.contains("empty reply") ? .emptyResponse : .malformedResponse
        case .cannotParseResponse:
            return .malformedResponse
        default:
            if message.contains("http/0.9") || message.contains("weird server reply") { return .malformedResponse }
            if message.contains("transfer closed") || message.contains("partial file") { return .truncatedResponse }
            if message.contains("empty reply") { return .emptyResponse }
            if message.contains("connection reset") { return .connectionLost }
            return .other
        }
    }
}
