/// Sends one request through a session and checks the answer is HTTP. The Combine publishers and
/// the async API both send through here, so they see the same errors: transport
/// failures classified as `HTTPTransportError`, `RESTRequestError.notHTTPResponse` for a non-HTTP
/// answer.
enum HTTPTransport {
    static func send(_ request: URLRequest, session: URLSession,
                     completion: @escaping @Sendable (Result<HTTPResponseOutput, any Error>) -> Void) -> RetryCancellation {
        let task = session.dataTask(with: request) { data, response, error in
            if let error {
                let url = request.url?.absoluteString ?? ""
                completion(.failure((error as? URLError).map { HTTPTransportError($0, url: url) } ?? error))
            } else if let response = response as? HTTPURLResponse {
                completion(.success((data: data ?? Data(), response: response)))
            } else {
                completion(.failure(RESTRequestError.notHTTPResponse(url: request.url?.absoluteString ?? "")))
            }
        }
        task.resume()
        return { task.cancel() }
    }

    static func send(_ request: URLRequest, session: URLSession) async throws -> HTTPResponseOutput {
        try Task.checkCancellation()
        let cancel = Locked<RetryCancellation?>(nil)
        do {
            return try await send(request, session: session, cancel: cancel)
        } catch where Task.isCancelled {
            // The data task was cancelled because the task was: report that, not URLError.cancelled.
            throw CancellationError()
        }
    }

    private static func send(_ request: URLRequest, session: URLSession,
                             cancel: Locked<RetryCancellation?>) async throws -> HTTPResponseOutput {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let cancelTask = send(request, session: session) { continuation.resume(with: $0) }
                cancel.withLock { $0 = cancelTask }
                if Task.isCancelled { cancelTask() }
            }
        } onCancel: {
            cancel.withLock { $0 }?()
        }
    }
}
