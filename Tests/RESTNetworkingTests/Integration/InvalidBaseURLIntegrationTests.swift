import RESTNetworking
import UnderstudyTesting
import XCTest

/// Issue 9: unusable base URLs came back as transport errors wrapping `URLError` −1002/−1000, so a
/// caller could not tell "your URL is wrong" from "the network failed". They are refused before
/// anything is sent, with `RESTRequestError.invalidURL` and the rule broken.
final class InvalidBaseURLIntegrationTests: DaemonTestCase {
    /// Each unusable base URL, and a phrase its reason must contain.
    private var cases: [(base: String, reason: String)] {
        let port = understudy.baseURL.port!
        return [
            ("htp://127.0.0.1:\(port)", "scheme `htp` is not http or https"),
            ("ftp://127.0.0.1:\(port)", "scheme `ftp` is not http or https"),
            ("http://", "no host"),
            ("NOT A HOST", "no scheme"),
            ("localhost:\(port)", "scheme `localhost` is not http or https"),
            ("http:///rest/echo", "no host"),
            ("http://:\(port)", "no host"),
            ("https://exa%20mple.com/", "contains a space"),
            ("http://127.0.0.1:99999", "port 99999 is outside 1–65535"),
            ("http://127.0.0.1:0", "port 0 is outside 1–65535"),
        ]
    }

    func testEachUnusableBaseURLFailsAsInvalidURLBeforeSending() async throws {
        for (base, reason) in cases {
            let url = try XCTUnwrap(URL(string: base), base)
            let api = StubbedAPI(baseURL: url)

            let combine = await api.get(endpoint: "rest/echo").catchHTTPErrors().awaitResult()
            assertInvalidURL(combine.failure, reason: reason, base: base)

            do {
                _ = try await api.call(.get, endpoint: "rest/echo").retryOnFailure().response()
                XCTFail("\(base): expected invalidURL")
            } catch {
                assertInvalidURL(error, reason: reason, base: base)
            }

            do {
                _ = try await api.send(Endpoint<[String: Bool]>(.get, "rest/echo"))
                XCTFail("\(base): expected invalidURL")
            } catch {
                assertInvalidURL(error, reason: reason, base: base)
            }
        }
        let sent = try await understudy.admin.requests()
        XCTAssertEqual(sent.count, 0, "nothing reached the daemon")
    }

    func testUsableBaseURLsStillWork() async throws {
        let port = understudy.baseURL.port!
        for base in ["http://localhost:\(port)", "HTTP://127.0.0.1:\(port)/", "http://127.0.0.1:\(port)/rest/.."] {
            let api = StubbedAPI(baseURL: try XCTUnwrap(URL(string: base)))
            let (_, response) = try await api.call(.get, endpoint: "rest/echo").catchHTTPErrors().response()
            XCTAssertEqual(response.statusCode, 200, base)
        }
        let sent = try await journal("/rest/echo")
        XCTAssertEqual(sent.count, 3)
    }

    private func assertInvalidURL(
        _ error: (any Error)?, reason expected: String, base: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        guard case let RESTRequestError.invalidURL(_, endpoint, reason)? = error else {
            return XCTFail(
                "\(base): expected RESTRequestError.invalidURL, got \(String(describing: error))", file: file,
                line: line)
        }
        XCTAssertEqual(endpoint, "rest/echo", file: file, line: line)
        XCTAssertTrue(
            reason.contains(expected), "\(base): reason `\(reason)` should say `\(expected)`", file: file, line: line)
    }
}
