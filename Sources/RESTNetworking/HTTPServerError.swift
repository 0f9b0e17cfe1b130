/// A 5xx response, as an error: one case per status, each carrying what the response said beyond
/// its status. Equal to another when the status codes are equal, whatever either carries (see `HTTPError`).
///
/// Named like `HTTPClientError`: named statuses carry the response's header fields
/// (`.badGateway(HTTPHeaderFields)`), a 503 carries the wait it asked for,
/// `.serviceUnavailable(retryAfter: RetryAfter?)`, and a code without a name is
/// `.other(statusCode:headers:)`:
///
/// ```swift
/// if case let .failure(HTTPServerError.serviceUnavailable(retryAfter?)) = result { wait(retryAfter.seconds) }
/// catch HTTPServerError.badGateway { ... }         // every 502, whatever its headers
/// XCTAssertEqual(error as? HTTPServerError, .serviceUnavailable())
/// ```
public enum HTTPServerError: HTTPError {
    /// 500 Internal Server Error, with the response's header fields.
    case internalServerError(HTTPHeaderFields)
    /// 501 Not Implemented, with the response's header fields.
    case notImplemented(HTTPHeaderFields)
    /// 502 Bad Gateway, with the response's header fields.
    case badGateway(HTTPHeaderFields)
    /// 503 Service Unavailable, with the wait its `Retry-After` asked for; `nil` when it sent none
    /// (and then no headers are kept). `.serviceUnavailable()` and `.serviceUnavailable(retryAfter: 2)`
    /// make one in code.
    case serviceUnavailable(retryAfter: RetryAfter? = nil)
    /// 504 Gateway Timeout, with the response's header fields.
    case gatewayTimeout(HTTPHeaderFields)
    /// 505 HTTP Version Not Supported, with the response's header fields.
    case httpVersionNotSupported(HTTPHeaderFields)
    /// 506 Variant Also Negotiates, with the response's header fields.
    case variantAlsoNegotiates(HTTPHeaderFields)
    /// 507 Insufficient Storage, with the response's header fields.
    case insufficientStorage(HTTPHeaderFields)
    /// 508 Loop Detected, with the response's header fields.
    case loopDetected(HTTPHeaderFields)
    /// 510 Not Extended, with the response's header fields.
    case notExtended(HTTPHeaderFields)
    /// 511 Network Authentication Required, with the response's header fields.
    case networkAuthenticationRequired(HTTPHeaderFields)
    /// A 5xx status without a name here (509, 599, …), with the response's header fields.
    /// `init?(statusCode:retryAfter:headers:)` and `other(statusCode:)` make it only for such codes,
    /// so a named status always has its own case; make errors through them.
    case other(statusCode: Int, headers: HTTPHeaderFields)

    // MARK: The statuses as values, carrying nothing: to compare with, and to name in `tryCatch`

    /// 500 Internal Server Error, carrying no headers: equal to every 500.
    public static var internalServerError: HTTPServerError { .internalServerError(HTTPHeaderFields()) }
    /// 501 Not Implemented, carrying no headers: equal to every 501.
    public static var notImplemented: HTTPServerError { .notImplemented(HTTPHeaderFields()) }
    /// 502 Bad Gateway, carrying no headers: equal to every 502.
    public static var badGateway: HTTPServerError { .badGateway(HTTPHeaderFields()) }
    /// 504 Gateway Timeout, carrying no headers: equal to every 504.
    public static var gatewayTimeout: HTTPServerError { .gatewayTimeout(HTTPHeaderFields()) }
    /// 505 HTTP Version Not Supported, carrying no headers: equal to every 505.
    public static var httpVersionNotSupported: HTTPServerError { .httpVersionNotSupported(HTTPHeaderFields()) }
    /// 506 Variant Also Negotiates, carrying no headers: equal to every 506.
    public static var variantAlsoNegotiates: HTTPServerError { .variantAlsoNegotiates(HTTPHeaderFields()) }
    /// 507 Insufficient Storage, carrying no headers: equal to every 507.
    public static var insufficientStorage: HTTPServerError { .insufficientStorage(HTTPHeaderFields()) }
    /// 508 Loop Detected, carrying no headers: equal to every 508.
    public static var loopDetected: HTTPServerError { .loopDetected(HTTPHeaderFields()) }
    /// 510 Not Extended, carrying no headers: equal to every 510.
    public static var notExtended: HTTPServerError { .notExtended(HTTPHeaderFields()) }
    /// 511 Network Authentication Required, carrying no headers: equal to every 511.
    public static var networkAuthenticationRequired: HTTPServerError {
        .networkAuthenticationRequired(HTTPHeaderFields())
    }

