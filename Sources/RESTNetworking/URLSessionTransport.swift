import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The default ``RESTTransport``: a data task on a URLSession. Its `URLError`s become
/// ``HTTPTransportError``s, classified the same on every platform.
public struct URLSessionTransport: RESTTransport {
    /// The session the data tasks run on.
    public let session: URLSession

    /// A transport over `session` (by default the shared one).
    public init(session: URLSession = .shared) {
        self.session = session
    }

    public func send(
        _ request: URLRequest,
        completion: @escaping @Sendable (Result<HTTPResponseOutput, any Error>) -> Void
    ) -> RetryCancellation {
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
}
