import RESTNetworking
import UnderstudyTesting
import XCTest

/// What the client puts on the wire, read back from the daemon's journal.
final class RequestIntegrationTests: DaemonTestCase {
    func testEveryVerbSendsItsMethodBodyAndHeaders() async throws {
        let body = Data(#"{"title":"x"}"#.utf8)
        let publishers: [(String, HTTPRequestPublisher)] = [
            ("GET", api.get(endpoint: "rest/echo") { $0.receivingJSON() }),
            ("POST", api.post(endpoint: "rest/echo", body: body) { $0.sendingJSON() }),
            ("PUT", api.put(endpoint: "rest/echo", body: body) { $0.sendingJSON() }),
            ("PATCH", api.patch(endpoint: "rest/echo", body: body) { $0.sendingJSON() }),
            ("DELETE", api.delete(endpoint: "rest/echo") { $0.addingValue("yes", forHTTPHeaderField: "X-Confirm") }),
        ]
        for (method, publisher) in publishers {
            XCTAssertEqual(publisher.method?.rawValue, method)
            let output = try await publisher.catchHTTPErrors().awaitResult().get()
            XCTAssertEqual(output.response.statusCode, 200, method)
        }

        let requests = try await journal("/rest/echo")
        XCTAssertEqual(requests.map(\.method), ["GET", "POST", "PUT", "PATCH", "DELETE"])
        XCTAssertEqual(requests[0].header("Accept"), "application/json")
        for request in requests[1...3] {
            XCTAssertEqual(request.body, #"{"title":"x"}"#, request.method)
            XCTAssertEqual(request.header("Content-Type"), "application/json", request.method)
        }
        XCTAssertEqual(requests[4].header("X-Confirm"), "yes")
    }

    func testEndpointsResolveAgainstABaseURLWithAPathAndKeepTheirQuery() async throws {
        let prefixed = StubbedAPI(baseURL: understudy.baseURL.appendingPathComponent("rest"))
        _ = try await prefixed.call(.get, endpoint: "echo?page=2&sort=new").response()
        _ = try await prefixed.call(.get, endpoint: "/echo").response()

        let requests = try await journal("/rest/echo")
        XCTAssertEqual(requests.map(\.path), ["/rest/echo", "/rest/echo"])
        XCTAssertEqual(requests.map(\.query), ["page=2&sort=new", nil])
    }

    func testNothingIsSentUntilSubscriptionAndEachSubscriptionSendsAgain() async throws {
        let counter = Locked(0)
        let publisher = api.get(endpoint: "rest/echo") { request in
            let n = counter.withLock {
                $0 += 1
                return $0
            }
            return request.addingValue("\(n)", forHTTPHeaderField: "X-Attempt")
        }
        let before = try await journal("/rest/echo").count
        XCTAssertEqual(before, 0, "building a publisher sends nothing")

        _ = try await publisher.awaitResult().get()
        _ = try await publisher.awaitResult().get()
        let requests = try await journal("/rest/echo")
        XCTAssertEqual(requests.map { $0.header("X-Attempt") }, ["1", "2"], "the modifier runs per subscription")
    }
}
