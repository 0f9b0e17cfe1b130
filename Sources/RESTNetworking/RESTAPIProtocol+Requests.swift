extension RESTAPIProtocol {
    /// A `GET` of `endpoint` (resolved against `baseURL`; may carry a query: `posts?page=2`), with
    /// `query` appended (encoded as `QueryItemEncoding` describes).
    public func get(
        endpoint: String, query: [URLQueryItem] = [], body: Data? = nil,
        requestModifier: @escaping RequestModifier = { $0 }
    ) -> HTTPRequestPublisher {
        request(.get, endpoint: endpoint, query: query, body: body, requestModifier: requestModifier)
    }

    /// A `POST` of `body` to `endpoint`.
    public func post(
        endpoint: String, query: [URLQueryItem] = [], body: Data? = nil,
        requestModifier: @escaping RequestModifier = { $0 }
    ) -> HTTPRequestPublisher {
        request(.post, endpoint: endpoint, query: query, body: body, requestModifier: requestModifier)
    }

    /// A `POST` of `json` encoded by `encoder` (`Content-Type: application/json`) to `endpoint`.
    public func post<Body: Encodable>(
        endpoint: String, query: [URLQueryItem] = [], json: Body,
        encoder: JSONEncoder = JSONEncoder(),
        requestModifier: @escaping RequestModifier = { $0 }
    ) -> HTTPRequestPublisher {
        request(.post, endpoint: endpoint, query: query, json: json, encoder: encoder, requestModifier: requestModifier)
    }

    /// A `PUT` of `body` to `endpoint`.
    public func put(
        endpoint: String, query: [URLQueryItem] = [], body: Data? = nil,
        requestModifier: @escaping RequestModifier = { $0 }
    ) -> HTTPRequestPublisher {
        request(.put, endpoint: endpoint, query: query, body: body, requestModifier: requestModifier)
    }

    /// A `PUT` of `json` encoded by `encoder` to `endpoint`.
    public func put<Body: Encodable>(
        endpoint: String, query: [URLQueryItem] = [], json: Body,
        encoder: JSONEncoder = JSONEncoder(),
        requestModifier: @escaping RequestModifier = { $0 }
    ) -> HTTPRequestPublisher {
        request(.put, endpoint: endpoint, query: query, json: json, encoder: encoder, requestModifier: requestModifier)
    }

    /// A `PATCH` of `body` to `endpoint`.
    public func patch(
        endpoint: String, query: [URLQueryItem] = [], body: Data? = nil,
        requestModifier: @escaping RequestModifier = { $0 }
    ) -> HTTPRequestPublisher {
        request(.patch, endpoint: endpoint, query: query, body: body, requestModifier: requestModifier)
    }

    /// A `PATCH` of `json` encoded by `encoder` to `endpoint`.
    public func patch<Body: Encodable>(
        endpoint: String, query: [URLQueryItem] = [], json: Body,
        encoder: JSONEncoder = JSONEncoder(),
        requestModifier: @escaping RequestModifier = { $0 }
    ) -> HTTPRequestPublisher {
        request(
            .patch, endpoint: endpoint, query: query, json: json, encoder: encoder, requestModifier: requestModifier)
    }

    /// A `DELETE` of `endpoint`.
    public func delete(
        endpoint: String, query: [URLQueryItem] = [], body: Data? = nil,
        requestModifier: @escaping RequestModifier = { $0 }
    ) -> HTTPRequestPublisher {
        request(.delete, endpoint: endpoint, query: query, body: body, requestModifier: requestModifier)
    }

    /// A request with any method. Each subscription builds the request again and runs
    /// `requestModifier` on it, so retries pick up fresh headers.
    public func request(
        _ method: HTTPMethod, endpoint: String, query: [URLQueryItem] = [], body: Data? = nil,
        requestModifier: @escaping RequestModifier = { $0 }
    ) -> HTTPRequestPublisher {
        publisher(
            for: RequestParts(method: method, path: endpoint, queryItems: query, body: body.map { .data($0) }),
            requestModifier: requestModifier)
    }

    /// A request with any method whose body is `json` encoded by `encoder`.
    public func request<Body: Encodable>(
        _ method: HTTPMethod, endpoint: String, query: [URLQueryItem] = [],
        json: Body, encoder: JSONEncoder = JSONEncoder(),
        requestModifier: @escaping RequestModifier = { $0 }
    ) -> HTTPRequestPublisher {
        publisher(
            for: RequestParts(method: method, path: endpoint, queryItems: query, body: .json(json, encoder: encoder)),
            requestModifier: requestModifier)
    }

    /// The same request for async/await: a `RESTCall` to chain operators on and then run with
    /// `response()`. Nothing is sent until then, and each attempt re-runs `requestModifier`.
    public func call(
        _ method: HTTPMethod, endpoint: String, query: [URLQueryItem] = [], body: Data? = nil,
        requestModifier: @escaping RequestModifier = { $0 }
    ) -> RESTCall {
        call(
            for: RequestParts(method: method, path: endpoint, queryItems: query, body: body.map { .data($0) }),
            requestModifier: requestModifier)
    }

    /// The async/await request whose body is `json` encoded by `encoder`.
    public func call<Body: Encodable>(
        _ method: HTTPMethod, endpoint: String, query: [URLQueryItem] = [],
        json: Body, encoder: JSONEncoder = JSONEncoder(),
        requestModifier: @escaping RequestModifier = { $0 }
    ) -> RESTCall {
        call(
            for: RequestParts(method: method, path: endpoint, queryItems: query, body: .json(json, encoder: encoder)),
            requestModifier: requestModifier)
    }

    /// The publisher every Combine request (typed or not) is built on.
    func publisher(for parts: RequestParts, requestModifier: @escaping RequestModifier) -> HTTPRequestPublisher {
        let base = baseURL
        let transport = self.transport
        let pacer = self.pacer.isPacing ? self.pacer : nil
        return HTTPRequestPublisher(
            method: parts.method,
            scoped: { scope in
                CallbackPublisher<HTTPResponseOutput> { completion in
                    do {
                        let request = try parts.attempt(base: base, modifiedBy: requestModifier, in: scope)
                        return HTTPTransport.send(request, transport: transport, pacer: pacer, completion: completion)
                    } catch {
                        completion(.failure(error))
                        return {}
                    }
                }
                .eraseToAnyPublisher()
            })
    }

    /// The call every async request (typed or not) is built on.
    func call(for parts: RequestParts, requestModifier: @escaping RequestModifier) -> RESTCall {
        let base = baseURL
        let transport = self.transport
        let pacer = self.pacer.isPacing ? self.pacer : nil
        return RESTCall(
            method: parts.method,
            scoped: { scope in
                let request = try parts.attempt(base: base, modifiedBy: requestModifier, in: scope)
                return try await HTTPTransport.send(request, transport: transport, pacer: pacer)
            })
    }
}
