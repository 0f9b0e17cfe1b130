import XCTest
@testable import UnderstudyCore
@testable import UnderstudyRecording
@testable import UnderstudyWireMock
import UnderstudyCoreTestSupport

/// The admin API's one route table: every route is reachable through the router exactly as
/// listed, nothing is listed twice, and the worlds (main port, session port) are kept apart. The
/// table is the daemon's: the native routes composed with the WireMock adapter's and the recording
/// module's, as the CLI installs them.
final class AdminRoutesTests: XCTestCase {
    override func setUp() {
        super.setUp()
        WireMockSupport.install()
        RecordingModule.install()
    }

    private var table: AdminRoutes { AdminRoutes.standard }

    func testTheTableListsEveryEndpointOnce() {
        let listed = table.routes.map { "\($0.method) /__admin/\($0.pattern)" }
        XCTAssertEqual(Set(listed).count, listed.count, "a method and path listed twice: \(listed)")
        // Native endpoints, then each adapter's in the order installed: WireMock's (listed in its
        // `WireMockAdmin+Routes.swift`, registered by `WireMockSupport.install()`), then recording's
        // (`RecordingsAdmin+Routes.swift`, `RecordingModule.install()`).
        XCTAssertEqual(
            listed,
            [
                "GET /__admin/health", "GET /__admin/requests", "DELETE /__admin/requests",
                "POST /__admin/requests/count",
                "POST /__admin/requests/find", "GET /__admin/requests/wait", "GET /__admin/requests/{seq}/near-misses",
                "GET /__admin/stubs", "POST /__admin/stubs", "DELETE /__admin/stubs/{id}",
                "GET /__admin/scenarios", "PUT /__admin/scenarios/{name}", "GET /__admin/rate-limits",
                "GET /__admin/clock",
                "POST /__admin/clock", "GET /__admin/webhooks", "POST /__admin/webhooks",
                "POST /__admin/reset", "POST /__admin/reload",
                "GET /__admin/tls/ca.pem",
                "GET /__admin/sessions", "POST /__admin/sessions",
                "GET /__admin/sessions/{id}", "DELETE /__admin/sessions/{id}",
                "GET /__admin/", "GET /__admin/mappings", "POST /__admin/mappings", "DELETE /__admin/mappings",
                "POST /__admin/mappings/reset", "GET /__admin/mappings/{id}", "PUT /__admin/mappings/{id}",
                "DELETE /__admin/mappings/{id}", "POST /__admin/requests/reset", "GET /__admin/requests/unmatched",
                "POST /__admin/scenarios/reset", "PUT /__admin/scenarios/{name}/state",
                "GET /__admin/requests.har", "POST /__admin/recordings/snapshot", "POST /__admin/recordings/stop",
            ])
        XCTAssertEqual(WireMockAdmin.adapter.routes.map(\.pattern), WireMockAdmin.routes.map(\.pattern))
        XCTAssertEqual(
            table.adapters.map(\.name), ["wiremock", "recording"],
            "the daemon's table is composed with the WireMock and recording adapters")
        XCTAssertEqual(
            Set(AdminRoutes.native.map(\.pattern)).intersection(WireMockAdmin.adapter.routes.map(\.pattern)),
            [], "the adapter adds routes; it does not take over native ones")
    }

    func testEveryRouteReachesItsHandler() throws {
        let engine = try makeEngine(#"{"stubs":[{"id":"x","request":{"path":"/x"},"responses":[{"status":200}]}]}"#)
        for route in table.routes {
            let path =
                "/__admin/"
                + route.pattern.replacingOccurrences(of: "{seq}", with: "1")
                .replacingOccurrences(of: "{id}", with: "x").replacingOccurrences(of: "{name}", with: "x")
            let request = HTTPRequest(
                method: route.method, target: path + (route.pattern == "requests/wait" ? "?timeoutMs=0" : ""))
            let response = table.respond(request, engine: engine, reload: { .success(1) })
            let error = response.jsonObject["error"] as? String ?? ""
            XCTAssertFalse(error.hasPrefix("no admin endpoint"), "\(route.method) \(path): \(error)")
            XCTAssertNotEqual(response.status, 405, "\(route.method) \(path)")
        }
    }

    func testMainPortRoutesAreRefusedOnASessionsPort() throws {
        let engine = try makeEngine(#"{"stubs":[]}"#)
        let onSession = table.respond(
            HTTPRequest(method: "GET", target: "/__admin/sessions"), engine: engine, isSession: true,
            reload: { .success(0) })
        XCTAssertEqual(onSession.status, 404)
        XCTAssertTrue((onSession.jsonObject["error"] as? String ?? "").contains("on a session's port"))
        let onMain = table.respond(
            HTTPRequest(method: "GET", target: "/__admin/sessions"), engine: engine, reload: { .success(0) })
        XCTAssertEqual(onMain.jsonObject["error"] as? String, "sessions are not enabled on this server")
        let health = table.respond(
            HTTPRequest(method: "GET", target: "/__admin/health"), engine: engine, isSession: true,
            reload: { .success(0) })
        XCTAssertEqual(health.status, 200, "routes of both worlds answer on a session's port")
    }

    func testALiteralSegmentWinsOverAParameterWhateverTheOrder() throws {
        let engine = try makeEngine(
            #"{"stubs":[{"id":"a","request":{"path":"/a"},"scenario":"s","whenState":"Started","setState":"reset","responses":[{"status":200}]}]}"#
        )
        let reset = table.respond(
            HTTPRequest(method: "POST", target: "/__admin/scenarios/reset"), engine: engine, reload: { .success(0) })
        XCTAssertEqual(reset.status, 200, "POST scenarios/reset is the adapter's reset, not a PUT of scenario `reset`")
        let wrong = table.respond(
            HTTPRequest(method: "GET", target: "/__admin/scenarios/s"), engine: engine, reload: { .success(0) })
        XCTAssertEqual(wrong.status, 405)
        XCTAssertEqual(wrong.headers["Allow"], "PUT")
    }
}
