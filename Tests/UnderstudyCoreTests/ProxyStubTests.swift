import XCTest
@testable import UnderstudyCore
import UnderstudyCoreTestSupport

/// `proxy` responses without a socket: the URL and headers the engine decides to forward, the
/// loader's refusals, and the journal's `proxied` field. The forwarding itself is tested against
/// real daemons in Tests/BlackBox/test_proxy.py.
final class ProxyStubTests: XCTestCase {
    func testTheUpstreamURLKeepsThePathAndQueryAsSentLessThePrefix() {
        let setting = ProxySetting(to: "https://api.example.com/", stripPrefix: "/v1")
        XCTAssertEqual(setting.to, "https://api.example.com")
        XCTAssertEqual(
            setting.upstreamURL(path: "/v1/users/a%20b", query: "page=2&x=%2F"),
            "https://api.example.com/users/a%20b?page=2&x=%2F")
        XCTAssertEqual(setting.upstreamURL(path: "/v1", query: nil), "https://api.example.com/")
        XCTAssertEqual(
            setting.upstreamURL(path: "/v10/users", query: nil), "https://api.example.com/v10/users",
            "only a whole leading segment is stripped")
        XCTAssertEqual(setting.upstreamURL(path: "/other", query: ""), "https://api.example.com/other?")
        let based = ProxySetting(to: "http://127.0.0.1:8080/api", stripPrefix: "/v1/")
        XCTAssertEqual(based.upstreamURL(path: "/v1/items", query: nil), "http://127.0.0.1:8080/api/items")
        XCTAssertEqual(based.upstreamURL(path: "/v1", query: "q=1"), "http://127.0.0.1:8080/api?q=1")
    }

    func testHopByHopFieldsAndHostAreNotForwarded() {
        let headers: HTTPHeaders = [
            "Host": "127.0.0.1:1", "Connection": "keep-alive, X-Secret-Hop", "X-Secret-Hop": "1",
            "Keep-Alive": "timeout=5", "Transfer-Encoding": "chunked", "Content-Length": "3", "TE": "trailers",
            "Proxy-Authorization": "Basic eA==", "Expect": "100-continue", "Authorization": "Bearer t",
            "X-Custom": "kept", "Upgrade": "h2c",
        ]
        XCTAssertEqual(
            UpstreamRequest.forwardedHeaders(headers).fields.map(\.name), ["Authorization", "X-Custom"])
        XCTAssertEqual(
            UpstreamRequest.endToEnd(["Content-Length": "2", "Connection": "close", "Date": "x"]).fields.map(\.name),
            ["Content-Length", "Date"], "an answer keeps its length")
    }

    func testTheEngineAnswersWithWhatToForward() throws {
        let engine = try makeEngine(
            """
            {"stubs": [
              {"id": "local", "request": {"path": "/local"}, "responses": [{"body": "here"}]},
              {"id": "rest", "priority": 9, "request": {},
               "responses": [{"proxy": {"to": "http://127.0.0.1:9/base", "stripPrefix": "/v1", "timeoutMs": 250},
                              "delayMs": 5}]}
            ]}
            """)
        let request = HTTPRequest(
            method: "POST", target: "/v1/orders?id=7", headers: ["Host": "me", "X-Trace": "t1"],
            body: Array("{}".utf8))
        let (response, ticket) = engine.handle(request, awaitingDelivery: true)
        let forward = try XCTUnwrap(response.proxy)
        XCTAssertEqual(forward.method, "POST")
        XCTAssertEqual(forward.url, "http://127.0.0.1:9/base/orders?id=7")
        XCTAssertEqual(forward.headers.fields.map(\.name), ["X-Trace"])
        XCTAssertEqual(forward.body, Array("{}".utf8))
        XCTAssertEqual(forward.timeoutMs, 250)
        XCTAssertEqual(forward.upstream, "http://127.0.0.1:9/base")
        XCTAssertEqual(response.delayMs, 5)
        XCTAssertEqual(response.stubID, "rest")
        XCTAssertNil(engine.get("/local").proxy, "a local answer forwards nothing")
        // The transport notes the upstream's side, then commits what it sent.
        ticket?.noteProxied(ProxiedExchange(upstream: forward.url, status: 201, milliseconds: 12.5))
        ticket?.commit(.answered(status: 201, headers: ["Content-Type": "application/json"], body: Array("{}".utf8)))
        let entry = try XCTUnwrap(engine.journalObjects.first { $0["stub"] as? String == "rest" })
        let proxied = try XCTUnwrap(entry["proxied"] as? [String: Any])
        XCTAssertEqual(proxied["upstream"] as? String, "http://127.0.0.1:9/base/orders?id=7")
        XCTAssertEqual(proxied["status"] as? Int, 201)
        XCTAssertEqual(proxied["ms"] as? Double, 12.5)
        XCTAssertNil(proxied["error"])
        XCTAssertNil(engine.journalObjects.first { $0["stub"] as? String == "local" }?["proxied"])
    }

