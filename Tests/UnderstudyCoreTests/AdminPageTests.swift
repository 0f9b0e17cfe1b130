import Foundation
import XCTest
@testable import UnderstudyCore
import UnderstudyCoreTestSupport

/// `/__admin/ui`: served by every engine's admin router without the token (it holds no data), with a
/// CSP that allows only the daemon itself, and nothing in it that names another origin.
final class AdminPageTests: XCTestCase {
    private func responder(token: String?) throws -> UnderstudyResponder {
        let set = try StubLoader.parse(
            bytes: Array(#"{"stubs":[{"request":{"path":"/a"},"responses":[{}]}]}"#.utf8), file: "t.json", root: nil)
        return UnderstudyResponder(
            stubs: set, configuration: EngineConfiguration(clock: ManualEngineClock(), adminToken: token))
    }

    func testThePageAndItsAssetsAreServedWithoutTheToken() throws {
        let responder = try responder(token: "t0ken")
        let assets = [
            ("/__admin/ui", "text/html"), ("/__admin/ui/", "text/html"), ("/__admin/ui/app.js", "text/javascript"),
            ("/__admin/ui/app.css", "text/css"), ("/__admin/ui/icon.svg", "image/svg+xml"),
        ]
        for (path, type) in assets {
            for method in ["GET", "HEAD"] {
                let response = responder.respond(to: HTTPRequest(method: method, target: path))
                XCTAssertEqual(response.status, 200, "\(method) \(path)")
                XCTAssertTrue(response.headers["Content-Type"]?.hasPrefix(type) ?? false, path)
                XCTAssertEqual(response.headers["Content-Security-Policy"], AdminPage.contentSecurityPolicy)
                XCTAssertEqual(response.headers["X-Content-Type-Options"], "nosniff")
            }
        }
        XCTAssertEqual(responder.engine.journalEntries.count, 0, "the page is never journaled")
    }

    /// The page is written as real files beside AdminPage.swift and embedded at build time: what
    /// the daemon serves is those files, byte for byte.
    func testTheServedAssetsAreTheFilesInTheSourceTree() throws {
        let responder = try responder(token: nil)
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/UnderstudyCore/Admin/UI")
        for (path, file) in [
            ("/__admin/ui", "index.html"), ("/__admin/ui/app.js", "app.js"), ("/__admin/ui/app.css", "app.css"),
            ("/__admin/ui/icon.svg", "icon.svg"),
        ] {
            var onDisk = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            if onDisk.hasSuffix("\n") { onDisk.removeLast() }  // a file's last newline closes its last line
            let served = responder.respond(to: HTTPRequest(method: "GET", target: path))
            XCTAssertEqual(String(decoding: served.body, as: UTF8.self), onDisk, file)
            XCTAssertGreaterThan(served.body.count, 100, file)
        }
    }

    func testTheTokenStillGuardsEverythingElse() throws {
        let responder = try responder(token: "t0ken")
        for (method, path) in [
            ("GET", "/__admin/requests"), ("GET", "/__admin/requests.har"), ("GET", "/__admin/ui/secret"),
            ("POST", "/__admin/ui"), ("GET", "/__admin/rate-limits"), ("GET", "/__admin/requests/1/near-misses"),
        ] {
            XCTAssertEqual(
                responder.respond(to: HTTPRequest(method: method, target: path)).status, 401, "\(method) \(path)")
        }
    }

    func testTheContentSecurityPolicyAllowsOnlyTheDaemon() {
        let directives = AdminPage.contentSecurityPolicy.split(separator: ";").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        XCTAssertTrue(directives.contains("default-src 'none'"))
        for directive in directives {
            let sources = directive.split(separator: " ").dropFirst()
            XCTAssertTrue(sources.allSatisfy { $0 == "'self'" || $0 == "'none'" }, directive)
        }
    }

    func testThePageNamesNoOtherOrigin() {
        // The SVG namespace is an identifier, not a fetch; nothing else may carry a scheme.
        for (name, text) in [
            ("html", AdminPage.html), ("css", AdminPage.style), ("js", AdminPage.script), ("svg", AdminPage.icon),
        ] {
            let stripped = text.replacingOccurrences(of: "http://www.w3.org/2000/svg", with: "")
            XCTAssertFalse(
                stripped.contains("http:") || stripped.contains("https:") || stripped.contains("//cdn"), name)
            XCTAssertFalse(stripped.contains("@import"), name)
        }
        for reference in ["/__admin/ui/app.js", "/__admin/ui/app.css", "/__admin/ui/icon.svg"] {
            XCTAssertTrue(AdminPage.html.contains(reference), reference)
        }
        XCTAssertFalse(AdminPage.script.contains("innerHTML"), "journal data goes into the page as text only")
    }

    func testTheIconIsAnICO() {
        XCTAssertEqual(Array(StubEngine.browserIconBytes.prefix(4)), [0, 0, 1, 0])
        XCTAssertGreaterThan(StubEngine.browserIconBytes.count, 22)
    }
}
