/// A request body and its `Content-Type`.
///
/// An `Encodable` value is encoded when the body is made, so every attempt (every retry) sends
/// the same bytes; if encoding fails, the request fails with the `EncodingError` before anything
/// is sent.
public struct RequestBody: Sendable {
    /// Sent as `Content-Type` unless the request sets one itself.
    public var contentType: String?
    private let content: Result<Data, any Error>

    private init(contentType: String?, content: Result<Data, any Error>) {
        self.contentType = contentType
        self.content = content
    }

    /// `value` encoded by `encoder`, as `application/json`.
    public static func json<Value: Encodable>(_ value: Value, encoder: JSONEncoder = JSONEncoder()) -> RequestBody {
        RequestBody(contentType: "application/json", content: Result { try encoder.encode(value) })
    }

    /// Bytes as they are.
    public static func data(_ data: Data, contentType: String? = nil) -> RequestBody {
        RequestBody(contentType: contentType, content: .success(data))
    }

    /// Text, UTF-8 encoded.
    public static func text(_ text: String, contentType: String = "text/plain; charset=utf-8") -> RequestBody {
        RequestBody(contentType: contentType, content: .success(Data(text.utf8)))
    }

    /// An HTML form (`application/x-www-form-urlencoded`), encoded like query items (see
    /// `QueryItemEncoding`).
    public static func form(_ items: [URLQueryItem]) -> RequestBody {
        RequestBody(
            contentType: "application/x-www-form-urlencoded",
            content: .success(Data(QueryItemEncoding.encode(items).utf8)))
    }

    /// An HTML form with nested values in bracketed names, as Stripe encodes them
    /// (`metadata[order]=7`; see `FormFields`).
    public static func form(_ fields: FormFields) -> RequestBody {
        RequestBody(contentType: "application/x-www-form-urlencoded", content: .success(Data(fields.encoded.utf8)))
    }

    /// The bytes to send, or the error encoding them raised.
    public func encoded() throws -> Data {
        try content.get()
    }
}
