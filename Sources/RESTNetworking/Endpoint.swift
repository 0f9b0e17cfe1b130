/// One call of an API, described as a value: method, path, query items, headers, an optional
/// body, and how the answer becomes `Response`.
///
/// ```swift
/// let search = Endpoint<[Post]>(.get, "posts", query: [URLQueryItem(name: "q", value: "swift")])
/// let created = Endpoint<Post>(.post, "posts", json: NewPost(title: "hello"), encoder: encoder)
/// let posts = try await api.send(search)
/// ```
///
/// Send it with `api.send(_:)`, or chain operators first on `api.call(_:)` (async) or
/// `api.publisher(for:)` (Combine). 4xx/5xx answers fail as `HTTPClientError`/`HTTPServerError`
/// before any decoding; a body that does not decode fails as `ResponseDecodingError`.
public struct Endpoint<Response: Sendable>: Sendable {
    /// The request method.
    public var method: HTTPMethod
    /// Relative to the API's base URL; may carry a query of its own (`posts?page=2`).
    public var path: String
    /// Appended to the path's query, encoded as `QueryItemEncoding` describes.
    public var queryItems: [URLQueryItem]
    /// Set on the request (before the request modifier runs).
    public var headers: [String: String]
    /// The request body, encoded once when the endpoint was made; `nil` for none.
    public var body: RequestBody?
    /// Turns a 2xx/3xx answer into the response value.
    public var decode: @Sendable (Data, HTTPURLResponse) throws -> Response

    /// An endpoint that decodes its answer with `decode`.
    public init(
        _ method: HTTPMethod = .get, _ path: String, query: [URLQueryItem] = [],
        headers: [String: String] = [:], body: RequestBody? = nil,
        decode: @escaping @Sendable (Data, HTTPURLResponse) throws -> Response
    ) {
        self.method = method
        self.path = path
        self.queryItems = query
        self.headers = headers
        self.body = body
        self.decode = decode
    }

    var requestParts: RequestParts {
        RequestParts(method: method, path: path, queryItems: queryItems, headers: headers, body: body)
    }

    /// `decode` applied to an exchange; any error it throws becomes a `ResponseDecodingError`.
    func decodeResponse(_ output: HTTPResponseOutput) throws -> Response {
        do {
            return try decode(output.data, output.response)
        } catch let error as ResponseDecodingError {
            throw error
        } catch {
            throw ResponseDecodingError(
                underlying: error, responseType: Response.self, data: output.data,
                response: output.response)
        }
    }
}

extension Endpoint where Response: Decodable {
    /// An endpoint whose JSON answer `decoder` decodes. Sends `Accept: application/json` unless
    /// `headers` says otherwise.
    public init(
        _ method: HTTPMethod = .get, _ path: String, query: [URLQueryItem] = [],
        headers: [String: String] = [:], body: RequestBody? = nil, decoder: JSONDecoder = JSONDecoder()
    ) {
        var headers = headers
        if !headers.keys.contains(where: { $0.caseInsensitiveCompare("Accept") == .orderedSame }) {
            headers["Accept"] = "application/json"
        }
        self.init(method, path, query: query, headers: headers, body: body) { data, _ in
            try decoder.decode(Response.self, from: data)
        }
    }

    /// An endpoint that sends `json` encoded by `encoder` and decodes its JSON answer with `decoder`.
    public init<Body: Encodable>(
        _ method: HTTPMethod, _ path: String, query: [URLQueryItem] = [],
        headers: [String: String] = [:], json: Body, encoder: JSONEncoder = JSONEncoder(),
        decoder: JSONDecoder = JSONDecoder()
    ) {
        self.init(method, path, query: query, headers: headers, body: .json(json, encoder: encoder), decoder: decoder)
    }

    /// An endpoint that sends `form` form-encoded (nested values as `metadata[order]`, as Stripe
    /// encodes them; see `FormFields`) and decodes its JSON answer with `decoder`.
    public init(
        _ method: HTTPMethod, _ path: String, query: [URLQueryItem] = [],
        headers: [String: String] = [:], form: FormFields, decoder: JSONDecoder = JSONDecoder()
    ) {
        self.init(method, path, query: query, headers: headers, body: .form(form), decoder: decoder)
    }
}

extension Endpoint where Response == NoContent {
    /// An endpoint whose answer's body is ignored.
    public init(
        _ method: HTTPMethod = .get, _ path: String, query: [URLQueryItem] = [],
        headers: [String: String] = [:], body: RequestBody? = nil
    ) {
        self.init(method, path, query: query, headers: headers, body: body) { _, _ in NoContent() }
    }

    /// An endpoint that sends `json` encoded by `encoder` and ignores the answer's body.
    public init<Body: Encodable>(
        _ method: HTTPMethod, _ path: String, query: [URLQueryItem] = [],
        headers: [String: String] = [:], json: Body, encoder: JSONEncoder = JSONEncoder()
    ) {
        self.init(method, path, query: query, headers: headers, body: .json(json, encoder: encoder))
    }
}
