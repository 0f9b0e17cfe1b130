import XCTest
@testable import UnderstudyCore
import UnderstudyCoreTestSupport

/// A stub's `idempotency` in the engine, on a manual clock (issue 47): first, replay, mismatch,
/// in progress, missing key, expiry, answers not kept, the journal's `idempotency` member, and the
/// compile step's errors.
final class IdempotencyTests: XCTestCase {
    private static let stubs = #"""
        {"stubs":[
          {"id":"charge","request":{"method":"POST","path":"/charges"},"idempotency":{},
           "responses":[{"status":201,"template":true,"json":{"id":"ch_{{random.uuid}}","n":1}},
                        {"status":201,"json":{"n":2}}]},
          {"id":"strict","request":{"method":"POST","path":"/strict"},
           "idempotency":{"header":"X-Key","required":true,"ttl":60,"mismatchStatus":409},
           "responses":[{"status":201}]},
          {"id":"slow","request":{"method":"POST","path":"/slow"},"idempotency":{},
           "responses":[{"status":201,"body":"late","delayMs":1000}]},
          {"id":"flaky","request":{"method":"POST","path":"/flaky"},"idempotency":{},
           "responses":[{"status":503},{"status":429},{"status":200,"body":"done"}]},
          {"id":"plain","request":{"method":"POST","path":"/plain"},"responses":[{"status":200}]}
        ]}
        """#

    private func post(
        _ engine: StubEngine, _ path: String, key: String?, body: String = "{}", header: String = "Idempotency-Key",
        contentType: String = "application/json"
    ) -> HTTPResponse {
        var headers: HTTPHeaders = ["Content-Type": contentType]
        if let key { headers.append(name: header, value: key) }
        return engine.send("POST", path, headers: headers, body: body)
    }

    private func outcomes(_ engine: StubEngine) -> [String] {
        engine.journalObjects.map { entry in
            guard let note = entry["idempotency"] as? [String: Any] else { return "-" }
            return "\(note["key"] as? String ?? "nil") \(note["outcome"] as? String ?? "?")"
        }
    }

    func testTheSameKeyAndBodyReplaysTheFirstAnswerWithoutMovingTheSequence() throws {
        let engine = try makeEngine(Self.stubs)
        let first = post(engine, "/charges", key: "k1", body: #"{"a":1,"b":[1,2]}"#)
        XCTAssertEqual(first.status, 201)
        XCTAssertNil(first.headers["Idempotent-Replayed"])
        let replay = post(engine, "/charges", key: "k1", body: #"{"b":[1,2.0],"a":1}"#)
        XCTAssertEqual(replay.status, 201)
        XCTAssertEqual(replay.body, first.body, "the templated id is kept as it was sent")
        XCTAssertEqual(replay.headers["Idempotent-Replayed"], "true")
        XCTAssertEqual(post(engine, "/charges", key: "k2").jsonObject["n"] as? Int, 2, "one step for k1")
        XCTAssertEqual(outcomes(engine), ["k1 first", "k1 replay", "k2 first"])
    }

    func testAnotherBodyUnderTheKeyIsRefusedWithAProblemNamingTheKey() throws {
        let engine = try makeEngine(Self.stubs)
        _ = post(engine, "/charges", key: "k1", body: #"{"a":1}"#)
        let refused = post(engine, "/charges", key: "k1", body: #"{"a":2}"#)
        XCTAssertEqual(refused.status, 422)
        XCTAssertEqual(refused.headers["Content-Type"], "application/problem+json")
        XCTAssertEqual(refused.jsonObject["idempotencyKey"] as? String, "k1")
        XCTAssertTrue((refused.jsonObject["detail"] as? String ?? "").contains(#""k1""#), refused.text)
        let text = post(engine, "/charges", key: "k1", body: "a=1", contentType: "text/plain")
        XCTAssertEqual(text.status, 422, "a body read another way is another body")
        XCTAssertEqual(outcomes(engine), ["k1 first", "k1 mismatch", "k1 mismatch"])
    }

    func testFormsAreComparedByFieldAndOtherBodiesByByte() throws {
        let engine = try makeEngine(Self.stubs)
        let form = "application/x-www-form-urlencoded"
        _ = post(engine, "/charges", key: "f", body: "amount=1&metadata%5Bo%5D=7&t=a&t=b", contentType: form)
        XCTAssertEqual(
            post(engine, "/charges", key: "f", body: "t=a&metadata[o]=7&amount=1&t=b", contentType: form)
                .headers["Idempotent-Replayed"], "true")
        XCTAssertEqual(
            post(engine, "/charges", key: "f", body: "t=b&metadata[o]=7&amount=1&t=a", contentType: form).status, 422,
            "a repeated field's values keep their order")
        _ = post(engine, "/charges", key: "raw", body: #"{"a":1}"#, contentType: "text/plain")
        XCTAssertEqual(post(engine, "/charges", key: "raw", body: #"{"a": 1}"#, contentType: "text/plain").status, 422)
    }

    /// Requests without a `Content-Type`, which a replay compares without building their
    /// fingerprint (``IdempotencyStore/Entry/isSameRequest(_:_:sendsContentType:)``): the same
    /// bytes replay; other bytes, or the same bytes sent as JSON, are another request.
    func testBodiesWithoutAContentTypeAreComparedByByte() throws {
        let engine = try makeEngine(Self.stubs)
        func send(_ body: String, json: Bool = false) -> HTTPResponse {
            var headers: HTTPHeaders = ["Idempotency-Key": "n"]
            if json { headers.append(name: "Content-Type", value: "application/json") }
            return engine.send("POST", "/charges", headers: headers, body: body)
        }
        XCTAssertEqual(send(#"{"a":1}"#).status, 201)
        XCTAssertEqual(send(#"{"a":1}"#).headers["Idempotent-Replayed"], "true")
        XCTAssertEqual(send(#"{"a": 1}"#).status, 422, "without a Content-Type, byte for byte")
        XCTAssertEqual(send(#"{"a":1}"#, json: true).status, 422, "a JSON body is read another way")
        XCTAssertEqual(send(#"{"a":1}"#).headers["Idempotent-Replayed"], "true")
        XCTAssertEqual(outcomes(engine), ["n first", "n replay", "n mismatch", "n mismatch", "n replay"])
    }

    /// A connection hands the engine one header list again and again while its header block
    /// repeats, and the engine remembers what a list said by its identity (``KeyHeaderReadings``):
    /// a list changed between requests (the same variable, so its storage could be changed in
    /// place) is read again, and so is a list given to another stub with another key header.
    func testAHeaderListReusedOrChangedIsReadForEachRequest() throws {
        let engine = try makeEngine(Self.stubs)
        var headers: HTTPHeaders = ["Idempotency-Key": "a"]
        func charge(_ body: String) -> HTTPResponse { engine.send("POST", "/charges", headers: headers, body: body) }
        XCTAssertEqual(charge("x").status, 201)
        XCTAssertEqual(charge("x").headers["Idempotent-Replayed"], "true")
        headers.replaceOrAdd(name: "Idempotency-Key", value: "b")
        XCTAssertNil(charge(#"{"a":1}"#).headers["Idempotent-Replayed"])
        headers.append(name: "Content-Type", value: "application/json")
        XCTAssertEqual(charge(#"{"a":1}"#).status, 422, "the same bytes, now sent as JSON")
        headers.append(name: "X-Key", value: "s")
        XCTAssertEqual(engine.send("POST", "/strict", headers: headers, body: "{}").status, 201)
        XCTAssertEqual(outcomes(engine), ["a first", "a replay", "b first", "b mismatch", "s first"])
    }

    func testARequiredKeyAndAConfiguredMismatchStatus() throws {
        let engine = try makeEngine(Self.stubs)
        let missing = post(engine, "/strict", key: nil)
        XCTAssertEqual(missing.status, 400)
        XCTAssertTrue((missing.jsonObject["detail"] as? String ?? "").contains("X-Key"), missing.text)
        XCTAssertEqual(post(engine, "/strict", key: "", header: "X-Key").status, 400, "an empty key is none")
        XCTAssertEqual(post(engine, "/strict", key: "s", header: "x-key").status, 201)
        XCTAssertEqual(post(engine, "/strict", key: #""s""#, header: "X-Key").status, 201, "the draft's sf-string")
        XCTAssertEqual(post(engine, "/strict", key: "s", body: "[]", header: "X-Key").status, 409)
        XCTAssertEqual(outcomes(engine), ["nil missing", "nil missing", "s first", "s replay", "s mismatch"])
    }

    func testAKeyWhoseAnswerIsStillDelayedGets409ThenReplays() throws {
        let clock = ManualEngineClock()
        let engine = try makeEngine(Self.stubs, clock: clock)
        XCTAssertEqual(post(engine, "/slow", key: "d").delayMs, 1000)
        clock.advance(milliseconds: 999)
        let busy = post(engine, "/slow", key: "d")
        XCTAssertEqual(busy.status, 409)
        XCTAssertEqual(busy.jsonObject["idempotencyKey"] as? String, "d")
        clock.advance(milliseconds: 1)
        let replay = post(engine, "/slow", key: "d")
        XCTAssertEqual(replay.status, 201)
        XCTAssertEqual(replay.delayMs, 0, "a replay is sent at once")
        XCTAssertEqual(replay.text, "late")
        XCTAssertEqual(outcomes(engine), ["d first", "d in-progress", "d replay"])
    }

    func testKeysExpireAfterTheirTTLOnTheWorldsClock() throws {
        let clock = ManualEngineClock()
        let engine = try makeEngine(Self.stubs, clock: clock)
        _ = post(engine, "/strict", key: "t", header: "X-Key")
        clock.advance(seconds: 59.9)
        XCTAssertEqual(post(engine, "/strict", key: "t", body: "[1]", header: "X-Key").status, 409)
        clock.advance(seconds: 0.1)
        XCTAssertEqual(post(engine, "/strict", key: "t", body: "[1]", header: "X-Key").status, 201, "expired: new")
        clock.advance(seconds: 86_400)
        _ = post(engine, "/charges", key: "day")
        clock.advance(seconds: 86_399)
        XCTAssertEqual(post(engine, "/charges", key: "day").headers["Idempotent-Replayed"], "true")
        clock.advance(seconds: 1)
        XCTAssertNil(post(engine, "/charges", key: "day").headers["Idempotent-Replayed"], "a day is the default")
    }

    func testAnswersThatSayNothingHappenedAreNotKept() throws {
        let engine = try makeEngine(Self.stubs)
        XCTAssertEqual(post(engine, "/flaky", key: "r").status, 503)
        XCTAssertEqual(post(engine, "/flaky", key: "r").status, 429)
        XCTAssertEqual(post(engine, "/flaky", key: "r").status, 200)
        let replay = post(engine, "/flaky", key: "r")
        XCTAssertEqual(replay.headers["Idempotent-Replayed"], "true")
        XCTAssertEqual(replay.text, "done")
        let stored = engine.journalObjects.map { ($0["idempotency"] as? [String: Any])?["stored"] as? Bool }
        XCTAssertEqual(stored, [false, false, true, nil])
    }

    func testAStubWithoutIdempotencyIgnoresKeysAndItsLinesHaveNoMember() throws {
        let engine = try makeEngine(Self.stubs)
        _ = post(engine, "/plain", key: "p")
        _ = post(engine, "/charges", key: nil)
        XCTAssertEqual(outcomes(engine), ["-", "-"], "no key and not required: no member")
    }

    func testResetForgetsTheKeys() throws {
        let engine = try makeEngine(Self.stubs)
        _ = post(engine, "/charges", key: "k")
        engine.reset()
        XCTAssertNil(post(engine, "/charges", key: "k", body: "[]").headers["Idempotent-Replayed"])
        XCTAssertEqual(outcomes(engine), ["k first"])
    }

    func testTheCompileStepRefusesBadRulesWithPositionsAndSuggestions() {
        func errors(_ rule: String) -> [String] {
            loadErrors(#"{"stubs":[{"id":"x","idempotency":"# + rule + #","responses":[{"status":200}]}]}"#)
                .map { "\($0.jsonPath) \($0.message)" }
        }
        XCTAssertEqual(errors(#"{"mismatchStatus":418}"#).count, 1)
        XCTAssertTrue(
            errors(#"{"mismatchStatus":418}"#)[0].contains("422, 409, 400"), "\(errors(#"{"mismatchStatus":418}"#))")
        XCTAssertTrue(errors(#"{"ttl":0}"#)[0].contains("`ttl` must be"))
        XCTAssertTrue(errors(#"{"header":"Idempotency Key"}"#)[0].contains("header name"))
        XCTAssertTrue(errors(#"{"requried":true}"#)[0].contains("did you mean `required`?"))
        XCTAssertTrue(errors(#"true"#)[0].contains("an object"))
        XCTAssertTrue(errors(#"{"required":"yes"}"#)[0].contains("true or false"))
    }
}
