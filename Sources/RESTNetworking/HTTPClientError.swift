/// A 4xx response, as an error: one case per status, each carrying what the response said beyond
/// its status. Equal to another when the status codes are equal, whatever either carries (see `HTTPError`).
///
/// Named statuses carry the response's header fields (`.forbidden(HTTPHeaderFields)`); a 429
/// carries the wait it asked for, `.tooManyRequests(retryAfter: RetryAfter?)`, whose `RetryAfter`
/// holds the headers too; a code without a name is `.other(statusCode:headers:)`. Swift's own
/// patterns work on it, with or without the payload:
///
/// ```swift
/// if case HTTPClientError.tooManyRequests(.some(let retryAfter)) = error { wait(retryAfter.seconds) }
/// guard case .tooManyRequests(let retryAfter) = clientError else { throw clientError }
/// catch HTTPClientError.forbidden { ... }          // every 403, whatever its headers
/// case .notFound:                                  // in a `switch` over an HTTPClientError
/// ```
///
/// Each named status is also a value carrying nothing (`.forbidden`, `.tooManyRequests()`), to
/// compare with: `XCTAssertEqual(error as? HTTPClientError, .unauthorized)`,
/// `tryCatch(HTTPClientError.tooManyRequests()) { ... }`. Read the details through `headers`,
/// `retryAfter`, `isRateLimited` and `rateLimitWait`.
public enum HTTPClientError: HTTPError {
    /// 400 Bad Request, with the response's header fields.
    case badRequest(HTTPHeaderFields)
    /// 401 Unauthorized, with the response's header fields.
    case unauthorized(HTTPHeaderFields)
    /// 402 Payment Required, with the response's header fields.
    case paymentRequired(HTTPHeaderFields)
    /// 403 Forbidden, with the response's header fields. Often a plain refusal; a rate limit when it
    /// carries `Retry-After` or `X-RateLimit-Remaining: 0` (as GitHub sends it): see `isRateLimited`.
    case forbidden(HTTPHeaderFields)
    /// 404 Not Found, with the response's header fields.
    case notFound(HTTPHeaderFields)
    /// 405 Method Not Allowed, with the response's header fields.
    case methodNotAllowed(HTTPHeaderFields)
    /// 406 Not Acceptable, with the response's header fields.
    case notAcceptable(HTTPHeaderFields)
    /// 407 Proxy Authentication Required, with the response's header fields.
    case proxyAuthenticationRequired(HTTPHeaderFields)
    /// 408 Request Timeout, with the response's header fields.
    case requestTimeout(HTTPHeaderFields)
    /// 409 Conflict, with the response's header fields.
    case conflict(HTTPHeaderFields)
    /// 410 Gone, with the response's header fields.
    case gone(HTTPHeaderFields)
    /// 411 Length Required, with the response's header fields.
    case lengthRequired(HTTPHeaderFields)
    /// 412 Precondition Failed, with the response's header fields.
    case preconditionFailed(HTTPHeaderFields)
    /// 413 Content Too Large, with the response's header fields.
    case payloadTooLarge(HTTPHeaderFields)
    /// 414 URI Too Long, with the response's header fields.
    case uriTooLong(HTTPHeaderFields)
    /// 415 Unsupported Media Type, with the response's header fields.
    case unsupportedMediaType(HTTPHeaderFields)
    /// 416 Range Not Satisfiable, with the response's header fields.
    case rangeNotSatisfiable(HTTPHeaderFields)
    /// 417 Expectation Failed, with the response's header fields.
    case expectationFailed(HTTPHeaderFields)
    /// 421 Misdirected Request, with the response's header fields.
    case misdirectedRequest(HTTPHeaderFields)
    /// 422 Unprocessable Content, with the response's header fields.
    case unprocessableContent(HTTPHeaderFields)
    /// 423 Locked, with the response's header fields.
    case locked(HTTPHeaderFields)
    /// 424 Failed Dependency, with the response's header fields.
    case failedDependency(HTTPHeaderFields)
    /// 425 Too Early, with the response's header fields.
    case tooEarly(HTTPHeaderFields)
    /// 426 Upgrade Required, with the response's header fields.
    case upgradeRequired(HTTPHeaderFields)
    /// 428 Precondition Required, with the response's header fields.
    case preconditionRequired(HTTPHeaderFields)
    /// 429 Too Many Requests, with the wait it asked for: its `Retry-After`, or the reset its
    /// rate-limit fields announce when it sent none. `nil` when it asked for no wait (and then no
    /// headers are kept). `.tooManyRequests()` and `.tooManyRequests(retryAfter: 2)` make one in code.
    case tooManyRequests(retryAfter: RetryAfter? = nil)
    /// 431 Request Header Fields Too Large, with the response's header fields.
    case requestHeaderFieldsTooLarge(HTTPHeaderFields)
    /// 451 Unavailable For Legal Reasons, with the response's header fields.
    case unavailableForLegalReasons(HTTPHeaderFields)
    /// A 4xx status without a name here (418, 499, …), with the response's header fields.
    /// `init?(statusCode:retryAfter:headers:)` and `other(statusCode:)` make it only for such codes,
    /// so a named status always has its own case; make errors through them.
    case other(statusCode: Int, headers: HTTPHeaderFields)

