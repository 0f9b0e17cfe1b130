import XCTest
@testable import UnderstudyCore
import UnderstudyCoreTestSupport

/// Response fields: bodies, headers, `retryAfter`, delays and faults.
final class ResponseTests: XCTestCase {
    func testBodySources() throws {
        let engine = try makeEngine(
            #"""
            {"stubs":[
              {"request":{"path":"/text"},"responses":[{"body":"plain\n"}]},
              {"request":{"path":"/json"},"responses":[{"json":{"z":1,"a":[true,null,1.50,"é"]}}]},
              {"request":{"path":"/json-typed"},"responses":[{"json":[],"headers":{"content-type":"application/vnd.api+json"}}]},
              {"request":{"path":"/binary"},"responses":[{"base64":"AAEC/w=="}]},
              {"request":{"path":"/empty"},"responses":[{"status":204}]}
            ]}
            """#)
        XCTAssertEqual(engine.get("/text").text, "plain\n")
        let json = engine.get("/json")
        XCTAssertEqual(json.text, #"{"z":1,"a":[true,null,1.50,"é"]}"#, "key order and number text kept")
        XCTAssertEqual(json.headers.values(for: "Content-Type"), ["application/json"])
        XCTAssertEqual(engine.get("/json-typed").headers.values(for: "Content-Type"), ["application/vnd.api+json"])
        XCTAssertEqual(engine.get("/binary").body, [0, 1, 2, 255])
        let empty = engine.get("/empty")
        XCTAssertEqual(empty.status, 204)
        XCTAssertEqual(empty.body, [])
        XCTAssertEqual(empty.headers.count, 0)
    }

    func testHeadersKeepOrderAndRepeats() throws {
        let engine = try makeEngine(
            #"{"stubs":[{"responses":[{"headers":{"Set-Cookie":["a=1","b=2"],"X-One":"1","Link":"<x>"}}]}]}"#)
        let response = engine.get("/")
        XCTAssertEqual(response.headers.fields.map(\.name), ["Set-Cookie", "Set-Cookie", "X-One", "Link"])
        XCTAssertEqual(response.headers.values(for: "set-cookie"), ["a=1", "b=2"])
    }

    func testStatusDefaultsTo200() throws {
        XCTAssertEqual(try makeEngine(#"{"stubs":[{"responses":[{}]}]}"#).get("/").status, 200)
    }

    func testRetryAfterSecondsIsWrittenAsGiven() throws {
        let engine = try makeEngine(
            #"{"stubs":[{"responses":[{"status":429,"retryAfter":1.5},{"status":429,"retryAfter":2}]}]}"#)
        XCTAssertEqual(engine.get("/").headers["Retry-After"], "1.5")
        XCTAssertEqual(engine.get("/").headers["Retry-After"], "2")
    }

    func testRetryAfterHTTPDateCountsFromWhenTheResponseIsSent() throws {
        let clock = ManualEngineClock(start: Date(timeIntervalSince1970: 784_111_777))  // Sun, 06 Nov 1994 08:49:37 GMT
        let engine = try makeEngine(
            #"{"stubs":[{"responses":[{"status":503,"retryAfter":{"httpDateIn":60},"delayMs":2000}]}]}"#, clock: clock)
        let response = engine.get("/")
        XCTAssertEqual(response.headers["Retry-After"], "Sun, 06 Nov 1994 08:50:39 GMT", "now + 2 s delay + 60 s")
        XCTAssertEqual(response.delayMs, 2000)
    }

    func testDelayAndEveryFaultArePassedToTheTransport() throws {
        let engine = try makeEngine(
            #"""
            {"stubs":[
              {"request":{"path":"/slow"},"responses":[{"delayMs":12.5}]},
              {"request":{"path":"/reset"},"responses":[{"fault":"connection-reset"}]},
              {"request":{"path":"/empty"},"responses":[{"fault":"empty-response"}]},
              {"request":{"path":"/malformed"},"responses":[{"fault":"malformed-response"}]},
              {"request":{"path":"/headers"},"responses":[{"fault":"close-after-headers","body":"partial"}]}
            ]}
            """#)
        XCTAssertEqual(engine.get("/slow").delayMs, 12.5)
        XCTAssertNil(engine.get("/slow").fault)
        XCTAssertEqual(engine.get("/reset").fault, .connectionReset)
        XCTAssertEqual(engine.get("/empty").fault, .emptyResponse)
        XCTAssertEqual(engine.get("/malformed").fault, .malformedResponse)
        let partial = engine.get("/headers")
        XCTAssertEqual(partial.fault, .closeAfterHeaders)
        XCTAssertEqual(partial.text, "partial")
        XCTAssertEqual(
            engine.journalObjects.compactMap { $0["fault"] as? String },
            ["connection-reset", "empty-response", "malformed-response", "close-after-headers"])
    }

    /// What each HTTP/2 fault puts on the wire (and in the journal): the shorthands' own codes, the
    /// object form's choices, and nothing over HTTP/1.1 (stream 0).
    func testHTTP2FaultFramesFromTheShorthandsAndTheObjectForm() throws {
        let engine = try makeEngine(
            #"""
            {"stubs":[
              {"request":{"path":"/refused"},"responses":[{"fault":"rst-stream-refused"}]},
              {"request":{"path":"/after"},"responses":[{"fault":{"rstStream":{"errorCode":"CANCEL","afterHeaders":true}}}]},
              {"request":{"path":"/rst"},"responses":[{"fault":{"rstStream":{}}}]},
              {"request":{"path":"/this"},"responses":[{"fault":{"goaway":{"lastStreamId":"this","inFlight":"cut"}}}]},
              {"request":{"path":"/id"},"responses":[{"fault":{"goaway":{"lastStreamId":1,"errorCode":"ENHANCE_YOUR_CALM"}}}]},
              {"request":{"path":"/now"},"responses":[{"fault":"goaway-now"}]},
              {"request":{"path":"/reset"},"responses":[{"fault":"connection-reset"}]}
            ]}
            """#)
        typealias Frame = FaultParameters.Frame
        func frame(_ path: String, stream: Int32) -> Frame? {
            let response = engine.get(path)
            return response.fault.flatMap { FaultParameters.frame(of: $0, response.faultParameters, stream: stream) }
        }
        XCTAssertEqual(frame("/refused", stream: 5), Frame(errorCode: .refusedStream))
        XCTAssertNil(frame("/refused", stream: 0), "HTTP/1.1 sends no RST_STREAM")
        XCTAssertEqual(engine.get("/after").fault, .rstStreamAfterHeaders)
        XCTAssertEqual(frame("/after", stream: 1), Frame(errorCode: .cancel))
        XCTAssertEqual(engine.get("/rst").fault, .rstStream)
        XCTAssertEqual(frame("/rst", stream: 1), Frame(errorCode: .internalError))
        XCTAssertEqual(engine.get("/this").fault, .goawayNow)
        XCTAssertEqual(frame("/this", stream: 7), Frame(errorCode: .noError, lastStreamID: 7))
        XCTAssertEqual(engine.get("/id").fault, .goaway)
        XCTAssertEqual(frame("/id", stream: 7), Frame(errorCode: .enhanceYourCalm, lastStreamID: 1))
        XCTAssertEqual(frame("/now", stream: 7), Frame(errorCode: .internalError, lastStreamID: 5))
        XCTAssertEqual(frame("/now", stream: 1), Frame(errorCode: .internalError, lastStreamID: 0))
        XCTAssertNil(frame("/reset", stream: 3), "a connection-level fault sends no HTTP/2 frame")
    }
}
