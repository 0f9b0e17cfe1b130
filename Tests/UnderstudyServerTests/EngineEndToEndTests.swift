import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import UnderstudyCore
import UnderstudyServer
import XCTest

/// The real engine (`UnderstudyResponder`) behind the transport, with the fixture stubs, driven
/// over HTTP: sequences, unmatched explanations, and every admin endpoint.
final class EngineEndToEndTests: XCTestCase {
    private var server: BackgroundServer!
    private var client: HTTPClient!
    private var stubDirectory: String!

    override func setUpWithError() throws {
        stubDirectory = try TestPaths.temporaryDirectory()
        for name in ["basic.json", "scenario.json"] {
            try FileManager.default.copyItem(
                atPath: TestPaths.fixture("valid/" + name), toPath: stubDirectory + "/" + name)
        }
        let paths = [stubDirectory!]
        server = try BackgroundServer.start { try UnderstudyResponder(stubPaths: paths) }
        client = HTTPClient(base: server.url)
    }

    override func tearDown() {
        server?.stop()
        if let stubDirectory { try? FileManager.default.removeItem(atPath: stubDirectory) }
    }

    func testStubResponseReachesTheClient() async throws {
        let fetched = try await client.fetch("/hello")
        XCTAssertEqual(fetched.status, 200)
        XCTAssertEqual(fetched.header("X-Stub"), "hello")
        XCTAssertEqual(fetched.header("Cache-Control"), "no-store")
        XCTAssertEqual(try fetched.json()["hello"] as? String, "world")
        let created = try curl(["-i", "-X", "POST", "-d", "{}", server.url + "/items"])
        XCTAssertTrue(created.stdout.hasPrefix("HTTP/1.1 201 Created\r\n"), created.stdout)
        XCTAssertTrue(created.stdout.contains("Location: /items/7\r\n"), created.stdout)
    }