    // MARK: The statuses as values, carrying nothing: to compare with, and to name in `tryCatch`

    /// 400 Bad Request, carrying no headers: equal to every 400.
    public static var badRequest: HTTPClientError { .badRequest(HTTPHeaderFields()) }
    /// 401 Unauthorized, carrying no headers: equal to every 401.
    public static var unauthorized: HTTPClientError { .unauthorized(HTTPHeaderFields()) }
    /// 402 Payment Required, carrying no headers: equal to every 402.
    public static var paymentRequired: HTTPClientError { .paymentRequired(HTTPHeaderFields()) }
    /// 403 Forbidden, carrying no headers: equal to every 403.
    public static var forbidden: HTTPClientError { .forbidden(HTTPHeaderFields()) }
    /// 404 Not Found, carrying no headers: equal to every 404.
    public static var notFound: HTTPClientError { .notFound(HTTPHeaderFields()) }
    /// 405 Method Not Allowed, carrying no headers: equal to every 405.
    public static var methodNotAllowed: HTTPClientError { .methodNotAllowed(HTTPHeaderFields()) }
    /// 406 Not Acceptable, carrying no headers: equal to every 406.
    public static var notAcceptable: HTTPClientError { .notAcceptable(HTTPHeaderFields()) }
    /// 407 Proxy Authentication Required, carrying no headers: equal to every 407.
    public static var proxyAuthenticationRequired: HTTPClientError { .proxyAuthenticationRequired(HTTPHeaderFields()) }
    /// 408 Request Timeout, carrying no headers: equal to every 408.
    public static var requestTimeout: HTTPClientError { .requestTimeout(HTTPHeaderFields()) }
    /// 409 Conflict, carrying no headers: equal to every 409.
    public static var conflict: HTTPClientError { .conflict(HTTPHeaderFields()) }
    /// 410 Gone, carrying no headers: equal to every 410.
    public static var gone: HTTPClientError { .gone(HTTPHeaderFields()) }
    /// 411 Length Required, carrying no headers: equal to every 411.
    public static var lengthRequired: HTTPClientError { .lengthRequired(HTTPHeaderFields()) }
    /// 412 Precondition Failed, carrying no headers: equal to every 412.
    public static var preconditionFailed: HTTPClientError { .preconditionFailed(HTTPHeaderFields()) }
    /// 413 Content Too Large, carrying no headers: equal to every 413.
    public static var payloadTooLarge: HTTPClientError { .payloadTooLarge(HTTPHeaderFields()) }
    /// 414 URI Too Long, carrying no headers: equal to every 414.
    public static var uriTooLong: HTTPClientError { .uriTooLong(HTTPHeaderFields()) }
    /// 415 Unsupported Media Type, carrying no headers: equal to every 415.
    public static var unsupportedMediaType: HTTPClientError { .unsupportedMediaType(HTTPHeaderFields()) }
    /// 416 Range Not Satisfiable, carrying no headers: equal to every 416.
    public static var rangeNotSatisfiable: HTTPClientError { .rangeNotSatisfiable(HTTPHeaderFields()) }
    /// 417 Expectation Failed, carrying no headers: equal to every 417.
    public static var expectationFailed: HTTPClientError { .expectationFailed(HTTPHeaderFields()) }
    /// 421 Misdirected Request, carrying no headers: equal to every 421.
    public static var misdirectedRequest: HTTPClientError { .misdirectedRequest(HTTPHeaderFields()) }
    /// 422 Unprocessable Content, carrying no headers: equal to every 422.
    public static var unprocessableContent: HTTPClientError { .unprocessableContent(HTTPHeaderFields()) }
    /// 423 Locked, carrying no headers: equal to every 423.
    public static var locked: HTTPClientError { .locked(HTTPHeaderFields()) }
    /// 424 Failed Dependency, carrying no headers: equal to every 424.
    public static var failedDependency: HTTPClientError { .failedDependency(HTTPHeaderFields()) }
    /// 425 Too Early, carrying no headers: equal to every 425.
    public static var tooEarly: HTTPClientError { .tooEarly(HTTPHeaderFields()) }
    /// 426 Upgrade Required, carrying no headers: equal to every 426.
    public static var upgradeRequired: HTTPClientError { .upgradeRequired(HTTPHeaderFields()) }
    /// 428 Precondition Required, carrying no headers: equal to every 428.
    public static var preconditionRequired: HTTPClientError { .preconditionRequired(HTTPHeaderFields()) }
    /// 431 Request Header Fields Too Large, carrying no headers: equal to every 431.
    public static var requestHeaderFieldsTooLarge: HTTPClientError { .requestHeaderFieldsTooLarge(HTTPHeaderFields()) }
    /// 451 Unavailable For Legal Reasons, carrying no headers: equal to every 451.
    public static var unavailableForLegalReasons: HTTPClientError { .unavailableForLegalReasons(HTTPHeaderFields()) }

