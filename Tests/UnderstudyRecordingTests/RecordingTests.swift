import Foundation
import Testing
@testable import UnderstudyCore
@testable import UnderstudyRecording
import UnderstudyCoreTestSupport

/// The recording writer (`StubRecorder`), socket-free: exchanges in, stub files out, and every
/// rule proven by loading what it wrote into an engine and replaying the requests against it.
@Suite struct RecordingTests {
    // The snapshot route is the recording module's, installed as the CLI installs it.
    init() {
        RecordingModule.install()
    }

    static let recordedAt = 1_767_225_600.0  // 2026-01-01T00:00:00Z, ManualEngineClock's default start

    static func exchange(
        _ target: String, headers: [(String, String)] = [], status: Int = 200,
        responseHeaders: [(String, String)] = [], response: String = ""
    ) -> RecordedExchange {
        exchange("GET", target, headers: headers, status: status, responseHeaders: responseHeaders, response: response)
    }

    static func exchange(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: String = "",
        status: Int = 200, responseHeaders: [(String, String)] = [], response: String = "",
        time: Double? = RecordingTests.recordedAt
    ) -> RecordedExchange {
        let parts = target.split(separator: "?", maxSplits: 1).map(String.init)
        return RecordedExchange(
            method: method, path: parts[0], query: parts.count > 1 ? parts[1] : nil,
            headers: headers.map { HTTPHeaders.Field(name: $0.0, value: $0.1) }, body: Array(body.utf8),
            status: status, responseHeaders: responseHeaders.map { HTTPHeaders.Field(name: $0.0, value: $0.1) },
            responseBody: Array(response.utf8), time: time)
    }

    /// An engine serving what `recorded` holds (inline bodies; see `replayFromDisk` for body files).
    static func replay(_ recorded: RecordedStubs, clock: ManualEngineClock = ManualEngineClock()) throws -> StubEngine {
        let set = try StubLoader.parse(bytes: recorded.fileBytes, file: "recorded.json", root: nil)
        return StubEngine(stubs: set, configuration: EngineConfiguration(clock: clock))
    }

    static func send(_ engine: StubEngine, _ target: String, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        send(engine, "GET", target, headers: headers)
    }

    static func send(
        _ engine: StubEngine, _ method: String, _ target: String, headers: HTTPHeaders = HTTPHeaders(),
        body: String = ""
    ) -> HTTPResponse {
        engine.handle(HTTPRequest(method: method, target: target, headers: headers, body: Array(body.utf8)))
    }

