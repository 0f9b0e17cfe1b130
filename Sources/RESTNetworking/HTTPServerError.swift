/// A 5xx response, as an error. Equal to another when the status codes are equal, whatever
/// `retryAfter` says (see `HTTPError`).
public enum HTTPServerError: HTTPError {
    /// 500 Internal Server Error.
    case internalServerError
    /// 501 Not Implemented.
    case notImplemented
    /// 502 Bad Gateway.
    case badGateway
    /// 503. `retryAfter` is the wait the server asked for, in seconds, or `nil` when it gave none.
    case serviceUnavailable(retryAfter: TimeInterval? = nil)
    /// 504 Gateway Timeout.
    case gatewayTimeout
    /// 505 HTTP Version Not Supported.
    case httpVersionNotSupported
    /// 506 Variant Also Negotiates.
    case variantAlsoNegotiates
    /// 507 Insufficient Storage.
    case insufficientStorage
    /// 508 Loop Detected.
    case loopDetected
    /// 510 Not Extended.
    case notExtended
    /// 511 Network Authentication Required.
    case networkAuthenticationRequired
    /// Any other 5xx code.
    case other(statusCode: Int)

    private static let byCode: [Int: HTTPServerError] = [
        500: .internalServerError, 501: .notImplemented, 502: .badGateway, 504: .gatewayTimeout,
        505: .httpVersionNotSupported, 506: .variantAlsoNegotiates, 507: .insufficientStorage,
        508: .loopDetected, 510: .notExtended, 511: .networkAuthenticationRequired,
    ]

    /// The error for a 5xx status code, or `nil` outside 500–599.
    public init?(statusCode: Int, retryAfter: TimeInterval? = nil) {
        guard (500...599).contains(statusCode) else { return nil }
        if statusCode == 503 {
            self = .serviceUnavailable(retryAfter: retryAfter)
        } else {
            self = Self.byCode[statusCode] ?? .other(statusCode: statusCode)
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
        case let .other(code): code
        }
    }

    public var retryAfter: TimeInterval? {
        if case let .serviceUnavailable(retryAfter) = self { return retryAfter }
        return nil
    }

    public var description: String {
        switch self {
        case let .serviceUnavailable(retryAfter?): "HTTP 503 serviceUnavailable (Retry-After \(retryAfter)s)"
        default: "HTTP \(statusCode) (\(HTTPURLResponse.localizedString(forStatusCode: statusCode)))"
        }
    }
}
