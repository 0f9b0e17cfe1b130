import Foundation
import XCTest
@testable import UnderstudyCore
import UnderstudyCoreTestSupport

/// HTTP/2 clients may send each cookie pair as a `cookie` field of its own; RFC 9113 §8.2.3 has the
/// server join them with `"; "` before handing the request on. The transport hands the engine the
/// joined fields (``HTTPRequest/headers``) and the fields as received (``HTTPRequest/receivedHeaders``):
/// matching and templates read the first, the journal records the second.
final class SplitCookieTests: XCTestCase {
    private let stubs = #"""
        {"stubs":[
          {"id":"cookie","request":{"path":"/c","headers":{"Cookie":"theme=dark; session=abc"}},
           "responses":[{"status":200,"template":true,"body":"{{request.headers.cookie}}"}]}
        ]}
        """#

    func testSplitCookieFieldsAreJoinedAtTheFirstOnesPlaceAndOtherFieldsKeepTheirOrder() {
        let split = HTTPHeaders([
            .init(name: "host", value: "h"), .init(name: "cookie", value: "a=1"), .init(name: "x", value: "y"),
            .init(name: "cookie", value: "b=2"), .init(name: "cookie", value: "c=3"),
        ])
        XCTAssertEqual(
            split.joiningCookieFields(),
            HTTPHeaders([
                .init(name: "host", value: "h"), .init(name: "cookie", value: "a=1; b=2; c=3"),
                .init(name: "x", value: "y"),
            ]))
        let single: HTTPHeaders = ["cookie": "a=1; b=2", "x": "y"]
        XCTAssertEqual(single.joiningCookieFields(), single, "one field is left as it is")
        XCTAssertEqual(HTTPHeaders().joiningCookieFields(), HTTPHeaders())
    }

    func testTheEngineMatchesAndRendersTheJoinedValueAndJournalsTheFieldsAsReceived() throws {
        let engine = try makeEngine(stubs)
        let received = HTTPHeaders([
            .init(name: "host", value: "h"), .init(name: "cookie", value: "theme=dark"),
            .init(name: "cookie", value: "session=abc"),
        ])
        var request = HTTPRequest(method: "GET", target: "/c", headers: received.joiningCookieFields())
        request.receivedHeaders = received
        request.streamID = 1
        let (response, ticket) = engine.handle(request, awaitingDelivery: true)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "theme=dark; session=abc")
        ticket?.commit(.answered(status: 200, headers: HTTPHeaders(), body: response.body))
        let entry = try XCTUnwrap(engine.journalObjects.first)
        let headers = try XCTUnwrap(entry["headers"] as? [String: [String]])
        XCTAssertEqual(headers["cookie"], ["theme=dark", "session=abc"], "the journal says what came over the wire")
        XCTAssertEqual(headers["host"], ["h"])
        // Verification against the journal sees what matching saw: the joined value.
        XCTAssertEqual(engine.journalEntries.first?.request.headers["cookie"], "theme=dark; session=abc")
    }
}