    /// The error for any 4xx code: its named case when it has one (`.other(statusCode: 404)` is
    /// `.notFound`), else `.other` carrying no headers. A code outside 400–499 is a programming error.
    public static func other(statusCode: Int) -> HTTPClientError {
        guard let error = HTTPClientError(statusCode: statusCode) else {
            preconditionFailure("HTTPClientError.other(statusCode:) takes a 4xx code, not \(statusCode)")
        }
        return error
    }

    /// The error for a 4xx status code, or `nil` outside 400–499: the code's named case, or `.other`.
    ///
    /// - Parameters:
    ///   - statusCode: the response's status code.
    ///   - retryAfter: the wait the response asked for (`Retry-After`, resolved to seconds); `nil`
    ///     reads it from `headers`. Kept by a 429 (and a 403, as a `Retry-After` field when
    ///     `headers` have none); a 429 without one carries the reset its rate-limit fields announce.
    ///   - headers: the response's header fields, for reading rate-limit signals and the like.
    public init?(statusCode: Int, retryAfter: TimeInterval? = nil, headers: HTTPHeaderFields = HTTPHeaderFields()) {
        self.init(statusCode: statusCode, retryAfter: retryAfter, headers: headers, now: Date())
    }

    /// `init?(statusCode:retryAfter:headers:)`, with `now` resolving dates the headers give.
    init?(statusCode: Int, retryAfter: TimeInterval?, headers: HTTPHeaderFields, now: Date) {
        switch statusCode {
        case 400: self = .badRequest(headers)
        case 401: self = .unauthorized(headers)
        case 402: self = .paymentRequired(headers)
        case 403: self = .forbidden(headers.keepingRetryAfter(retryAfter, now: now))
        case 404: self = .notFound(headers)
        case 405: self = .methodNotAllowed(headers)
        case 406: self = .notAcceptable(headers)
        case 407: self = .proxyAuthenticationRequired(headers)
        case 408: self = .requestTimeout(headers)
        case 409: self = .conflict(headers)
        case 410: self = .gone(headers)
        case 411: self = .lengthRequired(headers)
        case 412: self = .preconditionFailed(headers)
        case 413: self = .payloadTooLarge(headers)
        case 414: self = .uriTooLong(headers)
        case 415: self = .unsupportedMediaType(headers)
        case 416: self = .rangeNotSatisfiable(headers)
        case 417: self = .expectationFailed(headers)
        case 421: self = .misdirectedRequest(headers)
        case 422: self = .unprocessableContent(headers)
        case 423: self = .locked(headers)
        case 424: self = .failedDependency(headers)
        case 425: self = .tooEarly(headers)
        case 426: self = .upgradeRequired(headers)
        case 428: self = .preconditionRequired(headers)
        case 429:
            self = .tooManyRequests(
                retryAfter: RetryAfter(askedBy: 429, retryAfter: retryAfter, headers: headers, now: now))
        case 431: self = .requestHeaderFieldsTooLarge(headers)
        case 451: self = .unavailableForLegalReasons(headers)
        case 400...499: self = .other(statusCode: statusCode, headers: headers)
        default: return nil
        }
    }