    func testSequencesAdvancePerRequestNotPerConnection() throws {
        // Two requests on one keep-alive connection, then one on a fresh connection.
        let connection = try RawConnection(port: server.port)
        connection.send("GET /sequence HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(connection.readResponse()?.body, "first")
        connection.send("GET /sequence HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(connection.readResponse()?.body, "second")
        let other = try curl([server.url + "/sequence"])
        XCTAssertEqual(other.stdout, "third")
        connection.send("GET /sequence HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(connection.readResponse()?.body, "third", "afterLast repeat")
    }

    func testUnmatchedRequestGets404WithItsExplanationAndIsJournaled() async throws {
        let fetched = try await client.fetch("/helo")
        XCTAssertEqual(fetched.status, 404)
        XCTAssertTrue(fetched.text.contains("No stub matched GET /helo"), fetched.text)
        XCTAssertTrue(fetched.text.contains("hello"), "names the closest stub: \(fetched.text)")
        let journal = try await client.json("/__admin/requests?matched=false")
        let entries = try XCTUnwrap(journal["requests"] as? [[String: Any]])
        XCTAssertEqual(entries.count, 1)
        XCTAssertEqual(entries.first?["path"] as? String, "/helo")
        XCTAssertEqual(entries.first?["status"] as? Int, 404)
    }

    func testEveryAnsweredRequestCanBeReadBackAtOnce() async throws {
        for index in 1...20 {
            let fetched = try await client.fetch("/hello?n=\(index)")
            XCTAssertEqual(fetched.status, 200)
            let journal = try await client.json("/__admin/requests?limit=1000")
            let entries = try XCTUnwrap(journal["requests"] as? [[String: Any]])
            XCTAssertEqual(entries.count, index)
            XCTAssertEqual(entries.last?["query"] as? String, "n=\(index)")
        }
    }

    func testAdminHealthRequestsCountAndClear() async throws {
        _ = try await client.fetch("/hello")
        _ = try await client.fetch("/items", method: "POST", body: Data("{\"a\":1}".utf8))
        _ = try await client.fetch("/nowhere")
        let health = try await client.json("/__admin/health")
        XCTAssertEqual(health["status"] as? String, "ok")
        XCTAssertEqual(health["stubs"] as? Int, 11)
        XCTAssertEqual(health["requests"] as? Int, 3, "admin requests are not journaled")

        let byStub = try await client.json("/__admin/requests?stub=create-item")
        XCTAssertEqual((byStub["requests"] as? [[String: Any]])?.first?["body"] as? String, "{\"a\":1}")
        XCTAssertEqual(byStub["total"] as? Int, 1)
        let byMethod = try await client.json("/__admin/requests?method=GET&limit=1")
        XCTAssertEqual((byMethod["requests"] as? [[String: Any]])?.count, 1)
        XCTAssertEqual(byMethod["total"] as? Int, 2)
        let since = try await client.json("/__admin/requests?since=2")
        XCTAssertEqual((since["requests"] as? [[String: Any]])?.map { $0["path"] as? String }, ["/nowhere"])
        let bad = try await client.fetch("/__admin/requests?limit=abc")
        XCTAssertEqual(bad.status, 400)
        XCTAssertNotNil(try bad.json()["error"] as? String)

        let count = try await client.json(
            "/__admin/requests/count", method: "POST", body: "{\"method\":\"GET\",\"path\":\"/hello\"}")
        XCTAssertEqual(count["count"] as? Int, 1)
        let wrapped = try await client.json(
            "/__admin/requests/count", method: "POST", body: "{\"request\":{\"method\":\"POST\"}}")
        XCTAssertEqual(wrapped["count"] as? Int, 1)

        let cleared = try await client.json("/__admin/requests", method: "DELETE")
        XCTAssertEqual(cleared["cleared"] as? Int, 3)
        let after = try await client.json("/__admin/health")
        XCTAssertEqual(after["requests"] as? Int, 0)
    }

    func testAdminStubsListAddReplaceAndDelete() async throws {
        let listed = try await client.json("/__admin/stubs")
        let stubs = try XCTUnwrap(listed["stubs"] as? [[String: Any]])
        XCTAssertEqual(stubs.count, 11)
        let sequence = try XCTUnwrap(stubs.first { $0["id"] as? String == "sequence" })
        XCTAssertEqual(sequence["responses"] as? Int, 3)
        XCTAssertEqual(sequence["nextResponseIndex"] as? Int, 0)

        let added = try await client.fetch(
            "/__admin/stubs", method: "POST",
            body: Data(
                """
                {"stubs":[{"id":"added","request":{"path":"/added"},"responses":[{"status":202,"body":"new"}]},
                          {"id":"hello","request":{"path":"/hello"},"responses":[{"status":200,"body":"replaced"}]}]}
                """.utf8))
        XCTAssertEqual(added.status, 201)
        XCTAssertEqual(try added.json()["added"] as? [String], ["added"])
        XCTAssertEqual(try added.json()["replaced"] as? [String], ["hello"])
        let fetchedAdded = try await client.fetch("/added")
        XCTAssertEqual(fetchedAdded.status, 202)
        let replaced = try await client.fetch("/hello")
        XCTAssertEqual(replaced.text, "replaced")

        let invalid = try await client.fetch(
            "/__admin/stubs", method: "POST",
            body: Data(
                """
                {"stubs":[{"id":"x","request":{"path":"/x"},"responses":[{"staus":200}]}]}
                """.utf8))
        XCTAssertEqual(invalid.status, 400)
        let errors = try XCTUnwrap(try invalid.json()["errors"] as? [[String: Any]])
        XCTAssertEqual(errors.first?["suggestion"] as? String, "status")
        let stillNotThere = try await client.fetch("/x")
        XCTAssertEqual(stillNotThere.status, 404, "all-or-nothing")

        let deleted = try await client.fetch("/__admin/stubs/added", method: "DELETE")
        XCTAssertEqual(try deleted.json()["deleted"] as? String, "added")
        let gone = try await client.fetch("/added")
        XCTAssertEqual(gone.status, 404)
        let unknown = try await client.fetch("/__admin/stubs/no-such-stub", method: "DELETE")
        XCTAssertEqual(unknown.status, 404)
    }

    func testAdminScenariosAndReset() async throws {
        let locked = try await client.fetch("/profile")
        XCTAssertEqual(locked.status, 401)
        let scenarios = try await client.json("/__admin/scenarios")
        let auth = try XCTUnwrap(
            (scenarios["scenarios"] as? [[String: Any]])?.first { $0["name"] as? String == "auth" })
        XCTAssertEqual(auth["state"] as? String, "Started")
        XCTAssertEqual(auth["states"] as? [String], ["Started", "Refreshed"])

        let moved = try await client.fetch(
            "/__admin/scenarios/auth", method: "PUT", body: Data("{\"state\":\"Refreshed\"}".utf8))
        XCTAssertEqual(moved.status, 200)
        let open = try await client.fetch("/profile")
        XCTAssertEqual(open.status, 200)
        let badState = try await client.fetch(
            "/__admin/scenarios/auth", method: "PUT", body: Data("{\"state\":\"Nope\"}".utf8))
        XCTAssertEqual(badState.status, 400)
        let unknownScenario = try await client.fetch(
            "/__admin/scenarios/nope", method: "PUT", body: Data("{\"state\":\"Started\"}".utf8))
        XCTAssertEqual(unknownScenario.status, 404)

        _ = try await client.fetch("/sequence")
        let reset = try await client.json("/__admin/reset", method: "POST")
        XCTAssertEqual(reset["reset"] as? Bool, true)
        let lockedAgain = try await client.fetch("/profile")
        XCTAssertEqual(lockedAgain.status, 401, "scenarios back to Started")
        let first = try await client.fetch("/sequence")
        XCTAssertEqual(first.text, "first", "sequences back to the start")
    }

    func testAdminUnknownPathAndWrongMethod() async throws {
        let unknown = try await client.fetch("/__admin/nope")
        XCTAssertEqual(unknown.status, 404)
        let wrong = try await client.fetch("/__admin/health", method: "DELETE")
        XCTAssertEqual(wrong.status, 405)
        XCTAssertEqual(wrong.header("Allow"), "GET")
    }

    func testReloadWithAnInvalidFileKeepsTheOldStubs() async throws {
        let file = stubDirectory + "/basic.json"
        let original = try String(contentsOfFile: file, encoding: .utf8)
        try original.replacingOccurrences(of: "\"status\": 201", with: "\"staus\": 201").write(
            toFile: file, atomically: true, encoding: .utf8)
        let failed = try await client.fetch("/__admin/reload", method: "POST")
        XCTAssertEqual(failed.status, 400)
        let errors = try XCTUnwrap(try failed.json()["errors"] as? [[String: Any]])
        XCTAssertEqual(errors.count, 1)
        XCTAssertTrue((errors.first?["file"] as? String)?.hasSuffix("basic.json") ?? false, "\(errors)")
        let stillServed = try await client.fetch("/items", method: "POST")
        XCTAssertEqual(stillServed.status, 201, "the old stubs keep serving")

        try original.replacingOccurrences(of: "\"status\": 201", with: "\"status\": 202").write(
            toFile: file, atomically: true, encoding: .utf8)
        let reloaded = try await client.json("/__admin/reload", method: "POST")
        XCTAssertEqual(reloaded["stubs"] as? Int, 11)
        let changed = try await client.fetch("/items", method: "POST")
        XCTAssertEqual(changed.status, 202)
    }
}
