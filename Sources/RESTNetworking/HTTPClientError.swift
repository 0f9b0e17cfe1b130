/// A 4xx response, as an error: its status code, the wait a rate-limiting answer asked for, and
/// the response's header fields. Equal to another when the status codes are equal, whatever else
/// either carries (see `HTTPError`).
///
/// Each status has a name (`.forbidden`, `.notFound`, `.tooManyRequests()`, `.other(statusCode:)`)
/// usable wherever an error value is: `XCTAssertEqual(error, .forbidden)`,
/// `catch HTTPClientError.forbidden { ... }`, `case .notFound:` in a `switch`.
public struct HTTPClientError: HTTPError {
    public let statusCode: Int
    public let retryAfter: TimeInterval?
    public let headers: HTTPHeaderFields

    /// The error for a 4xx status code, or `nil` outside 400–499.
    ///
    /// - Parameters:
    ///   - statusCode: the response's status code.
    ///   - retryAfter: the wait the response asked for (`Retry-After`, resolved to seconds).
    ///   - headers: the response's header fields, for reading rate-limit signals and the like.
    public init?(statusCode: Int, retryAfter: TimeInterval? = nil, headers: HTTPHeaderFields = HTTPHeaderFields()) {
        guard (400...499).contains(statusCode) else { return nil }
        self.statusCode = statusCode
        self.retryAfter = retryAfter
        self.headers = headers
    }

    private init(_ statusCode: Int) {
        self.statusCode = statusCode
        self.retryAfter = nil
        self.headers = HTTPHeaderFields()
    }

    /// 400 Bad Request.
    public static let badRequest = HTTPClientError(400)
    /// 401 Unauthorized.
    public static let unauthorized = HTTPClientError(401)
    /// 402 Payment Required.
    public static let paymentRequired = HTTPClientError(402)
    /// 403. Often a plain refusal; a rate limit when it carries `Retry-After` or
    /// `X-RateLimit-Remaining: 0` (as GitHub sends it): see `isRateLimited`.
    public static let forbidden = HTTPClientError(403)
    /// 404 Not Found.
    public static let notFound = HTTPClientError(404)
    /// 405 Method Not Allowed.
    public static let methodNotAllowed = HTTPClientError(405)
    /// 406 Not Acceptable.
    public static let notAcceptable = HTTPClientError(406)
    /// 407 Proxy Authentication Required.
    public static let proxyAuthenticationRequired = HTTPClientError(407)
    /// 408 Request Timeout.
    public static let requestTimeout = HTTPClientError(408)
    /// 409 Conflict.
    public static let conflict = HTTPClientError(409)
    /// 410 Gone.
    public static let gone = HTTPClientError(410)
    /// 411 Length Required.
    public static let lengthRequired = HTTPClientError(411)
    /// 412 Precondition Failed.
    public static let preconditionFailed = HTTPClientError(412)
    /// 413 Content Too Large.
    public static let payloadTooLarge = HTTPClientError(413)
    /// 414 URI Too Long.
    public static let uriTooLong = HTTPClientError(414)
    /// 415 Unsupported Media Type.
    public static let unsupportedMediaType = HTTPClientError(415)
    /// 416 Range Not Satisfiable.
    public static let rangeNotSatisfiable = HTTPClientError(416)
    /// 417 Expectation Failed.
    public static let expectationFailed = HTTPClientError(417)
    /// 421 Misdirected Request.
    public static let misdirectedRequest = HTTPClientError(421)
    /// 422 Unprocessable Content.
    public static let unprocessableContent = HTTPClientError(422)
    /// 423 Locked.
    public static let locked = HTTPClientError(423)
    /// 424 Failed Dependency.
    public static let failedDependency = HTTPClientError(424)
    /// 425 Too Early.
    public static let tooEarly = HTTPClientError(425)
    /// 426 Upgrade Required.
    public static let upgradeRequired = HTTPClientError(426)
    /// 428 Precondition Required.
    public static let preconditionRequired = HTTPClientError(428)
    /// 431 Request Header Fields Too Large.
    public static let requestHeaderFieldsTooLarge = HTTPClientError(431)
    /// 451 Unavailable For Legal Reasons.
    public static let unavailableForLegalReasons = HTTPClientError(451)

    /// 429. `retryAfter` is the wait the server asked for, in seconds from when the response was
    /// sent (already resolved from an HTTP-date), or `nil` when it gave none (or an unreadable one).
    public static func tooManyRequests(retryAfter: TimeInterval? = nil) -> HTTPClientError {
        HTTPClientError(statusCode: 429, retryAfter: retryAfter)!
    }

    /// Any 4xx code (outside 400–499 is a programming error).
    public static func other(statusCode: Int) -> HTTPClientError {
        guard let error = HTTPClientError(statusCode: statusCode) else {
            preconditionFailure("HTTPClientError.other(statusCode:) takes a 4xx code, not \(statusCode)")
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

    /// `catch HTTPClientError.forbidden`: any error with that status code.
    public static func ~= (pattern: HTTPClientError, value: any Error) -> Bool {
        (value as? HTTPClientError)?.statusCode == pattern.statusCode
    }

    /// `case .tooManyRequests:` in a `switch` over an `HTTPClientError`.
    public static func ~= (pattern: (TimeInterval?) -> HTTPClientError, value: HTTPClientError) -> Bool {
        value.statusCode == pattern(nil).statusCode
    }
}

/// `catch HTTPClientError.tooManyRequests` (no parentheses): every 429, whatever it carries.
public func ~= (pattern: (TimeInterval?) -> HTTPClientError, value: any Error) -> Bool {
    (value as? HTTPClientError)?.statusCode == pattern(nil).statusCode
}