    /// The error for any 5xx code: its named case when it has one (`.other(statusCode: 502)` is
    /// `.badGateway`), else `.other` carrying no headers. A code outside 500–599 is a programming error.
    public static func other(statusCode: Int) -> HTTPServerError {
        guard let error = HTTPServerError(statusCode: statusCode) else {
            preconditionFailure("HTTPServerError.other(statusCode:) takes a 5xx code, not \(statusCode)")
        }
        return error
    }

    /// The error for a 5xx status code, or `nil` outside 500–599: the code's named case, or `.other`.
    ///
    /// - Parameters:
    ///   - statusCode: the response's status code.
    ///   - retryAfter: the wait the response asked for (`Retry-After`, resolved to seconds); `nil`
    ///     reads it from `headers`. Kept by a 503.
    ///   - headers: the response's header fields, for reading rate-limit signals and the like.
    public init?(statusCode: Int, retryAfter: TimeInterval? = nil, headers: HTTPHeaderFields = HTTPHeaderFields()) {
        self.init(statusCode: statusCode, retryAfter: retryAfter, headers: headers, now: Date())
    }

    /// `init?(statusCode:retryAfter:headers:)`, with `now` resolving dates the headers give.
    init?(statusCode: Int, retryAfter: TimeInterval?, headers: HTTPHeaderFields, now: Date) {
        switch statusCode {
        case 500: self = .internalServerError(headers)
        case 501: self = .notImplemented(headers)
        case 502: self = .badGateway(headers)
        case 503:
            self = .serviceUnavailable(
                retryAfter: RetryAfter(askedBy: 503, retryAfter: retryAfter, headers: headers, now: now))
        case 504: self = .gatewayTimeout(headers)
        case 505: self = .httpVersionNotSupported(headers)
        case 506: self = .variantAlsoNegotiates(headers)
        case 507: self = .insufficientStorage(headers)
        case 508: self = .loopDetected(headers)
        case 510: self = .notExtended(headers)
        case 511: self = .networkAuthenticationRequired(headers)
        case 500...599: self = .other(statusCode: statusCode, headers: headers)
        default: return nil
        }
    }

    public var statusCode: Int {
        switch self {
        case .internalServerError: 500
        case .notImplemented: 501
        case .badGateway: 502
        case .serviceUnavailable: 503
        case .gatewayTimeout: 504
        case .httpVersionNotSupported: 505
        case .variantAlsoNegotiates: 506
        case .insufficientStorage: 507
        case .loopDetected: 508
        case .notExtended: 510
        case .networkAuthenticationRequired: 511
        case .other(let statusCode, _): statusCode
        }
    }

    /// The `Retry-After` wait of a 503, in seconds; `nil` for other statuses.
    public var retryAfter: TimeInterval? {
        switch self {
        case .serviceUnavailable(let wait): wait?.retryAfterFieldSeconds
        default: nil
        }
    }

    /// The response's header fields: the payload of a named status or `.other`, the `RetryAfter`'s
    /// of a 503 that asked for a wait, and none for a 503 that asked for none (or an error made in code).
    public var headers: HTTPHeaderFields {
        switch self {
        case .serviceUnavailable(let wait): wait?.headers ?? HTTPHeaderFields()
        case .other(_, let headers): headers
        case .internalServerError(let headers), .notImplemented(let headers), .badGateway(let headers),
            .gatewayTimeout(let headers), .httpVersionNotSupported(let headers), .variantAlsoNegotiates(let headers),
            .insufficientStorage(let headers), .loopDetected(let headers), .notExtended(let headers),
            .networkAuthenticationRequired(let headers):
            headers
        }
    }

    public var description: String { httpErrorDescription }
}
