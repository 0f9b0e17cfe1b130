/// A successful response whose body is not the type the endpoint promised.
///
/// Carries what is needed to see why without a debugger: the status, the URL, the type asked
/// for, where in the body decoding failed (`codingPath`, e.g. `[0].title`), what went wrong there,
/// and the start of the body as the server sent it.
public struct ResponseDecodingError: Error, Sendable, CustomStringConvertible {
    /// How much of the body `bodyPrefix` keeps.
    public static let bodyPrefixLimit = 256

    /// The response's status code.
    public var statusCode: Int
    /// The URL of the request.
    public var url: String
    /// The type decoding was asked for, e.g. `Array<Post>`.
    public var responseType: String
    /// Where decoding failed: keys joined by `.`, array indices as `[i]`; empty for the top level.
    public var codingPath: String
    /// What went wrong there (the `DecodingError`'s own explanation).
    public var reason: String
    /// The body's first `bodyPrefixLimit` bytes, as UTF-8 (invalid bytes replaced).
    public var bodyPrefix: String
    /// The body's full length in bytes.
    public var bodySize: Int
    /// The decoder's error.
    public var underlying: any Error

    /// The error for a body that did not decode as `responseType`.
    public init(underlying: any Error, responseType: Any.Type, data: Data, response: HTTPURLResponse) {
        self.underlying = underlying
        self.responseType = String(describing: responseType)
        self.statusCode = response.statusCode
        self.url = response.url?.absoluteString ?? ""
        self.bodySize = data.count
        self.bodyPrefix = String(decoding: data.prefix(Self.bodyPrefixLimit), as: UTF8.self)
        let (path, reason) = Self.location(of: underlying)
        self.codingPath = path
        self.reason = reason
    }

    public var description: String {
        let at = codingPath.isEmpty ? "" : " at \(codingPath)"
        let more = bodySize > Self.bodyPrefixLimit ? "… (\(bodySize) bytes)" : ""
        return
            "cannot decode \(responseType) from HTTP \(statusCode) \(url)\(at): \(reason); body: \(bodyPrefix)\(more)"
    }

    private static func location(of error: any Error) -> (path: String, reason: String) {
        guard let error = error as? DecodingError else { return ("", String(describing: error)) }
        switch error {
        case let .typeMismatch(_, context), let .valueNotFound(_, context), let .dataCorrupted(context):
            return (render(context.codingPath), context.debugDescription)
        case let .keyNotFound(key, context):
            return (render(context.codingPath + [key]), context.debugDescription)
        @unknown default:
            return ("", String(describing: error))
        }
    }

    private static func render(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue, key.stringValue.hasPrefix("Index ") || key.stringValue == "\(index)" {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text
    }
}
