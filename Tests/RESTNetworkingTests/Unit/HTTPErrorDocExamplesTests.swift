import Foundation
import RESTNetworking
import XCTest

/// The code blocks of docs/restnetworking.md and the DocC article "Handling HTTP errors", compiled
/// and run here (scripts/check-docs requires every block to stand verbatim in a compiled file).
final class HTTPErrorDocExamplesTests: XCTestCase {
    let rateLimited = HTTPClientError(
        statusCode: 429, headers: HTTPHeaderFields(["Retry-After": "1.5", "X-RateLimit-Remaining": "0"]))!
    let unavailable = HTTPServerError(statusCode: 503, headers: HTTPHeaderFields(["Retry-After": "2"]))!

    /// docs/restnetworking.md, "The HTTP errors' cases".
    func guide(error: any Error, clientError: HTTPClientError, result: Result<Int, any Error>) async throws {
        func call() async throws { throw error }
        // Against an `any HTTPError` (or `any Error`): a 429 that asked for a wait.
        if case HTTPClientError.tooManyRequests(.some(let retryAfter)) = error {
            print(retryAfter.converted(to: .seconds).value, retryAfter.headers["X-RateLimit-Remaining"] ?? "-")
        }
        // On an HTTPClientError: the wait, if any (`RetryAfter?`).
        guard case .tooManyRequests(let retryAfter) = clientError else { throw clientError }
        // On a Result's failure: a 503 that asked for a wait.
        if case let .failure(HTTPServerError.serviceUnavailable(retryAfter?)) = result { print(retryAfter.seconds) }
        // Without the payload: every 403, every 429, whatever they carry.
        do {
            try await call()
        } catch HTTPClientError.forbidden {
            print("403")
        } catch HTTPClientError.tooManyRequests {
            print("429")
        }
        XCTAssertEqual(retryAfter, 1.5)
    }

    /// The DocC article's "Binding the wait".
    func bindingTheWait(error: any Error, clientError: HTTPClientError, result: Result<Int, any Error>) throws
        -> TimeInterval
    {
        // On an `any HTTPError` or `any Error`: a 429 that asked for a wait.
        if case HTTPClientError.tooManyRequests(.some(let retryAfter)) = error {
            print(retryAfter.converted(to: .seconds).value)  // 1.5
            print(retryAfter.headers["X-RateLimit-Remaining"] ?? "-")  // the response's fields
        }

        // On an HTTPClientError: the wait, if any.
        guard case .tooManyRequests(let retryAfter) = clientError else { throw clientError }
        let wait = retryAfter?.seconds ?? 1

        // On a Result's failure: a 503 that asked for a wait.
        if case let .failure(HTTPServerError.serviceUnavailable(retryAfter?)) = result {
            print(retryAfter.seconds)
        }
        return wait
    }

    /// The DocC article's "Matching a status, whatever it carries".
    func matchingAStatus(thrown: any Error, error: any Error, clientError: HTTPClientError) async throws {
        func call() async throws { throw thrown }
        do {
            try await call()
        } catch HTTPClientError.forbidden {
            print("every 403")
        } catch HTTPClientError.tooManyRequests {
            print("every 429")
        }

        switch clientError {
        case .notFound: break
        case .other(let statusCode, _): print(statusCode)
        default: break
        }

        XCTAssertEqual(error as? HTTPClientError, .unauthorized)
    }

    func testTheGuidesPatternsBindTheWaitAndMatchTheStatus() async throws {
        try await guide(error: rateLimited, clientError: rateLimited, result: .failure(unavailable))
    }

    func testTheArticlesPatternsBindTheWait() throws {
        XCTAssertEqual(
            try bindingTheWait(error: rateLimited, clientError: rateLimited, result: .failure(unavailable)), 1.5)
        XCTAssertEqual(try bindingTheWait(error: rateLimited, clientError: .tooManyRequests(), result: .success(1)), 1)
        XCTAssertThrowsError(try bindingTheWait(error: rateLimited, clientError: .forbidden, result: .success(1)))
    }

    func testTheArticlesMatchingExampleCatchesEvery429() async throws {
        // The 429 is caught by its own clause, not rethrown; a 403 by its own.
        try await matchingAStatus(thrown: rateLimited, error: HTTPClientError.unauthorized, clientError: .notFound)
        try await matchingAStatus(
            thrown: HTTPClientError(statusCode: 403)!, error: HTTPClientError.unauthorized,
            clientError: .other(statusCode: 418))
    }
}