    func testAFailureIsJournaledWithItsReason() throws {
        let engine = try makeEngine(
            #"{"stubs": [{"id": "p", "request": {}, "responses": [{"proxy": {"to": "http://127.0.0.1:9"}}]}]}"#)
        let (response, ticket) = engine.handle(HTTPRequest(method: "GET", target: "/x"), awaitingDelivery: true)
        XCTAssertEqual(response.proxy?.url, "http://127.0.0.1:9/x")
        XCTAssertEqual(response.proxy?.timeoutMs, ProxySetting.defaultTimeoutMs)
        ticket?.noteProxied(
            ProxiedExchange(
                upstream: "http://127.0.0.1:9/x", status: nil, milliseconds: 1, error: "connection-refused",
                reason: "Couldn't connect to server"))
        ticket?.commit(.answered(status: 502, headers: [:], body: []))
        let proxied = try XCTUnwrap(engine.journalObjects.last?["proxied"] as? [String: Any])
        XCTAssertTrue(proxied["status"] is NSNull)
        XCTAssertEqual(proxied["error"] as? String, "connection-refused")
        XCTAssertEqual(proxied["reason"] as? String, "Couldn't connect to server")
    }

    func testWithoutATransportAProxyStubSays502() throws {
        let engine = try makeEngine(
            #"{"stubs": [{"id": "p", "request": {}, "responses": [{"proxy": {"to": "http://127.0.0.1:9"}}]}]}"#)
        let response = engine.get("/x")
        XCTAssertEqual(response.status, 502)
        XCTAssertTrue(response.text.contains("only the daemon forwards"), response.text)
    }

    func testTheLoaderRefusesWhatAProxyCannotDo() {
        func firstError(_ response: String) -> StubFileError? {
            loadErrors(#"{"stubs": [{"request": {"path": "/x"}, "responses": [\#(response)]}]}"#).first
        }
        let withStatus = firstError(#"{"proxy": {"to": "http://h"}, "status": 200}"#)
        XCTAssertEqual(withStatus?.jsonPath, "stubs[0].responses[0].status")
        XCTAssertTrue(withStatus?.message.contains("drop `status`") == true, "\(String(describing: withStatus))")
        XCTAssertEqual(
            firstError(#"{"proxy": {"to": "ftp://h"}}"#)?.message,
            "`to` must be an http:// or https:// URL, found `ftp://h`")
        XCTAssertEqual(firstError(#"{"proxy": {"to": "http://h?x=1"}}"#)?.jsonPath, "stubs[0].responses[0].proxy.to")
        XCTAssertEqual(firstError(#"{"proxy": {"to": "https://"}}"#)?.message, "`to` has no host: `https://`")
        XCTAssertTrue(
            firstError(#"{"proxy": {"stripPrefix": "/v1"}}"#)?.message.contains("`proxy` needs `to`") == true)
        XCTAssertEqual(
            firstError(#"{"proxy": {"to": "http://h", "stripPrefix": "v1"}}"#)?.jsonPath,
            "stubs[0].responses[0].proxy.stripPrefix")
        XCTAssertEqual(
            firstError(#"{"proxy": {"to": "http://h", "timeoutMs": 0}}"#)?.jsonPath,
            "stubs[0].responses[0].proxy.timeoutMs")
        let typo = firstError(#"{"proxy": {"to": "http://h", "stripPrefx": "/v1"}}"#)
        XCTAssertEqual(typo?.suggestion, "stripPrefix")
    }
}
