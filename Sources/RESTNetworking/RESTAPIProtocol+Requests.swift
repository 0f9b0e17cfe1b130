extension RESTAPIProtocol {
    /// A `GET` of `endpoint` (resolved against `baseURL`; may carry a query: `posts?page=2`).
    public func get(endpoint: String, body: Data? = nil,
                    requestModifier: @escaping RequestModifier = { $0 }) -> HTTPRequestPublisher {
        request(.get, endpoint: endpoint, body: body, requestModifier: requestModifier)
    }

    /// A `POST` of `body` to `endpoint`.
    public func post(endpoint: String, body: Data? = nil,
                     requestModifier: @escaping RequestModifier = { $0 }) -> HTTPRequestPublisher {
        request(.post, endpoint: endpoint, body: body, requestModifier: requestModifier)
    }

    /// A `PUT` of `body` to `endpoint`.
    public func put(endpoint: String, body: Data? = nil,
                    requestModifier: @escaping RequestModifier = { $0 }) -> HTTPRequestPublisher {
        request(.put, endpoint: endpoint, body: body, requestModifier: requestModifier)
    }

    /// A `PATCH` of `body` to `endpoint`.
    public func patch(endpoint: String, body: Data? = nil,
                      requestModifier: @escaping RequestModifier = { $0 }) -> HTTPRequestPublisher {
        request(.patch, endpoint: endpoint, body: body, requestModifier: requestModifier)
    }

    /// A `DELETE` of `endpoint`.
    public func delete(endpoint: String, body: Data? = nil,
                       requestModifier: @escaping RequestModifier = { $0 }) -> HTTPRequestPublisher {
        request(.delete, endpoint: endpoint, body: body, requestModifier: requestModifier)
    }

    /// A request with any method. Each subscription builds the request again and runs
    /// `requestModifier` on it, so retries pick up fresh headers.
    public func request(_ method: HTTPMethod, endpoint: String, body: Data? = nil,
                        requestModifier: @escaping RequestModifier = { $0 }) -> HTTPRequestPublisher {
        let base = baseURL
        let session = urlSession
        let publisher = CallbackPublisher<HTTPResponseOutput> { completion in
            switch Self.makeRequest(method, base: base, endpoint: endpoint, body: body) {
            case let .success(request):
                return HTTPTransport.send(requestModifier(request), session: session, completion: completion)
            case let .failure(error):
                completion(.failure(error))
                return {}
            }
        }
        return HTTPRequestPublisher(method: method, publisher)
    }

    /// The same request for async/await: a `RESTCall` to chain operators on and then run with
    /// `response()`. Nothing is sent until then, and each attempt re-runs `requestModifier`.
    public func call(_ method: HTTPMethod, endpoint: String, body: Data? = nil,
                     requestModifier: @escaping RequestModifier = { $0 }) -> RESTCall {
        let base = baseURL
        let session = urlSession
        return RESTCall(method: method) {
            let request = try Self.makeRequest(method, base: base, endpoint: endpoint, body: body).get()
            return try await HTTPTransport.send(requestModifier(request), session: session)
        }
    }

    /// Joins base and endpoint as text: `appendingPathComponent` would percent-encode the `?` of
    /// an endpoint that carries a query.
    static func makeRequest(_ method: HTTPMethod, base: URL, endpoint: String,
                            body: Data?) -> Result<URLRequest, RESTRequestError> {
        var baseText = base.absoluteString
        while baseText.hasSuffix("/") { baseText.removeLast() }
        let path = endpoint.drop { $0 == "/" }
        guard let url = URL(string: path.isEmpty ? baseText : "\(baseText)/\(path)") else {
            return .failure(.invalidURL(baseURL: base.absoluteString, endpoint: endpoint))
        }
        var request = URLRequest(url: url)
        request.httpMethod = method.rawValue
        request.httpBody = body
        return .success(request)
    }
}
