/// A 5xx response, as an error: its status code, the wait a 503 asked for, and the response's
/// header fields. Equal to another when the status codes are equal, whatever else either
/// carries (see `HTTPError`). Named like `HTTPClientError`: `.badGateway`,
/// `.serviceUnavailable()`, `.other(statusCode:)`.
public struct HTTPServerError: HTTPError {
    public let statusCode: Int
    public let retryAfter: TimeInterval?
    public let headers: HTTPHeaderFields

    /// The error for a 5xx status code, or `nil` outside 500–599.
    public init?(statusCode: Int, retryAfter: TimeInterval? = nil, headers: HTTPHeaderFields = HTTPHeaderFields()) {
        guard (500...599).contains(statusCode) else { return nil }
        self.statusCode = statusCode
        self.retryAfter = retryAfter
        self.headers = headers
    }

    private init(_ statusCode: Int) {
        self.statusCode = statusCode
        self.retryAfter = nil
        self.headers = HTTPHeaderFields()
    }

    /// 500 Internal Server Error.
    public static let internalServerError = HTTPServerError(500)
    /// 501 Not Implemented.
    public static let notImplemented = HTTPServerError(501)
    /// 502 Bad Gateway.
    public static let badGateway = HTTPServerError(502)
    /// 504 Gateway Timeout.
    public static let gatewayTimeout = HTTPServerError(504)
    /// 505 HTTP Version Not Supported.
    public static let httpVersionNotSupported = HTTPServerError(505)
    /// 506 Variant Also Negotiates.
    public static let variantAlsoNegotiates = HTTPServerError(506)
    /// 507 Insufficient Storage.
    public static let insufficientStorage = HTTPServerError(507)
    /// 508 Loop Detected.
    public static let loopDetected = HTTPServerError(508)
    /// 510 Not Extended.
    public static let notExtended = HTTPServerError(510)
    /// 511 Network Authentication Required.
    public static let networkAuthenticationRequired = HTTPServerError(511)

    /// 503. `retryAfter` is the wait the server asked for, in seconds, or `nil` when it gave none.
    public static func serviceUnavailable(retryAfter: TimeInterval? = nil) -> HTTPServerError {
        HTTPServerError(statusCode: 503, retryAfter: retryAfter)!
    }

    /// Any 5xx code (outside 500–599 is a programming error).
    public static func other(statusCode: Int) -> HTTPServerError {
        guard let error = HTTPServerError(statusCode: statusCode) else {
            preconditionFailure("HTTPServerError.other(statusCode:) takes a 5xx code, not \(statusCode)")
        }
        return error
    }

    public var description: String {
        if let retryAfter {
            return
                "HTTP \(statusCode) (\(HTTPURLResponse.localizedString(forStatusCode: statusCode))) (Retry-After \(retryAfter)s)"
        }
        return "HTTP \(statusCode) (\(HTTPURLResponse.localizedString(forStatusCode: statusCode)))"
    }

    /// `catch HTTPServerError.badGateway`: any error with that status code.
    public static func ~= (pattern: HTTPServerError, value: any Error) -> Bool {
        (value as? HTTPServerError)?.statusCode == pattern.statusCode
    }

    /// `case .serviceUnavailable:` in a `switch` over an `HTTPServerError`.
    public static func ~= (pattern: (TimeInterval?) -> HTTPServerError, value: HTTPServerError) -> Bool {
        value.statusCode == pattern(nil).statusCode
    }
}

/// `catch HTTPServerError.serviceUnavailable` (no parentheses): every 503.
public func ~= (pattern: (TimeInterval?) -> HTTPServerError, value: any Error) -> Bool {
    (value as? HTTPServerError)?.statusCode == pattern(nil).statusCode
}
