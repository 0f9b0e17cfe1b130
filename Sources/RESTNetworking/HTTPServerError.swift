/// A 5xx response, as an error.
public enum HTTPServerError: HTTPError, Equatable {
    case internalServerError
    case notImplemented
    case badGateway
    /// 503. `retryAfter` is the wait the server asked for, in seconds, or `nil` when it gave none.
    case serviceUnavailable(retryAfter: TimeInterval? = nil)
    case gatewayTimeout
    case httpVersionNotSupported
    case variantAlsoNegotiates
    case insufficientStorage
    case loopDetected
    case notExtended
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
        case .serviceUnavailable: return 503
        case let .other(code): return code
        default: return Self.byCode.first { $0.value == self }?.key ?? 500
        }
    }

    public var description: String {
        switch self {
        case let .serviceUnavailable(retryAfter?): "HTTP 503 serviceUnavailable (Retry-After \(retryAfter)s)"
        default: "HTTP \(statusCode) (\(HTTPURLResponse.localizedString(forStatusCode: statusCode)))"
        }
    }
}
