/// A 4xx response, as an error.
public enum HTTPClientError: HTTPError, Equatable {
    case badRequest
    case unauthorized
    case paymentRequired
    case forbidden
    case notFound
    case methodNotAllowed
    case notAcceptable
    case proxyAuthenticationRequired
    case requestTimeout
    case conflict
    case gone
    case lengthRequired
    case preconditionFailed
    case payloadTooLarge
    case uriTooLong
    case unsupportedMediaType
    case rangeNotSatisfiable
    case expectationFailed
    case misdirectedRequest
    case unprocessableContent
    case locked
    case failedDependency
    case tooEarly
    case upgradeRequired
    case preconditionRequired
    /// 429. `retryAfter` is the wait the server asked for, in seconds from when the response was
    /// sent (already resolved from an HTTP-date), or `nil` when it gave none (or an unreadable one).
    case tooManyRequests(retryAfter: TimeInterval? = nil)
    case requestHeaderFieldsTooLarge
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
        case .tooManyRequests: return 429
        case let .other(code): return code
        default: return Self.byCode.first { $0.value == self }?.key ?? 400
        }
    }

    public var description: String {
        switch self {
        case let .tooManyRequests(retryAfter?): "HTTP 429 tooManyRequests (Retry-After \(retryAfter)s)"
        default: "HTTP \(statusCode) (\(HTTPURLResponse.localizedString(forStatusCode: statusCode)))"
        }
    }
}
