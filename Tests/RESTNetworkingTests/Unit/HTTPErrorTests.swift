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
            let error =
                HTTPClientError(statusCode: code).map { $0 as any HTTPError } ?? HTTPServerError(statusCode: code)
            XCTAssertEqual(error?.statusCode, code)
        }
    }

    /// Issue 9: a 429 that carried `Retry-After` compared unequal to `.tooManyRequests()`, so ported
    /// code that compared errors stopped matching without any error. Equality is the status code.
    func testEqualityIsTheStatusCodeWhateverThePayload() {
        XCTAssertEqual(HTTPClientError.tooManyRequests(retryAfter: 2), .tooManyRequests())
        XCTAssertEqual(HTTPClientError(statusCode: 429, retryAfter: 0.3), .tooManyRequests(retryAfter: 30))
        XCTAssertEqual(HTTPServerError.serviceUnavailable(retryAfter: 1), .serviceUnavailable())
        XCTAssertNotEqual(HTTPClientError.tooManyRequests(), .unauthorized)
        XCTAssertEqual(HTTPClientError.other(statusCode: 404), .notFound, "the same status is the same error")
        XCTAssertNotEqual(HTTPClientError.other(statusCode: 499), .other(statusCode: 498))
        XCTAssertEqual(
            Set([HTTPClientError.tooManyRequests(retryAfter: 1), .tooManyRequests(retryAfter: 2), .notFound]).count, 2,
            "hashing agrees with equality")
        // The payload is still there to read.
        XCTAssertEqual(HTTPClientError.tooManyRequests(retryAfter: 2).retryAfter, 2)
        XCTAssertNil(HTTPClientError.unauthorized.retryAfter)
    }

    func testMatchingACaseWhateverItsPayload() {
        let error: any Error = HTTPClientError.tooManyRequests(retryAfter: 2.5)
        XCTAssertTrue(error.is(.tooManyRequests()))
        XCTAssertFalse(error.is(.unauthorized))
        XCTAssertFalse(error.is(HTTPServerError.serviceUnavailable()))
        XCTAssertTrue(HTTPServerError.serviceUnavailable(retryAfter: 1).is(.serviceUnavailable()))

        // Swift's own enum case pattern, without a binding, ignores the payload too.
        if case HTTPClientError.tooManyRequests = error {} else { XCTFail("case pattern should match any 429") }
        switch error {
        case HTTPClientError.unauthorized: XCTFail("not a 401")
        case HTTPClientError.tooManyRequests: break
        default: XCTFail("case pattern should match any 429")
        }
        do {
            throw error
        } catch HTTPClientError.tooManyRequests {
            // caught whatever Retry-After said
        } catch {
            XCTFail("catch pattern should match any 429")
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
        XCTAssertThrowsError(try limited.get()) {
            XCTAssertEqual(($0 as? HTTPClientError)?.statusCode, 429)
            XCTAssertEqual(($0 as? HTTPClientError)?.retryAfter, 1.5)
        }

        let unavailable = await ScriptedExchanges([ScriptedExchanges.response(503, headers: ["Retry-After": "3"])])
            .publisher().catchHTTPErrors().awaitResult()
        XCTAssertThrowsError(try unavailable.get()) {
            XCTAssertEqual(($0 as? HTTPServerError)?.statusCode, 503)
            XCTAssertEqual(($0 as? HTTPServerError)?.retryAfter, 3)
        }
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

    // MARK: Headers and rate-limit signals (issue 29)

    private func error(_ status: Int, _ headers: [String: String]) throws -> any HTTPError {
        let url = URL(string: "http://127.0.0.1/unit")!
        return try XCTUnwrap(
            HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!.httpError())
    }

    func testErrorsKeepTheResponsesHeadersWithoutChangingEquality() throws {
        let forbidden = try XCTUnwrap(
            try error(403, ["X-RateLimit-Remaining": "0", "Content-Type": "application/json"]) as? HTTPClientError)
        XCTAssertEqual(forbidden.headers["x-ratelimit-remaining"], "0", "looked up without regard to case")
        XCTAssertEqual(forbidden.headers["CONTENT-TYPE"], "application/json")
        XCTAssertEqual(forbidden, .forbidden, "equal by status, whatever the headers")
        XCTAssertEqual(Set([forbidden, .forbidden, .notFound]).count, 2)
        let unavailable = try XCTUnwrap(try error(503, ["Retry-After": "4", "Via": "gateway"]) as? HTTPServerError)
        XCTAssertEqual(unavailable.headers["via"], "gateway")
        XCTAssertEqual(unavailable, .serviceUnavailable())
        XCTAssertEqual(unavailable.retryAfter, 4)
        switch forbidden {
        case .notFound: XCTFail("matched the wrong status")
        case .forbidden: break
        default: XCTFail("no case matched")
        }
    }

    func testWhichAnswersAreRateLimiting() throws {
        XCTAssertTrue(try error(429, [:]).isRateLimited)
        XCTAssertTrue(try error(403, ["Retry-After": "60"]).isRateLimited, "GitHub's secondary limit")
        XCTAssertTrue(try error(403, ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1767225642"]).isRateLimited)
        XCTAssertTrue(try error(503, ["Retry-After": "1"]).isRateLimited)
        XCTAssertFalse(try error(403, [:]).isRateLimited, "a plain 403")
        XCTAssertFalse(
            try error(403, ["X-RateLimit-Remaining": "12"]).isRateLimited, "a 403 with budget left is not the limit")
        XCTAssertFalse(try error(503, [:]).isRateLimited)
        XCTAssertFalse(try error(401, ["Retry-After": "1"]).isRateLimited)
    }

    func testTheWaitComesFromRetryAfterElseTheReset() throws {
        XCTAssertEqual(
            try error(403, ["Retry-After": "3", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "9"]).rateLimitWait,
            3)
        XCTAssertEqual(
            try error(
                403,
                [
                    "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1767225642",
                    "Date": "Thu, 01 Jan 2026 00:00:00 GMT",
                ]
            ).rateLimitWait, 42, "epoch minus Date")
        XCTAssertEqual(
            try error(429, ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "2"]).rateLimitWait, 2, "seconds")
        XCTAssertNil(try error(429, [:]).rateLimitWait)
        XCTAssertNil(try error(403, ["X-RateLimit-Reset": "2"]).rateLimitWait, "not rate limited: no wait")
    }

    func testCatchingByNameStillWorks() {
        func thrown(_ error: any Error) throws { throw error }
        do {
            try thrown(HTTPClientError(statusCode: 403, headers: HTTPHeaderFields(["A": "b"]))!)
            XCTFail()
        } catch HTTPClientError.forbidden {} catch { XCTFail("\(error)") }
        do {
            try thrown(HTTPClientError.tooManyRequests(retryAfter: 2))
            XCTFail()
        } catch HTTPClientError.tooManyRequests {} catch { XCTFail("\(error)") }
        do {
            try thrown(HTTPServerError.serviceUnavailable(retryAfter: 2))
            XCTFail()
        } catch HTTPServerError.serviceUnavailable {} catch { XCTFail("\(error)") }
    }

    // MARK: Enum cases and their payloads (issue 48)

    func testAStatusCodeAlwaysGetsItsNamedCase() {
        if case .other = HTTPClientError.other(statusCode: 404) { XCTFail("404 has a name: .notFound") }
        if case .other = HTTPServerError.other(statusCode: 503) { XCTFail("503 has a name: .serviceUnavailable") }
        guard case .other(statusCode: 418, _) = HTTPClientError(statusCode: 418) else {
            return XCTFail("418 has no name here")
        }
        guard case .notFound(let headers) = HTTPClientError(statusCode: 404, headers: HTTPHeaderFields(["A": "b"]))
        else {
            return XCTFail("404 is .notFound")
        }
        XCTAssertEqual(headers["a"], "b", "a named status carries the headers as its payload")
    }

    func testA429OrA503CarriesAWaitOnlyWhenItAskedForOne() throws {
        guard
            case HTTPClientError.tooManyRequests(.some(let wait)) = try error(
                429, ["Retry-After": "2", "X-Request-Id": "r1"])
        else {
            return XCTFail("a 429 with Retry-After carries the wait")
        }
        XCTAssertEqual(wait, 2)
        XCTAssertEqual(wait.source, .retryAfterField)
        XCTAssertEqual(wait.headers["x-request-id"], "r1")
        guard
            case HTTPClientError.tooManyRequests(.some(let reset)) = try error(
                429, ["RateLimit-Remaining": "0", "RateLimit-Reset": "7"])
        else { return XCTFail("a 429 whose fields announce a reset carries that wait") }
        XCTAssertEqual(reset, 7)
        XCTAssertEqual(reset.source, .rateLimitReset)
        // Nowhere to keep headers in `.none`: a 429 that asked for no wait keeps none (documented).
        guard case HTTPClientError.tooManyRequests(nil) = try error(429, ["X-Request-Id": "r2"]) else {
            return XCTFail("a 429 without any wait carries nil")
        }
        XCTAssertTrue(try error(429, ["X-Request-Id": "r2"]).headers.isEmpty)
        guard case HTTPServerError.serviceUnavailable(nil) = try error(503, ["RateLimit-Reset": "7"]) else {
            return XCTFail("a 503 waits only for Retry-After")
        }
    }

    func testARetryAfterIsItsSeconds() {
        let wait = RetryAfter(seconds: 1.5, headers: HTTPHeaderFields(["Retry-After": "1.5"]))
        XCTAssertEqual(wait, 1.5, "equal to a number, whatever headers it holds")
        XCTAssertEqual(wait, RetryAfter(Measurement(value: 1_500, unit: UnitDuration.milliseconds)))
        XCTAssertEqual(wait.converted(to: .milliseconds).value, 1_500)
        XCTAssertLessThan(wait, 2)
        let interval: TimeInterval = 3
        XCTAssertEqual(HTTPClientError.tooManyRequests(retryAfter: RetryAfter(interval)).retryAfter, 3)
    }

    func testAForbiddenMadeInCodeKeepsItsRetryAfter() throws {
        let limited = try XCTUnwrap(HTTPClientError(statusCode: 403, retryAfter: 60))
        XCTAssertEqual(limited.retryAfter, 60)
        XCTAssertTrue(limited.isRateLimited)
        XCTAssertEqual(HTTPClientError(statusCode: 403, retryAfter: 0.25)?.retryAfter, 0.25)
        XCTAssertNil(HTTPClientError.forbidden.retryAfter)
    }
}
