/// Everything that describes one request apart from where it goes: the one place untyped calls
/// (`get(endpoint:…)`, `call(_:endpoint:…)`) and typed `Endpoint`s turn into a `URLRequest`.
struct RequestParts: Sendable {
    var method: HTTPMethod
    /// Relative to the base URL; may carry a query of its own (`posts?page=2`).
    var path: String
    var queryItems: [URLQueryItem] = []
    var headers: [String: String] = [:]
    var body: RequestBody?

    /// The request for `base`: the base URL is validated first (`RESTRequestError.invalidURL`),
    /// query items are appended to any query the path already has, and the body's
    /// `Content-Type` is set unless `headers` set one.
    func urlRequest(base: URL) throws -> URLRequest {
        if let problem = BaseURLValidation.problem(with: base) {
            throw RESTRequestError.invalidURL(baseURL: base.absoluteString, endpoint: path, reason: problem)
        }
        // Joined as text: `appendingPathComponent` would percent-encode the `?` of a path with a query.
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        if let scheme = base.scheme, scheme != scheme.lowercased(), text.hasPrefix(scheme) {
            // Schemes are case-insensitive, but URLSession on Linux refuses `HTTP://`.
            text = scheme.lowercased() + text.dropFirst(scheme.count)
        }
        let relative = path.drop { $0 == "/" }
        if !relative.isEmpty { text += "/" + relative }
        if !queryItems.isEmpty {
            text += (relative.contains("?") ? "&" : "?") + QueryItemEncoding.encode(queryItems)
        }
        guard let url = URL(string: text), url.host(percentEncoded: false) == base.host(percentEncoded: false) else {
            throw RESTRequestError.invalidURL(
                baseURL: base.absoluteString, endpoint: path,
                reason: "`\(text)` is not a valid URL")
        }
        var request = URLRequest(url: url)
        request.httpMethod = method.rawValue
        for (name, value) in headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        if let body {
            request.httpBody = try body.encoded()
            if let contentType = body.contentType, request.value(forHTTPHeaderField: "Content-Type") == nil {
                request.setValue(contentType, forHTTPHeaderField: "Content-Type")
            }
        }
        return request
    }

    /// The request one attempt sends: built for `base`, rewritten by `modifier`, then given the
    /// logical call's idempotency key (after the modifier, so a key the caller sets there is kept).
    func attempt(
        base: URL, modifiedBy modifier: (URLRequest) -> URLRequest, in scope: IdempotencyScope?
    ) throws -> URLRequest {
        var request = modifier(try urlRequest(base: base))
        scope?.stamp(&request, method: method)
        return request
    }
}
