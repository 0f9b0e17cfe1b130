import XCTest
@testable import UnderstudyCore
@testable import UnderstudyWireMock
import UnderstudyCoreTestSupport

/// WireMock's `postServeActions` and `serveEventListeners` webhooks decoded onto the engine's
/// webhooks, socket-free: the engine renders each delivery's request (with no transport to send
/// it, the attempt then fails as `no-transport`), which is what these tests read.
/// `Tests/BlackBox/test_wiremock_webhooks.py` sends them to a real receiver.
final class WireMockWebhookTests: XCTestCase {
    override func setUp() {
        super.setUp()
        WireMockSupport.install()
    }

    func testAServeEventListenerRendersWithWireMocksDefaultsAndTemplates() throws {
        let engine = try makeEngine(
            """
            {"request": {"method": "POST", "url": "/orders"}, "response": {"status": 201, "body": "made"},
             "serveEventListeners": [{"name": "webhook", "parameters": {
               "url": "{{jsonPath originalRequest.body '$.cb'}}",
               "headers": {"X-Id": "{{jsonPath originalRequest.body '$.id'}}", "X-Many": ["a", "b"]},
               "body": "{{originalRequest.method}} {{parameters.tag}}", "tag": "t<1>",
               "delay": {"type": "fixed", "milliseconds": 250}}}]}
            """)
        let response = engine.send("POST", "/orders", body: #"{"cb": "http://127.0.0.1:9/hook", "id": "o&1"}"#)
        XCTAssertEqual(response.status, 201)
        XCTAssertEqual(response.text, "made")
        let delivery = try XCTUnwrap(engine.webhookDeliveries.first)
        XCTAssertEqual(delivery.request.method, "GET", "WireMock's default method")
        XCTAssertEqual(delivery.request.url, "http://127.0.0.1:9/hook")
        XCTAssertEqual(delivery.request.headers["X-Id"], "o&amp;1", "`{{x}}` HTML-escaped, as Handlebars does")
        XCTAssertEqual(delivery.request.headers.fields.filter { $0.name == "X-Many" }.map(\.value), ["a", "b"])
        XCTAssertEqual(delivery.request.body, [], "GET carries no body in WireMock")
        XCTAssertEqual(delivery.lastOutcome?.error, "no-transport")
    }

    func testPostServeActionsWithATemplatedMethodKeepTheBody() throws {
        let engine = try makeEngine(
            """
            {"mappings": [{"request": {"url": "/a"}, "response": {"status": 200},
              "postServeActions": [{"name": "webhook", "parameters": {
                "method": "{{jsonPath originalRequest.body '$.m'}}", "url": "http://127.0.0.1:9/a",
                "body": "{{{originalRequest.body}}}"}}]},
             {"request": {"url": "/b"}, "response": {"status": 200},
              "postServeActions": {"webhook": {"method": "PATCH", "url": "http://127.0.0.1:9/b", "base64Body": "AAEC/w=="}}}]}
            """)
        _ = engine.send("POST", "/a", body: #"{"m": "PUT"}"#)
        _ = engine.send("POST", "/b")
        let deliveries = engine.webhookDeliveries
        XCTAssertEqual(deliveries.count, 2)
        XCTAssertEqual(deliveries[0].request.method, "PUT")
        XCTAssertEqual(String(decoding: deliveries[0].request.body, as: UTF8.self), #"{"m": "PUT"}"#)
        XCTAssertEqual(deliveries[1].request.method, "PATCH")
        XCTAssertEqual(deliveries[1].request.body, [0, 1, 2, 255])
    }

    func testDelaysDecodeOntoTheWebhook() throws {
        let set = try StubLoader.parse(
            bytes: Array(
                """
                {"mappings": [
                  {"request": {"url": "/f"}, "response": {"status": 200}, "serveEventListeners": [{"name": "webhook",
                    "parameters": {"url": "http://127.0.0.1:9/f", "delay": {"type": "fixed", "milliseconds": 1500}}}]},
                  {"request": {"url": "/u"}, "response": {"status": 200}, "serveEventListeners": [{"name": "webhook",
                    "parameters": {"url": "http://127.0.0.1:9/u", "delay": {"type": "uniform", "lower": 10, "upper": 20}}}]},
                  {"request": {"url": "/l"}, "response": {"status": 200}, "serveEventListeners": [{"name": "webhook",
                    "parameters": {"url": "http://127.0.0.1:9/l", "delay": {"type": "lognormal", "median": 90, "sigma": 0.3}}}]}
                ]}
                """.utf8), file: "mappings/d.json", root: nil)
        let hooks = set.stubs.map { $0.responses[0].webhooks?.first }
        XCTAssertEqual(hooks[0]?.delayMs, 1500)
        XCTAssertNil(hooks[0]?.delayDistribution)
        guard case .uniform(let low, let high)? = hooks[1]?.delayDistribution else {
            return XCTFail("expected a uniform distribution, got \(String(describing: hooks[1]?.delayDistribution))")
        }
        XCTAssertEqual([low, high], [10, 20])
        guard case .lognormal(let median, let sigma, _)? = hooks[2]?.delayDistribution else {
            return XCTFail("expected a lognormal distribution")
        }
        XCTAssertEqual([median, sigma], [90, 0.3])
    }

    func testProblemsAreRefusedWithTheirPlaces() {
        let errors = loadErrors(
            """
            {"request": {"url": "/x"}, "response": {"status": 200},
             "serveEventListeners": [{"name": "webhook", "parameters": {"url": "http://127.0.0.1:9/x",
               "body": "a", "base64Body": "AA==", "method": "P OST", "delay": {"type": "fixed"}}}]}
            """, file: "mappings/x.json")
        let described = errors.map(\.description)
        XCTAssertTrue(described.contains { $0.contains("`P OST` is not an HTTP method") }, "\(described)")
        XCTAssertTrue(described.contains { $0.contains("give `body` or `base64Body`, not both") }, "\(described)")
        XCTAssertTrue(described.contains { $0.contains("a fixed delay needs `milliseconds`") }, "\(described)")
    }
}
