import XCTest
@testable import UnderstudyCore
@testable import UnderstudyRecording
import UnderstudyCoreTestSupport

/// Journal entries → HAR 1.2, without sockets: the admin endpoint over a real engine, and the JSON Lines
/// conversion over hand-written lines in the documented journal shape (including `response`).
final class HARExportTests: XCTestCase {
    // `GET /__admin/requests.har` is the recording module's route, installed as the CLI installs it.
    override func setUp() {
        super.setUp()
        RecordingModule.install()
    }

    private func entries(_ har: [String: Any]) -> [[String: Any]] {
        ((har["log"] as? [String: Any])?["entries"] as? [[String: Any]]) ?? []
    }

    func testTheAdminExportCarriesRequestsInOrderWithMonotonicTimes() throws {
        let clock = ManualEngineClock()
        let engine = try makeEngine(
            #"{"stubs":[{"id":"a","request":{"path":"/a"},"responses":[{"status":201}]}]}"#, clock: clock)
        _ = engine.send(
            "POST", "/a?x=1&x=2", headers: ["Host": "example.test:8080", "Content-Type": "text/plain"], body: "hi")
        clock.advance(milliseconds: 250.5)
        _ = engine.get("/b")
        let response = engine.adminCall("GET", "/__admin/requests.har")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.headers["Content-Disposition"], #"attachment; filename="understudy.har""#)
        let har = response.jsonObject
        let log = try XCTUnwrap(har["log"] as? [String: Any])
        XCTAssertEqual(log["version"] as? String, "1.2")
        let list = entries(har)
        XCTAssertEqual(list.count, 2)
        let request = try XCTUnwrap(list[0]["request"] as? [String: Any])
        XCTAssertEqual(request["method"] as? String, "POST")
        XCTAssertEqual(request["url"] as? String, "http://example.test:8080/a?x=1&x=2")
        XCTAssertEqual((request["queryString"] as? [[String: String]])?.map { $0["value"]! }, ["1", "2"])
        XCTAssertEqual((request["postData"] as? [String: Any])?["text"] as? String, "hi")
        XCTAssertEqual((request["postData"] as? [String: Any])?["mimeType"] as? String, "text/plain")
        XCTAssertEqual(request["bodySize"] as? Int, 2)
        XCTAssertEqual((list[0]["response"] as? [String: Any])?["status"] as? Int, 201)
        XCTAssertEqual(
            (list[1]["request"] as? [String: Any])?["url"] as? String, "http://127.0.0.1/b", "no Host: the default")
        XCTAssertEqual(list[0]["startedDateTime"] as? String, "2026-01-01T00:00:00.000Z")
        XCTAssertEqual(
            list[1]["startedDateTime"] as? String, "2026-01-01T00:00:00.251Z", "250.5 ms later, to the millisecond")
        XCTAssertEqual(engine.journalEntries.count, 2, "exporting is not journaled")
    }

    func testFiltersApplyAndBadOnesAreRefused() throws {
        let engine = try makeEngine(#"{"stubs":[{"id":"a","request":{"path":"/a"},"responses":[{}]}]}"#)
        _ = engine.get("/a")
        _ = engine.get("/b")
        _ = engine.get("/a")
        XCTAssertEqual(entries(engine.adminCall("GET", "/__admin/requests.har?matched=false").jsonObject).count, 1)
        XCTAssertEqual(entries(engine.adminCall("GET", "/__admin/requests.har?stub=a&limit=1").jsonObject).count, 1)
        XCTAssertEqual(entries(engine.adminCall("GET", "/__admin/requests.har?since=1").jsonObject).count, 2)
        XCTAssertEqual(engine.adminCall("GET", "/__admin/requests.har?matchd=true").status, 400)
        XCTAssertEqual(engine.adminCall("DELETE", "/__admin/requests.har").status, 405)
    }

    func testJournalLinesWithResponsesConvert() throws {
        let lines = """
            {"seq":7,"time":"2026-11-22T02:14:38.123Z","elapsedMs":12.345,"method":"PUT","path":"/bin","query":null,"headers":{"host":["h:1"],"content-type":["application/octet-stream"],"x-a":["1","2"]},"bodyBase64":"/wAB","matched":true,"stub":"bin","responseIndex":0,"status":200,"fault":null,"scenario":{"name":"s","from":"Started","to":"B"},"rateLimited":false,"outcome":"answered","delayMs":40,"outcomeMs":52.845,"response":{"status":200,"headers":{"content-type":["application/json"],"set-cookie":["a=1"]},"bodySize":9000,"body":"{\\"ok\\":1}","truncated":true}}

            {"seq":8,"time":"2026-11-22T02:14:39.000Z","elapsedMs":1012.345,"method":"GET","path":"/gone","query":"","headers":{},"body":"","matched":true,"stub":"r","responseIndex":0,"status":null,"fault":"connection-reset","scenario":null,"rateLimited":false,"delayMs":25}
            """
        let har = jsonObject(try HARExport.har(fromJournalLines: Array(lines.utf8)))
        let list = entries(har)
        XCTAssertEqual(list.count, 2, "blank lines are skipped")
        let first = list[0]
        let request = try XCTUnwrap(first["request"] as? [String: Any])
        XCTAssertEqual((request["postData"] as? [String: Any])?["text"] as? String, "/wAB")
        XCTAssertEqual((request["postData"] as? [String: Any])?["_encoding"] as? String, "base64")
        XCTAssertEqual(request["bodySize"] as? Int, 3)
        XCTAssertEqual(
            (request["headers"] as? [[String: String]])?.filter { $0["name"] == "x-a" }.map { $0["value"]! },
            ["1", "2"])
        let response = try XCTUnwrap(first["response"] as? [String: Any])
        XCTAssertEqual(response["status"] as? Int, 200)
        XCTAssertEqual(response["bodySize"] as? Int, 9000)
        let content = try XCTUnwrap(response["content"] as? [String: Any])
        XCTAssertEqual(content["text"] as? String, #"{"ok":1}"#)
        XCTAssertEqual(content["mimeType"] as? String, "application/json")
        XCTAssertEqual(content["size"] as? Int, 9000)
        XCTAssertEqual(content["_truncated"] as? Bool, true)
        XCTAssertEqual(first["time"] as? Double, 40.5, "held from arrival to outcome: 52.845 - 12.345")
        XCTAssertEqual((first["timings"] as? [String: Any])?["wait"] as? Double, 40.5)
        XCTAssertEqual((first["_understudy"] as? [String: Any])?["outcome"] as? String, "answered")
        XCTAssertEqual(((first["_understudy"] as? [String: Any])?["scenario"] as? [String: Any])?["to"] as? String, "B")
        XCTAssertEqual(first["startedDateTime"] as? String, "2026-11-22T02:14:38.123Z")
        XCTAssertEqual(
            list[1]["startedDateTime"] as? String, "2026-11-22T02:14:39.123Z", "from elapsedMs, not the wall clock")
        let second = try XCTUnwrap(list[1]["response"] as? [String: Any])
        XCTAssertEqual(second["status"] as? Int, 0)
        XCTAssertEqual(second["_error"] as? String, "connection-reset")
        XCTAssertEqual(second["bodySize"] as? Int, -1)
        XCTAssertEqual(list[1]["time"] as? Int, 25, "no outcomeMs: the delay asked for")
        XCTAssertEqual((list[1]["request"] as? [String: Any])?["url"] as? String, "http://127.0.0.1/gone?")
    }

    func testHTTPVersionIsTheJournalsProtocolAndHTTP11WhenAbsent() throws {
        let lines = """
            {"seq":1,"protocol":"HTTP/2","streamId":3,"time":"2026-11-22T10:00:00.100Z","elapsedMs":100.000,"method":"GET","path":"/a","response":{"status":200,"headers":{},"bodySize":0}}
            {"seq":2,"time":"2026-11-22T10:00:00.200Z","elapsedMs":200.000,"method":"GET","path":"/a","response":{"status":200,"headers":{},"bodySize":0}}
            """
        let list = entries(jsonObject(try HARExport.har(fromJournalLines: Array(lines.utf8))))
        let versions = list.map { entry in
            (
                (entry["request"] as? [String: Any])?["httpVersion"] as? String,
                (entry["response"] as? [String: Any])?["httpVersion"] as? String
            )
        }
        XCTAssertEqual(versions.map(\.0), ["HTTP/2", "HTTP/1.1"])
        XCTAssertEqual(versions.map(\.1), ["HTTP/2", "HTTP/1.1"])
    }

    func testTheURLsSchemeIsTheJournalsAndHTTPWhenAbsent() throws {
        let lines = """
            {"seq":1,"scheme":"https","time":"2026-11-22T10:00:00.100Z","elapsedMs":100.000,"method":"GET","path":"/a","headers":{"host":["api.test:8443"]},"response":{"status":200,"headers":{},"bodySize":0}}
            {"seq":2,"time":"2026-11-22T10:00:00.200Z","elapsedMs":200.000,"method":"GET","path":"/a","headers":{"host":["api.test:8080"]},"response":{"status":200,"headers":{},"bodySize":0}}
            """
        let list = entries(jsonObject(try HARExport.har(fromJournalLines: Array(lines.utf8))))
        XCTAssertEqual(
            list.map { ($0["request"] as? [String: Any])?["url"] as? String },
            ["https://api.test:8443/a", "http://api.test:8080/a"])
    }

    func testEachSessionsEntriesKeepTheirOwnTimeAndTheSentReasonPhrase() throws {
        // The main port from the daemon's start, two sessions from their creation (2 s and 5 s later),
        // then a second daemon run appended to the same file (its seq and clock start again).
        let lines = """
            {"seq":1,"time":"2026-11-22T10:00:00.100Z","elapsedMs":100.000,"method":"GET","path":"/a","response":{"status":200,"headers":{},"bodySize":0}}
            {"seq":1,"session":"s1-aa","time":"2026-11-22T10:00:02.004Z","elapsedMs":4.000,"method":"GET","path":"/a","response":{"status":202,"reason":"Queued","headers":{},"bodySize":0}}
            {"seq":1,"session":"s2-bb","time":"2026-11-22T10:00:05.007Z","elapsedMs":7.000,"method":"GET","path":"/a","response":{"status":429,"headers":{},"bodySize":0}}
            {"seq":2,"session":"s1-aa","time":"2026-11-22T10:00:05.504Z","elapsedMs":3504.250,"method":"GET","path":"/a","status":null,"response":null}
            {"seq":2,"time":"2026-11-22T10:00:06.100Z","elapsedMs":6100.000,"method":"GET","path":"/a","response":{"status":599,"headers":{},"bodySize":0}}
            {"seq":1,"time":"2026-11-22T11:00:00.050Z","elapsedMs":50.000,"method":"GET","path":"/a","response":{"status":404,"headers":{},"bodySize":0}}
            """
        let list = entries(jsonObject(try HARExport.har(fromJournalLines: Array(lines.utf8))))
        XCTAssertEqual(
            list.map { $0["startedDateTime"] as? String },
            [
                "2026-11-22T10:00:00.100Z", "2026-11-22T10:00:02.004Z", "2026-11-22T10:00:05.007Z",
                "2026-11-22T10:00:05.504Z", "2026-11-22T10:00:06.100Z", "2026-11-22T11:00:00.050Z",
            ])
        XCTAssertEqual(
            list.map { ($0["response"] as? [String: Any])?["statusText"] as? String },
            ["OK", "Queued", "Too Many Requests", "", "Server Error", "Not Found"])
    }

    func testLinesThatAreNotJournalEntriesAreRefusedByNumber() {
        for (text, line) in [
            ("{\"seq\":1,\"method\":\"GET\",\"path\":\"/\"}\n[1]\n", 2), ("nope", 1), ("{\"seq\":1}", 1),
        ] {
            XCTAssertThrowsError(try HARExport.har(fromJournalLines: Array(text.utf8))) { error in
                XCTAssertEqual((error as? HARExportError)?.line, line, text)
            }
        }
        XCTAssertNoThrow(try HARExport.har(fromJournalLines: []))
    }

    func testTimestampsParseBackToWhatWasFormatted() {
        for seconds in [0.0, 1_767_225_600.123, 951_782_400.5, 4_102_444_799.999] {
            let text = TimeFormatting.iso8601Milliseconds(seconds)
            let parsed = TimeFormatting.parseISO8601Milliseconds(text)
            XCTAssertEqual(parsed ?? -1, (seconds * 1000).rounded(.down), accuracy: 0.001, text)
        }
        XCTAssertEqual(TimeFormatting.parseISO8601Milliseconds("2026-01-01T00:00:00Z"), 1_767_225_600_000)
        for bad in ["", "2026-01-01", "2026-13-01T00:00:00Z", "2026-01-01T00:00:00", "2026-01-01T00:00:00.1+01:00"] {
            XCTAssertNil(TimeFormatting.parseISO8601Milliseconds(bad), bad)
        }
    }
}