    public var statusCode: Int {
        switch self {
        case .badRequest: 400
        case .unauthorized: 401
        case .paymentRequired: 402
        case .forbidden: 403
        case .notFound: 404
        case .methodNotAllowed: 405
        case .notAcceptable: 406
        case .proxyAuthenticationRequired: 407
        case .requestTimeout: 408
        case .conflict: 409
        case .gone: 410
        case .lengthRequired: 411
        case .preconditionFailed: 412
        case .payloadTooLarge: 413
        case .uriTooLong: 414
        case .unsupportedMediaType: 415
        case .rangeNotSatisfiable: 416
        case .expectationFailed: 417
        case .misdirectedRequest: 421
        case .unprocessableContent: 422
        case .locked: 423
        case .failedDependency: 424
        case .tooEarly: 425
        case .upgradeRequired: 426
        case .preconditionRequired: 428
        case .tooManyRequests: 429
        case .requestHeaderFieldsTooLarge: 431
        case .unavailableForLegalReasons: 451
        case .other(let statusCode, _): statusCode
        }
    }

    /// The `Retry-After` wait of a 429 or 403, in seconds; `nil` for other statuses, and for a 429
    /// whose wait is its rate-limit fields' reset (read that through `rateLimitWait`).
    public var retryAfter: TimeInterval? {
        switch self {
        case .forbidden(let headers): RetryAfter.seconds(in: headers, now: Date())
        case .tooManyRequests(let wait): wait?.retryAfterFieldSeconds
        default: nil
        }
    }

    /// The response's header fields: the payload of a named status or `.other`, the `RetryAfter`'s
    /// of a 429 that asked for a wait, and none for a 429 that asked for none (or an error made in code).
    public var headers: HTTPHeaderFields {
        switch self {
        case .tooManyRequests(let wait): wait?.headers ?? HTTPHeaderFields()
        case .other(_, let headers): headers
        case .badRequest(let headers), .unauthorized(let headers), .paymentRequired(let headers),
            .forbidden(let headers), .notFound(let headers), .methodNotAllowed(let headers),
            .notAcceptable(let headers), .proxyAuthenticationRequired(let headers), .requestTimeout(let headers),
            .conflict(let headers), .gone(let headers), .lengthRequired(let headers), .preconditionFailed(let headers),
            .payloadTooLarge(let headers), .uriTooLong(let headers), .unsupportedMediaType(let headers),
            .rangeNotSatisfiable(let headers), .expectationFailed(let headers), .misdirectedRequest(let headers),
            .unprocessableContent(let headers), .locked(let headers), .failedDependency(let headers),
            .tooEarly(let headers), .upgradeRequired(let headers), .preconditionRequired(let headers),
            .requestHeaderFieldsTooLarge(let headers), .unavailableForLegalReasons(let headers):
            headers
        }
    }

    public var description: String { httpErrorDescription }
}
