/// A 4xx response, as an error. Equal to another when the status codes are equal, whatever
/// `retryAfter` says (see `HTTPError`).
public enum HTTPClientError: HTTPError {
    /// 400 Bad Request.
    case badRequest
    /// 401 Unauthorized.
    case unauthorized
    /// 402 Payment Required.
    case paymentRequired
    /// 403 Forbidden.
    case forbidden
    /// 404 Not Found.
    case notFound
    /// 405 Method Not Allowed.
    case methodNotAllowed
    /// 406 Not Acceptable.
    case notAcceptable
    /// 407 Proxy Authentication Required.
    case proxyAuthenticationRequired
    /// 408 Request Timeout.
    case requestTimeout
    /// 409 Conflict.
    case conflict
    /// 410 Gone.
    case gone
    /// 411 Length Required.
    case lengthRequired
    /// 412 Precondition Failed.
    case preconditionFailed
    /// 413 Content Too Large.
    case payloadTooLarge
    /// 414 URI Too Long.
    case uriTooLong
    /// 415 Unsupported Media Type.
    case unsupportedMediaType
    /// 416 Range Not Satisfiable.
    case rangeNotSatisfiable
    /// 417 Expectation Failed.
    case expectationFailed
    /// 421 Misdirected Request.
    case misdirectedRequest
    /// 422 Unprocessable Content.
    case unprocessableContent
    /// 423 Locked.
    case locked
    /// 424 Failed Dependency.
    case failedDependency
    /// 425 Too Early.
    case tooEarly
    /// 426 Upgrade Required.
    case upgradeRequired
    /// 428 Precondition Required.
    case preconditionRequired
    /// 429. `retryAfter` is the wait the server asked for, in seconds from when the response was
    /// sent (already resolved from an HTTP-date), or `nil` when it gave none (or an unreadable one).
    case tooManyRequests(retryAfter: TimeInterval? = nil)
    /// 431 Request Header Fields Too Large.
    case requestHeaderFieldsTooLarge
    /// 451 Unavailable For Legal Reasons.
    case unavailableForLegalReasons
    /// Any other 4xx code.
    case other(statusCode: Int)

    private static let byCode: [Int: HTTPClientError] = [
        400: .badRequest, 401: .unauthorized, 402: .paymentRequired, 403: .forbidden, 404: .notFound,
        405: .methodNotAllowed, 406: .notAcceptable, 407: .proxyAuthenticationRequired,
        408: .requestTimeout, 409: .conflict, 410: .gone, 411: .lengthRequired, 412: .preconditionFailed,
        413: .payloadTooLarge, 414: .uriTooLong, 415: .unsupportedMediaType, 416: .rangeNotSatisfiable,
        417: .expectationFailed, 421: .misdirectedRequest, 422: .unprocessableContent, 423: .locked,
        424: .failedDependency, 425: .tooEarly, 426: .upgradeRequired, 428: .preconditionRequired,
        431: .requestHeaderFieldsTooLarge, 451: .unavailableForLegalReasons,
    ]

    /// The error for a 4xx status code, or `nil` outside 400–499.
    public init?(statusCode: Int, retryAfter: TimeInterval? = nil) {
        guard (400...499).contains(statusCode) else { return nil }
        if statusCode == 429 {
            self = .tooManyRequests(retryAfter: retryAfter)
        } else {
            self = Self.byCode[statusCode] ?? .other(statusCode: statusCode)
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
        case let .other(code): code
        }
    }

    public var retryAfter: TimeInterval? {
        if case let .tooManyRequests(retryAfter) = self { return retryAfter }
        return nil
    }

    public var description: String {
        switch self {
        case let .tooManyRequests(retryAfter?): "HTTP 429 tooManyRequests (Retry-After \(retryAfter)s)"
        default: "HTTP \(statusCode) (\(HTTPURLResponse.localizedString(forStatusCode: statusCode)))"
        }
    }
}
