import RESTNetworking
import XCTest

final class HTTPErrorTests: XCTestCase {
    func testStatusCodesMapToCasesAndBack() {
        XCTAssertEqual(HTTPClientError(statusCode: 401), .unauthorized)
        XCTAssertEqual(HTTPClientError(statusCode: 404), .notFound)
        XCTAssertEqual(HTTPClientError(statusCode: 429, retryAfter: 2), .tooManyRequests(retryAfter: 2))
        XCTAssertEqual(HTTPClientError(statusCode: 499), .other(statusCode: 499))
        XCTAssertNil(HTTPClientError(statusCode: 500))
        XCTAssertEqual(HTTPServerError(statusCode: 503), .serviceUnavailable(retryAfter: nil))
        XCTAssertEqual(HTTPServerError(statusCode: 599), .other(statusCode: 599))
        XCTAssertNil(HTTPServerError(statusCode: 499))
        for code in 400...599 {
            let error = HTTPClientError(statusCode: code).map { $0 as any HTTPError } ?? HTTPServerError(statusCode: code)
            XCTAssertEqual(error?.statusCode, code)
        }
    }

    func testErrorsAreSendable() {
        let errors: [any Error & Sendable] = [HTTPClientError.unauthorized, HTTPServerError.badGateway]
        XCTAssertEqual(errors.count, 2)
    }

    func testCatchHTTPErrorsPassesSuccessAndThrowsTypedErrors() async {
        let ok = await ScriptedExchanges([ScriptedExchanges.response(204)]).publisher().catchHTTPErrors().awaitResult()
        XCTAssertEqual(try ok.get().response.statusCode, 204)

        let limited = await ScriptedExchanges([ScriptedExchanges.response(429, headers: ["Retry-After": "1.5"])])
            .publisher().catchHTTPErrors().awaitResult()
        XCTAssertThrowsError(try limited.get()) { XCTAssertEqual($0 as? HTTPClientError, .tooManyRequests(retryAfter: 1.5)) }

        let unavailable = await ScriptedExchanges([ScriptedExchanges.response(503, headers: ["Retry-After": "3"])])
            .publisher().catchHTTPErrors().awaitResult()
        XCTAssertThrowsError(try unavailable.get()) { XCTAssertEqual($0 as? HTTPServerError, .serviceUnavailable(retryAfter: 3)) }
    }

    func testAsyncCatchHTTPErrorsThrowsTheSameErrors() async {
        do {
            _ = try await ScriptedExchanges([ScriptedExchanges.response(401)]).call().catchHTTPErrors().response()
            XCTFail("expected a 401 error")
        } catch {
            XCTAssertEqual(error as? HTTPClientError, .unauthorized)
        }
    }

    func testFluentModifiersDoNotMutateTheOriginal() throws {
        let original = URLRequest(url: try XCTUnwrap(URL(string: "http://127.0.0.1/x")))
        let modified = original.addingBearerAuthorization(accessToken: "t").receivingJSON().sendingJSON()
            .addingValue("1", forHTTPHeaderField: "X-Try")
        XCTAssertNil(original.value(forHTTPHeaderField: "Authorization"))
        XCTAssertEqual(modified.value(forHTTPHeaderField: "Authorization"), "Bearer t")
        XCTAssertEqual(modified.value(forHTTPHeaderField: "Accept"), "application/json")
        XCTAssertEqual(modified.value(forHTTPHeaderField: "Content-Type"), "application/json")
        XCTAssertEqual(modified.value(forHTTPHeaderField: "X-Try"), "1")
    }
}