    static func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "understudy-recording-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Every byte written under `directory`, every file.
    static func allBytes(under directory: String) throws -> String {
        var text = ""
        let enumerator = FileManager.default.enumerator(atPath: directory)
        while let relative = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let path = directory + "/" + relative
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                text += String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
            }
        }
        return text
    }

    // MARK: - Sequences

    @Test func repeatedRequestsBecomeOneSequenceInOrderAndIdenticalAnswersCollapse() throws {
        let recorded = StubRecorder.record(
            [
                Self.exchange("/flaky", status: 429, responseHeaders: [("Retry-After", "1")], response: "slow down"),
                Self.exchange("/flaky", response: "ok"),
                Self.exchange("/flaky", response: "ok"),
                Self.exchange("/other", response: "other"),
            ], options: RecordingOptions())
        #expect(recorded.stubs.count == 2)
        let responses = try #require(recorded.stubs[0]["responses"]?.arrayValue)
        #expect(responses.count == 2, "the two identical answers collapse into one with times")
        #expect(responses[1]["times"]?.intValue == 2)
        let engine = try Self.replay(recorded)
        let first = Self.send(engine, "/flaky")
        #expect(first.status == 429)
        #expect(first.headers["Retry-After"] == "1")
        #expect(first.text == "slow down")
        #expect(Self.send(engine, "/flaky").text == "ok")
        #expect(Self.send(engine, "/flaky").text == "ok")
        #expect(Self.send(engine, "/other").text == "other")
    }

    // MARK: - Matching

    @Test func matchingIsMethodPathQueryAndAParameterOthersSentMustBeAbsent() throws {
        let recorded = StubRecorder.record(
            [
                Self.exchange("/items", response: "page one"),
                Self.exchange("/items?page=2", response: "page two"),
                Self.exchange("POST", "/items", response: "created"),
            ], options: RecordingOptions())
        #expect(recorded.stubs.count == 3)
        let engine = try Self.replay(recorded)
        #expect(Self.send(engine, "/items?page=2").text == "page two")
        #expect(Self.send(engine, "/items").text == "page one")
        #expect(Self.send(engine, "POST", "/items").text == "created")
        #expect(Self.send(engine, "/items?page=3").status == 404)
    }

    @Test func aJSONBodyMatchesAsJSONWhateverItsSpelling() throws {
        let recorded = StubRecorder.record(
            [
                Self.exchange("POST", "/search", body: #"{"q": "a", "n": 1}"#, response: "A"),
                Self.exchange("POST", "/search", body: #"{"q": "b", "n": 1}"#, response: "B"),
            ], options: RecordingOptions())
        #expect(recorded.stubs.count == 2)
        #expect(recorded.stubs[0]["request"]?["body"]?["jsonEquals"] != nil)
        let engine = try Self.replay(recorded)
        #expect(Self.send(engine, "POST", "/search", body: #"{"n":1.0,"q":"b"}"#).text == "B")
        #expect(Self.send(engine, "POST", "/search", body: #"{"q":"a","n":1}"#).text == "A")
        #expect(Self.send(engine, "POST", "/search", body: #"{"q":"c","n":1}"#).status == 404)
    }

    @Test func matchBodyComparesOnlyTheNamedFields() throws {
        var options = RecordingOptions()
        options.matchBody = ["$.sku"]
        let recorded = StubRecorder.record(
            [Self.exchange("POST", "/orders", body: #"{"sku":"A-1","requestId":"r1"}"#, response: "ordered A-1")],
            options: options)
        let engine = try Self.replay(recorded)
        #expect(Self.send(engine, "POST", "/orders", body: #"{"sku":"A-1","requestId":"r2"}"#).text == "ordered A-1")
        #expect(Self.send(engine, "POST", "/orders", body: #"{"sku":"B-2","requestId":"r1"}"#).status == 404)
    }

    @Test func headersAreMatchedOnlyWhenNamed() throws {
        let exchanges = [
            Self.exchange("/doc", headers: [("Accept", "application/json")], response: "json"),
            Self.exchange("/doc", headers: [("Accept", "text/xml")], response: "xml"),
        ]
        let unnamed = StubRecorder.record(exchanges, options: RecordingOptions())
        #expect(unnamed.stubs.count == 1, "without --match-header the two are one request, answered in sequence")
        var options = RecordingOptions()
        options.matchHeaders = ["Accept"]
        let named = StubRecorder.record(exchanges, options: options)
        #expect(named.stubs.count == 2)
        let engine = try Self.replay(named)
        #expect(Self.send(engine, "/doc", headers: ["Accept": "text/xml"]).text == "xml")
        #expect(Self.send(engine, "/doc", headers: ["Accept": "application/json"]).text == "json")
        #expect(Self.send(engine, "/doc").status == 404)
    }

    // MARK: - Headers kept

    @Test func volatileAndDroppedResponseHeadersAreNotKept() throws {
        var options = RecordingOptions()
        options.dropHeaders = ["X-Request-Id"]
        let recorded = StubRecorder.record(
            [
                Self.exchange(
                    "/h",
                    responseHeaders: [
                        ("Date", "Thu, 26 Nov 2026 04:00:00 GMT"), ("Content-Length", "2"), ("Connection", "close"),
                        ("Transfer-Encoding", "chunked"), ("Server", "nginx"), ("X-Request-Id", "abc"),
                        ("Content-Type", "text/plain"), ("Set-Cookie", "a=1"), ("Set-Cookie", "b=2"),
                    ], response: "hi")
            ], options: options)
        let headers = try #require(recorded.stubs[0]["responses"]?.arrayValue?[0]["headers"]?.members)
        #expect(headers.map { $0.key } == ["Content-Type", "Set-Cookie"])
        #expect(headers[1].value == ["a=1", "b=2"])
        let response = Self.send(try Self.replay(recorded), "/h")
        #expect(response.headers.fields.filter { $0.name == "Set-Cookie" }.map { $0.value } == ["a=1", "b=2"])
    }

    // MARK: - Secrets

    @Test func declaredSecretsAppearNowhereAndThePlaceholderMatchesAnyValue() throws {
        var options = RecordingOptions()
        options.redactHeaders = ["Authorization"]
        options.redactQuery = ["api_key"]
        options.redactJSON = ["$.access_token", "$.password"]
        options.matchHeaders = ["Authorization"]
        options.bodyFileThreshold = 64
        let token = "tok-7f3a9c21e5"
        let recorded = StubRecorder.record(
            [
                Self.exchange(
                    "POST", "/token", body: #"{"user":"ada","password":"hunter22"}"#,
                    responseHeaders: [("Content-Type", "application/json")],
                    response: #"{"access_token":"\#(token)","expires_in":3600}"#),
                Self.exchange(
                    "/me?api_key=key-123456", headers: [("Authorization", "Bearer \(token)")],
                    response:
                        #"{"name":"Ada","token_echo":"\#(token)","padding":"\#(String(repeating: "x", count: 80))"}"#),
            ], options: options)
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let written = try recorded.write(to: directory)
        #expect(written.count == 2, "the stub file and one body file: \(written)")
        let everything = try Self.allBytes(under: directory)
        for secret in [token, "hunter22", "key-123456"] {
            #expect(!everything.contains(secret), "\(secret) leaked into the recording")
        }
        #expect(everything.contains(RecordingOptions.placeholder))
        let set = try StubLoader.load(paths: [directory])
        let engine = StubEngine(stubs: set, configuration: EngineConfiguration(clock: ManualEngineClock()))
        let login = Self.send(engine, "POST", "/token", body: #"{"user":"ada","password":"other-password"}"#)
        #expect(login.status == 200, "a different password still matches: \(login.text)")
        #expect(login.text == #"{"access_token":"REDACTED","expires_in":3600}"#)
        #expect(Self.send(engine, "POST", "/token", body: #"{"user":"bob","password":"x"}"#).status == 404)
        let me = Self.send(engine, "/me?api_key=another-key", headers: ["Authorization": "Bearer another-token"])
        #expect(me.status == 200, "another token and key still match: \(me.text)")
        #expect(me.text.contains(#""token_echo":"REDACTED""#))
        #expect(Self.send(engine, "/me?api_key=k").status == 404, "the token is required")
        #expect(Self.send(engine, "/me", headers: ["Authorization": "Bearer x"]).status == 404, "the key is required")
    }

    // MARK: - Templates

    @Test func datesAtTheRecordingTimeBecomeNowTemplates() throws {
        var options = RecordingOptions()
        options.templateDates = true
        options.dateWindowSeconds = 5
        let recorded = StubRecorder.record(
            [
                Self.exchange(
                    "/clock", responseHeaders: [("X-Generated", "1767225601")],
                    response: #"{"at":"2026-01-01T00:00:01.500Z","ms":1767225599000,"old":"2025-06-01T00:00:00.000Z"}"#)
            ], options: options)
        let response = try #require(recorded.stubs[0]["responses"]?.arrayValue?[0])
        #expect(response["template"] == true)
        #expect(
            response["body"]?.stringValue
                == #"{"at":"{{now.iso}}","ms":{{now.epochMs}},"old":"2025-06-01T00:00:00.000Z"}"#)
        let clock = ManualEngineClock(start: Date(timeIntervalSince1970: 1_800_000_000.25))
        let replayed = Self.send(try Self.replay(recorded, clock: clock), "/clock")
        #expect(
            replayed.text == #"{"at":"2027-01-15T08:00:00.250Z","ms":1800000000250,"old":"2025-06-01T00:00:00.000Z"}"#)
        #expect(replayed.headers["X-Generated"] == "1800000000")
    }

    @Test func echoedIdsBecomeTemplatesThatEchoTheRequest() throws {
        var options = RecordingOptions()
        options.echoIDs = true
        options.matchBody = ["$.sku"]
        let recorded = StubRecorder.record(
            [
                Self.exchange(
                    "POST", "/orders", body: #"{"sku":"A-1","clientRef":"ref-2024-001"}"#,
                    responseHeaders: [("Location", "/orders/ref-2024-001")],
                    response: #"{"ref":"ref-2024-001","status":"new"}"#),
                Self.exchange("/users/42017", response: #"{"id":42017,"name":"x"}"#),
            ], options: options)
        let engine = try Self.replay(recorded)
        let created = Self.send(engine, "POST", "/orders", body: #"{"sku":"A-1","clientRef":"ref-9"}"#)
        #expect(created.text == #"{"ref":"ref-9","status":"new"}"#)
        #expect(created.headers["Location"] == "/orders/ref-9")
        #expect(Self.send(engine, "/users/42017").text == #"{"id":42017,"name":"x"}"#)
        let echoed: String = recorded.stubs[1]["responses"]?.arrayValue?[0]["body"]?.stringValue ?? ""
        #expect(echoed.contains("pathSegments.1"))
    }

    @Test func anEchoedRequestHeaderIdBecomesATemplateAndIsMatchedOnPresence() throws {
        var options = RecordingOptions()
        options.echoIDs = true
        options.matchHeaders = ["X-Request-Id", "Api-Version"]
        let sent = [
            ("X-Request-Id", "req-7f3a9c2e"), ("Api-Version", "2023-10-16"), ("Accept", "application/json"),
            ("Host", "api.example.com"), ("User-Agent", "client/1.2.3"), ("X-Session", "abc"),
        ]
        let recorded = StubRecorder.record(
            [
                Self.exchange(
                    "POST", "/charges", headers: sent, body: #"{"amount":5}"#,
                    responseHeaders: [("X-Request-Id", "req-7f3a9c2e"), ("Api-Version", "2023-10-16")],
                    response: #"{"requestId":"req-7f3a9c2e","note":"id req-7f3a9c2e done","type":"application/json","#
                        + #""host":"api.example.com","ua":"client/1.2.3","v":"2023-10-16"}"#)
            ], options: options)
        let matcher = recorded.stubs[0]["request"]?["headers"]
        #expect(matcher?["X-Request-Id"] == ["present": true])
        #expect(matcher?["Api-Version"] == "2023-10-16")
        let engine = try Self.replay(recorded)
        var headers = HTTPHeaders()
        headers.append(name: "X-Request-Id", value: "req-b2c90d11")
        headers.append(name: "Api-Version", value: "2023-10-16")
        headers.append(name: "Accept", value: "text/plain")
        headers.append(name: "Host", value: "other.example.com")
        headers.append(name: "User-Agent", value: "client/9.9.9")
        let replayed = Self.send(engine, "POST", "/charges", headers: headers, body: #"{"amount":5}"#)
        #expect(replayed.status == 200)
        #expect(
            replayed.text == #"{"requestId":"req-b2c90d11","note":"id req-b2c90d11 done","type":"application/json","#
                + #""host":"api.example.com","ua":"client/1.2.3","v":"2023-10-16"}"#)
        #expect(replayed.headers["X-Request-Id"] == "req-b2c90d11")
        #expect(replayed.headers["Api-Version"] == "2023-10-16")
    }

    @Test func onlyIdLikeHeaderValuesCountAsEchoes() {
        for (name, value) in [
            ("x-request-id", "req-7f3a9c2e"), ("idempotency-key", "5d7c1e0a-3b8f-4c62-9a1e-0f2b3c4d5e6f"),
            ("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"),
            ("x-correlation-id", "corr42ab"),
        ] {
            #expect(RecordingTemplater.isHeaderIDLike(name: name, value: value), "\(name): \(value)")
        }
        for (name, value) in [
            ("host", "api9.example.com"), ("content-length", "12345678"), ("accept", "application/vnd.v2+json"),
            ("user-agent", "client/1.2.3"), ("x-request-id", "req-7f3"), ("x-request-id", "12345678901"),
            ("api-version", "2023-10-16"), ("x-forwarded-for", "10.0.0.12"), ("authorization", "Bearer abc12345"),
            ("x-token", "Basic dXNlcjpwYXNz1"), ("if-none-match", "W/abc123456"), ("x-weird", "a1{{b}}cdefg"),
            ("cookie", "session=abc123456"), (":authority", "localhost8080"),
        ] {
            #expect(!RecordingTemplater.isHeaderIDLike(name: name, value: value), "\(name): \(value)")
        }
    }

    @Test func aResponseHoldingBracesIsKeptAsRecorded() throws {
        var options = RecordingOptions()
        options.templateDates = true
        let body = #"{"tpl":"{{name}}","at":"2026-01-01T00:00:00.000Z"}"#
        let recorded = StubRecorder.record([Self.exchange("/t", response: body)], options: options)
        #expect(recorded.warnings.count == 1)
        #expect(Self.send(try Self.replay(recorded), "/t").text == body)
    }

    @Test func theUpstreamBaseURLInHeadersBecomesTheStubServers() throws {
        var options = RecordingOptions()
        options.upstream = "https://api.example.com/"
        let recorded = StubRecorder.record(
            [
                Self.exchange(
                    "/old", status: 301, responseHeaders: [("Location", "https://api.example.com/new?x=1")])
            ], options: options)
        #expect(
            recorded.stubs[0]["responses"]?.arrayValue?[0]["headers"]?["Location"]?.stringValue
                == "{{server.url}}/new?x=1")
        #expect(Self.send(try Self.replay(recorded), "/old").status == 301)
    }

    // MARK: - Bodies

    @Test func largeBodiesGoToFilesNamedByMethodPathAndHash() throws {
        let big = String(repeating: #"{"row":"0123456789abcdef"},"#, count: 1200)
        let binary: [UInt8] = (0..<256).map { UInt8($0) }
        var exchanges = [
            Self.exchange("/report/2026", responseHeaders: [("Content-Type", "application/json")], response: "[\(big)]")
        ]
        exchanges.append(
            RecordedExchange(method: "GET", path: "/logo", status: 200, responseBody: binary, time: nil))
        let recorded = StubRecorder.record(exchanges, options: RecordingOptions())
        #expect(recorded.bodyFiles.count == 1)
        let name = try #require(recorded.bodyFiles.first?.path)
        #expect(name.hasPrefix("__files/get-report-2026-") && name.hasSuffix(".json"))
        #expect(recorded.stubs[1]["responses"]?.arrayValue?[0]["base64"] != nil)
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try recorded.write(to: directory)
        let engine = StubEngine(stubs: try StubLoader.load(paths: [directory]))
        #expect(Self.send(engine, "/report/2026").text == "[\(big)]")
        #expect(Self.send(engine, "/logo").body == binary)
    }

    // MARK: - Inputs

    @Test func aJournalEntryWithATruncatedBodyIsRefused() throws {
        let engine = try Self.replay(
            StubRecorder.record(
                [Self.exchange("/big", response: String(repeating: "z", count: 5000))], options: RecordingOptions()))
        _ = Self.send(engine, "/big")
        #expect(throws: RecordingError.self) { try engine.recordedStubs(options: RecordingOptions()) }
        do {
            _ = try engine.recordedStubs(options: RecordingOptions())
        } catch {
            #expect(error.message.contains("--journal-body-limit"))
        }
    }

    @Test func aJournalReplaysTheSameAnswersAndSoDoesItsHAR() throws {
        let source = """
            {"stubs":[{"id":"seq","request":{"path":"/s"},"responses":[{"status":503,"body":"busy"},{"json":{"ok":true}}]},
            {"id":"bin","request":{"method":"POST","path":"/b"},"responses":[{"base64":"AAEC/w=="}]}]}
            """
        let upstream = StubEngine(
            stubs: try StubLoader.parse(bytes: Array(source.utf8), file: "u.json", root: nil),
            configuration: EngineConfiguration(clock: ManualEngineClock()))
        let requests = [("GET", "/s", ""), ("GET", "/s", ""), ("POST", "/b", "x"), ("GET", "/unmatched", "")]
        let answers = requests.map { Self.send(upstream, $0.0, $0.1, body: $0.2) }
        let fromJournal = try upstream.recordedStubs(options: RecordingOptions())
        #expect(fromJournal.exchangeCount == 3, "the unmatched 404 is not an answer to record")
        var entries: [JSONValue] = []
        for entry in upstream.journalEntries { entries.append(try #require(JSONValue.parse(Array(entry.json)))) }
        let har = HARExport.document(entries: entries).jsonBytes
        let imported = try HARImport.exchanges(fromHAR: har)
        #expect(imported.exchanges.count == 4)
        for recorded in [fromJournal, StubRecorder.record(imported.exchanges, options: RecordingOptions())] {
            let replay = try Self.replay(recorded)
            for (request, answer) in zip(requests.prefix(3), answers) {
                let again = Self.send(replay, request.0, request.1, body: request.2)
                #expect(again.status == answer.status)
                #expect(again.body == answer.body)
                #expect(again.headers["Content-Type"] == answer.headers["Content-Type"])
            }
        }
    }

    @Test func aHAREntryWithoutABodyIsSkippedAndSaid() throws {
        let har = #"""
            {"log":{"version":"1.2","entries":[
              {"startedDateTime":"2026-01-01T00:00:00.000Z","request":{"method":"GET","url":"https://x.test/a?b=1","headers":[{"name":":authority","value":"x.test"}]},
               "response":{"status":200,"headers":[{"name":"Content-Encoding","value":"gzip"}],"content":{"size":3,"mimeType":"text/plain","text":"abc"}}},
              {"request":{"method":"GET","url":"https://x.test/img"},"response":{"status":200,"headers":[],"content":{"size":900,"mimeType":"image/png"}}},
              {"request":{"method":"GET","url":"https://x.test/gone"},"response":{"status":0,"headers":[],"content":{"size":0}}}]}}
            """#
        let imported = try HARImport.exchanges(fromHAR: Array(har.utf8))
        #expect(imported.exchanges.count == 1)
        #expect(imported.skipped.count == 2)
        let exchange = try #require(imported.exchanges.first)
        #expect(exchange.path == "/a" && exchange.query == "b=1")
        #expect(exchange.headers.isEmpty, "HTTP/2 pseudo-headers are not request headers")
        #expect(exchange.responseHeaders.isEmpty, "HAR bodies are decoded, so Content-Encoding goes")
        #expect(exchange.time == Self.recordedAt)
        #expect(throws: RecordingError.self) { try HARImport.exchanges(fromHAR: Array(#"{"log":{}}"#.utf8)) }
    }

    @Test func optionsFromJSONRefuseWhatTheyDoNotKnow() throws {
        let options = try RecordingOptions(
            json: ["redactHeaders": ["Authorization"], "templateDates": true, "dateWindow": 5, "out": "x"],
            ignoring: ["out"])
        #expect(options.redactHeaders == ["Authorization"] && options.templateDates && options.dateWindowSeconds == 5)
        do {
            _ = try RecordingOptions(json: ["redactHeader": ["Authorization"]])
            Issue.record("an unknown key was accepted")
        } catch {
            #expect(error.message.contains("did you mean `redactHeaders`"))
        }
        #expect(throws: RecordingError.self) { try RecordingOptions(json: ["matchBody": ["no-dollar"]]) }
        #expect(throws: RecordingError.self) { try RecordingOptions(json: ["echoIds": "yes"]) }
    }

    // MARK: - Admin

    @Test func snapshotWritesTheJournalAndABadCallWritesNothing() throws {
        let engine = try Self.replay(
            StubRecorder.record(
                [Self.exchange("/a", response: "one"), Self.exchange("/a", response: "two")],
                options: RecordingOptions()))
        _ = Self.send(engine, "/a")
        _ = Self.send(engine, "/a")
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let out = directory + "/snap"
        let refused = engine.admin(
            HTTPRequest(
                method: "POST", target: "/__admin/recordings/snapshot",
                body: Array(#"{"out":"\#(out)","redactHeader":["x"]}"#.utf8))
        ) { .failure(StubLoadFailure(errors: [])) }
        #expect(refused.status == 400)
        #expect(!FileManager.default.fileExists(atPath: out), "a refused snapshot writes nothing")
        let answered = engine.admin(
            HTTPRequest(
                method: "POST", target: "/__admin/recordings/snapshot", body: Array(#"{"out":"\#(out)"}"#.utf8))
        ) { .failure(StubLoadFailure(errors: [])) }
        #expect(answered.status == 200, "\(String(decoding: answered.body, as: UTF8.self))")
        let replay = StubEngine(stubs: try StubLoader.load(paths: [out]))
        #expect(Self.send(replay, "/a").text == "one")
        #expect(Self.send(replay, "/a").text == "two")
        let stop = engine.admin(HTTPRequest(method: "POST", target: "/__admin/recordings/stop")) {
            .failure(StubLoadFailure(errors: []))
        }
        #expect(stop.status == 400, "a daemon that is not recording has nothing to stop")
    }
}
