import XCTest
@testable import UnderstudyStubs
import UnderstudyStubsTestSupport

/// Every refusal the loader promises, each asserting file, line, column, JSON path and suggestion.
final class StubValidationTests: XCTestCase {
    private func assertOnlyError(
        _ json: String, file: String = "bad.json", line: Int, column: Int, path: String,
        contains message: String, suggestion: String? = nil,
        sourceFile: StaticString = #filePath, sourceLine: UInt = #line
    ) {
        let errors = loadErrors(json, file: file)
        XCTAssertEqual(errors.count, 1, "errors: \(errors)", file: sourceFile, line: sourceLine)
        guard let error = errors.first else { return }
        XCTAssertEqual(error.file, file, file: sourceFile, line: sourceLine)
        XCTAssertEqual(error.line, line, "line of \(error)", file: sourceFile, line: sourceLine)
        XCTAssertEqual(error.column, column, "column of \(error)", file: sourceFile, line: sourceLine)
        XCTAssertEqual(error.jsonPath, path, file: sourceFile, line: sourceLine)
        XCTAssertTrue(
            error.message.contains(message), "message was: \(error.message)", file: sourceFile, line: sourceLine)
        XCTAssertEqual(error.suggestion, suggestion, file: sourceFile, line: sourceLine)
    }

    func testUnknownKeySuggestsClosestKnownKey() {
        let json = """
            {"stubs": [
              {"responses": [
                {"staus": 200}
              ]}
            ]}
            """
        assertOnlyError(
            json, line: 3, column: 6, path: "stubs[0].responses[0].staus",
            contains: "unknown key `staus`; did you mean `status`?", suggestion: "status")
        let error = loadErrors(json)[0]
        XCTAssertEqual(
            error.description,
            "bad.json:3:6: error: unknown key `staus`; did you mean `status`? (at stubs[0].responses[0].staus)")
    }

    func testACodingTheProcessCannotCompressWithIsRefusedWithItsReason() {
        CompressionSupport.install { $0 == .br ? "no brotli here" : nil }
        defer { CompressionSupport.install { _ in nil } }
        let json = """
            {"stubs": [
              {"responses": [
                {"body": "x", "compress": "br", "compressWhen": "always"}
              ]}
            ]}
            """
        assertOnlyError(
            json, line: 3, column: 31, path: "stubs[0].responses[0].compress", contains: "no brotli here")
        XCTAssertNoThrow(
            try StubLoader.parse(
                bytes: Array(#"{"stubs": [{"responses": [{"body": "x", "compress": "gzip"}]}]}"#.utf8), file: "ok.json",
                root: nil))
    }

    func testUnknownKeysAtEveryLevelSuggest() {
        let json = """
            {"stubz": [],
             "stubs": [
              {"requets": {}, "afterlast": "cycle", "rateLimit": {"limt": 1, "window": 1},
               "request": {"methd": "GET", "header": {}},
               "responses": [{"status": 200}]}
            ]}
            """
        let errors = loadErrors(json)
        let summary = errors.map { "\($0.line):\($0.column) \($0.jsonPath) \($0.suggestion ?? "-")" }
        XCTAssertEqual(
            summary,
            [
                "1:2 stubz stubs",
                "3:4 stubs[0].requets request",
                "3:19 stubs[0].afterlast afterLast",
                "3:55 stubs[0].rateLimit.limt limit",
                "4:16 stubs[0].request.methd method",
                "4:32 stubs[0].request.header headers",
            ])
        // With `limt` unknown, the rate limit also lacks its `limit`: one problem, one error, at the typo.
        XCTAssertEqual(errors[3].message, "unknown key `limt`; did you mean `limit`? (`limit` is required)")
    }

    func testMisspeltRequiredKeyIsOneErrorAtTheTypo() {
        assertOnlyError(
            """
            {"stubs": [
              {"id": "a", "responsez": [{}]}
            ]}
            """, line: 2, column: 15, path: "stubs[0].responsez",
            contains: "unknown key `responsez`; did you mean `responses`? (`responses` is required)",
            suggestion: "responses")
        // Further from the key than `closest` allows, but still plainly the missing key.
        assertOnlyError(
            #"{"stubs":[{"respones":[{}]}]}"#, line: 1, column: 12, path: "stubs[0].respones",
            contains: "did you mean `responses`? (`responses` is required)", suggestion: "responses")
        assertOnlyError(
            #"{"stubs":[{"resp":[{}]}]}"#, line: 1, column: 12, path: "stubs[0].resp",
            contains: "unknown key `resp`; did you mean `responses`? (`responses` is required)", suggestion: "responses"
        )
        assertOnlyError(
            #"{"stubz":[]}"#, line: 1, column: 2, path: "stubz",
            contains: "unknown key `stubz`; did you mean `stubs`? (`stubs` is required)", suggestion: "stubs")
        assertOnlyError(
            #"{"stubs":[{"responses":[{}],"rateLimit":{"limit":1,"windw":2}}]}"#, line: 1, column: 52,
            path: "stubs[0].rateLimit.windw", contains: "did you mean `window`? (`window` is required)",
            suggestion: "window")
    }

    func testMissingRequiredKeyWithNoLikelyTypoStaysTwoErrors() {
        // `setstate` is a typo of `setState`, not of the missing `responses`.
        let errors = loadErrors(#"{"stubs":[{"scenario":"s","setstate":"x"}]}"#)
        XCTAssertEqual(
            errors.map(\.message),
            [
                "missing key `responses`; a stub needs at least one response",
                "unknown key `setstate`; did you mean `setState`?",
            ])
    }

    func testUnknownKeyWithNothingCloseListsKnownKeys() {
        assertOnlyError(
            #"{"stubs":[{"responses":[{}],"zzzzzzzz":1}]}"#, line: 1, column: 29, path: "stubs[0].zzzzzzzz",
            contains: "unknown key `zzzzzzzz`; expected one of `id`")
    }

    func testEveryErrorIsReportedNotJustTheFirst() {
        let json = """
            {"stubs": [
              {"id": "a", "responses": [{"status": 700}]},
              {"id": "b", "responses": []},
              {"id": "c", "responses": [{"status": 200, "body": "x", "json": {}}]}
            ]}
            """
        let errors = loadErrors(json)
        XCTAssertEqual(
            errors.map(\.jsonPath),
            ["stubs[0].responses[0].status", "stubs[1].responses", "stubs[2].responses[0].json"])
        XCTAssertEqual(errors.map(\.line), [2, 3, 4])
    }

    func testStatusOutOfRange() {
        assertOnlyError(
            """
            {"stubs": [{"responses": [{"status": 99}]}]}
            """, line: 1, column: 38, path: "stubs[0].responses[0].status",
            contains: "expected a status code from 100 to 599, found 99")
        assertOnlyError(
            #"{"stubs":[{"responses":[{"status":600}]}]}"#, line: 1, column: 35, path: "stubs[0].responses[0].status",
            contains: "found 600")
        assertOnlyError(
            #"{"stubs":[{"responses":[{"status":"200"}]}]}"#, line: 1, column: 35, path: "stubs[0].responses[0].status",
            contains: "found a string")
        assertOnlyError(
            #"{"stubs":[{"responses":[{"status":200.5}]}]}"#, line: 1, column: 35, path: "stubs[0].responses[0].status",
            contains: "found 200.5")
    }

    func testEmptyAndMissingResponses() {
        assertOnlyError(
            #"{"stubs":[{"id":"x","responses":[]}]}"#, line: 1, column: 33, path: "stubs[0].responses",
            contains: "`responses` is empty")
        assertOnlyError(
            """
            {"stubs": [
               {"id": "x"}
            ]}
            """, line: 2, column: 4, path: "stubs[0]", contains: "missing key `responses`")
        assertOnlyError(
            #"{"stubs":[{"responses":{}}]}"#, line: 1, column: 24, path: "stubs[0].responses",
            contains: "expected a non-empty array of responses, found an object")
    }

    func testMoreThanOneBodySourcePointsAtTheSecond() {
        assertOnlyError(
            """
            {"stubs": [{"responses": [{
              "base64": "aGk=",
              "bodyFile": "x.txt"
            }]}]}
            """, line: 3, column: 3, path: "stubs[0].responses[0].bodyFile",
            contains: "more than one body source (`base64` and `bodyFile`)")
    }

    func testInvalidRegexInEveryPlace() {
        assertOnlyError(
            #"{"stubs":[{"request":{"pathPattern":"/a("},"responses":[{}]}]}"#, line: 1, column: 37,
            path: "stubs[0].request.pathPattern", contains: "invalid regular expression `/a(`")
        assertOnlyError(
            #"{"stubs":[{"request":{"headers":{"X-A":{"matches":"[z-a]"}}},"responses":[{}]}]}"#, line: 1, column: 51,
            path: "stubs[0].request.headers.X-A.matches", contains: "invalid regular expression `[z-a]`")
        assertOnlyError(
            #"{"stubs":[{"request":{"query":{"q":{"matches":"*"}}},"responses":[{}]}]}"#, line: 1, column: 47,
            path: "stubs[0].request.query.q.matches", contains: "invalid regular expression")
        assertOnlyError(
            #"{"stubs":[{"request":{"body":{"matches":"(?<"}},"responses":[{}]}]}"#, line: 1, column: 41,
            path: "stubs[0].request.body.matches", contains: "invalid regular expression")
    }

    func testDuplicateIDsAcrossOneDocument() {
        assertOnlyError(
            """
            {"stubs": [
              {"id": "same", "responses": [{}]},
              {"id": "same", "responses": [{}]}
            ]}
            """, line: 3, column: 10, path: "stubs[1].id",
            contains: "duplicate stub id `same`; first used at bad.json:2:10")
    }

    func testDuplicateIDIsReportedWhenTheStubHasAnotherError() {
        let errors = loadErrors(
            """
            {"stubs": [
              {"id": "same", "responses": [{}]},
              {"id": "same", "whenState": "Ready", "responses": [{}]}
            ]}
            """)
        XCTAssertEqual(
            errors.map { "\($0.line):\($0.column) \($0.jsonPath)" }, ["3:10 stubs[1].id", "3:18 stubs[1].whenState"])
        XCTAssertEqual(errors.first?.message, "duplicate stub id `same`; first used at bad.json:2:10")
        // The first of the two may be the broken one.
        let reversed = loadErrors(#"{"stubs":[{"id":"x","responses":[{"status":1}]},{"id":"x","responses":[{}]}]}"#)
        XCTAssertEqual(reversed.map(\.jsonPath), ["stubs[0].responses[0].status", "stubs[1].id"])
    }

    func testWhenStateOrSetStateWithoutScenario() {
        assertOnlyError(
            #"{"stubs":[{"whenState":"A","responses":[{}]}]}"#, line: 1, column: 12, path: "stubs[0].whenState",
            contains: "`whenState` needs `scenario`")
        assertOnlyError(
            #"{"stubs":[{"setState":"A","responses":[{}]}]}"#, line: 1, column: 12, path: "stubs[0].setState",
            contains: "`setState` needs `scenario`")
    }

    func testPathAndPathPatternTogether() {
        assertOnlyError(
            #"{"stubs":[{"request":{"path":"/a","pathPattern":"/a"},"responses":[{}]}]}"#, line: 1, column: 35,
            path: "stubs[0].request.pathPattern", contains: "either `path` or `pathPattern`, not both")
        assertOnlyError(
            #"{"stubs":[{"request":{"path":"a"},"responses":[{}]}]}"#, line: 1, column: 30,
            path: "stubs[0].request.path", contains: "must start with `/`")
    }

    func testEnumValuesSuggest() {
        assertOnlyError(
            #"{"stubs":[{"afterLast":"repaet","responses":[{}]}]}"#, line: 1, column: 24, path: "stubs[0].afterLast",
            contains: "unknown value `repaet`; did you mean `repeat`?", suggestion: "repeat")
        assertOnlyError(
            #"{"stubs":[{"responses":[{"fault":"connection-rest"}]}]}"#, line: 1, column: 34,
            path: "stubs[0].responses[0].fault",
            contains: "did you mean `connection-reset`?", suggestion: "connection-reset")
        assertOnlyError(
            #"{"stubs":[{"rateLimit":{"limit":1,"window":1,"retryAfter":"http_date"},"responses":[{}]}]}"#, line: 1,
            column: 59,
            path: "stubs[0].rateLimit.retryAfter", contains: "did you mean `http-date`?", suggestion: "http-date")
        assertOnlyError(
            #"{"stubs":[{"afterLast":"never","responses":[{}]}]}"#, line: 1, column: 24, path: "stubs[0].afterLast",
            contains: "expected one of `repeat`, `cycle`, `exhaust`")
    }

    func testFaultObjectFormErrors() {
        assertOnlyError(
            #"{"stubs":[{"responses":[{"fault":{"rstStream":{"errorCode":"REFUSED_STREEM"}}}]}]}"#, line: 1, column: 60,
            path: "stubs[0].responses[0].fault.rstStream.errorCode",
            contains: "did you mean `REFUSED_STREAM`?", suggestion: "REFUSED_STREAM")
        assertOnlyError(
            #"{"stubs":[{"responses":[{"fault":{"rstStream":{},"goaway":{}}}]}]}"#, line: 1, column: 50,
            path: "stubs[0].responses[0].fault.goaway", contains: "give one of `rstStream` or `goaway`, not both")
        assertOnlyError(
            #"{"stubs":[{"responses":[{"fault":{"goaway":{"lastStreamId":4}}}]}]}"#, line: 1, column: 60,
            path: "stubs[0].responses[0].fault.goaway.lastStreamId", contains: "0 or an odd number, found 4")
        assertOnlyError(
            #"{"stubs":[{"responses":[{"fault":{"goaway":{"inFlight":"drain"}}}]}]}"#, line: 1, column: 56,
            path: "stubs[0].responses[0].fault.goaway.inFlight", contains: "expected one of `finish`, `cut`")
        assertOnlyError(
            #"{"stubs":[{"responses":[{"fault":{"rstStraem":{}}}]}]}"#, line: 1, column: 35,
            path: "stubs[0].responses[0].fault.rstStraem", contains: "did you mean `rstStream`?",
            suggestion: "rstStream")
        assertOnlyError(
            #"{"stubs":[{"responses":[{"fault":{}}]}]}"#, line: 1, column: 34, path: "stubs[0].responses[0].fault",
            contains: "an empty `fault` object")
    }

    func testNumericConstraints() {
        assertOnlyError(
            #"{"stubs":[{"responses":[{"times":0}]}]}"#, line: 1, column: 34, path: "stubs[0].responses[0].times",
            contains: "an integer ≥ 1")
        assertOnlyError(
            #"{"stubs":[{"responses":[{"times":1.5}]}]}"#, line: 1, column: 34, path: "stubs[0].responses[0].times",
            contains: "found 1.5")
        assertOnlyError(
            #"{"stubs":[{"responses":[{"delayMs":-1}]}]}"#, line: 1, column: 36, path: "stubs[0].responses[0].delayMs",
            contains: "must be from 0 to")
        assertOnlyError(
            #"{"stubs":[{"rateLimit":{"limit":0,"window":1},"responses":[{}]}]}"#, line: 1, column: 33,
            path: "stubs[0].rateLimit.limit", contains: "≥ 1")
        assertOnlyError(
            #"{"stubs":[{"rateLimit":{"limit":1,"window":0},"responses":[{}]}]}"#, line: 1, column: 44,
            path: "stubs[0].rateLimit.window", contains: "greater than 0")
        assertOnlyError(
            #"{"stubs":[{"responses":[{"delayMs":1e300}]}]}"#, line: 1, column: 36,
            path: "stubs[0].responses[0].delayMs", contains: "from 0 to 86400000")
        assertOnlyError(
            #"{"stubs":[{"rateLimit":{"limit":1,"window":1e300},"responses":[{}]}]}"#, line: 1, column: 44,
            path: "stubs[0].rateLimit.window", contains: "at most 315360000")
        assertOnlyError(
            #"{"stubs":[{"responses":[{"retryAfter":{"httpDateIn":1e300}}]}]}"#, line: 1, column: 53,
            path: "stubs[0].responses[0].retryAfter.httpDateIn", contains: "from 0 to 315360000")
        assertOnlyError(
            #"{"stubs":[{"responses":[{"retryAfter":-2}]}]}"#, line: 1, column: 39,
            path: "stubs[0].responses[0].retryAfter", contains: "0 or more")
        assertOnlyError(
            #"{"stubs":[{"responses":[{"retryAfter":{"httpDateIn":"soon"}}]}]}"#, line: 1, column: 53,
            path: "stubs[0].responses[0].retryAfter.httpDateIn", contains: "expected a number")
    }

    func testMatcherShapes() {
        assertOnlyError(
            #"{"stubs":[{"request":{"headers":{"A":{"contains":"x","equals":"y"}}},"responses":[{}]}]}"#, line: 1,
            column: 38,
            path: "stubs[0].request.headers.A", contains: "exactly one of")
        assertOnlyError(
            #"{"stubs":[{"request":{"query":{"a":{"present":false}}},"responses":[{}]}]}"#, line: 1, column: 47,
            path: "stubs[0].request.query.a.present", contains: "takes only `true`")
        assertOnlyError(
            #"{"stubs":[{"request":{"query":{"a":{"contans":"x"}}},"responses":[{}]}]}"#, line: 1, column: 37,
            path: "stubs[0].request.query.a.contans", contains: "did you mean `contains`?", suggestion: "contains")
        assertOnlyError(
            #"{"stubs":[{"request":{"query":{"a":5}},"responses":[{}]}]}"#, line: 1, column: 36,
            path: "stubs[0].request.query.a", contains: "expected a string or a matcher object")
        assertOnlyError(
            #"{"stubs":[{"request":{"body":"x"},"responses":[{}]}]}"#, line: 1, column: 30,
            path: "stubs[0].request.body", contains: "expected a body matcher object")
        assertOnlyError(
            #"{"stubs":[{"request":{"body":{"jsonSubst":{}}},"responses":[{}]}]}"#, line: 1, column: 31,
            path: "stubs[0].request.body.jsonSubst", contains: "did you mean `jsonSubset`?", suggestion: "jsonSubset")
        assertOnlyError(
            #"{"stubs":[{"request":{"method":"GE T"},"responses":[{}]}]}"#, line: 1, column: 32,
            path: "stubs[0].request.method", contains: "not an HTTP method token")
    }

    func testResponseHeaderShapes() {
        assertOnlyError(
            #"{"stubs":[{"responses":[{"headers":{"X-A":5}}]}]}"#, line: 1, column: 43,
            path: "stubs[0].responses[0].headers.X-A",
            contains: "expected a string or an array of strings, found a number")
        assertOnlyError(
            #"{"stubs":[{"responses":[{"headers":{"X-A":["a",1]}}]}]}"#, line: 1, column: 48,
            path: "stubs[0].responses[0].headers.X-A[1]", contains: "expected a string")
        assertOnlyError(
            #"{"stubs":[{"responses":[{"headers":{"X-A":"a\r\nInjected: 1"}}]}]}"#, line: 1, column: 43,
            path: "stubs[0].responses[0].headers.X-A", contains: "line breaks")
        assertOnlyError(
            #"{"stubs":[{"responses":[{"headers":{"Bad Name":"a"}}]}]}"#, line: 1, column: 37,
            path: #"stubs[0].responses[0].headers["Bad Name"]"#, contains: "not a valid header name")
        assertOnlyError(
            #"{"stubs":[{"responses":[{"headers":{"Retry-After":"1"},"retryAfter":2}]}]}"#, line: 1, column: 56,
            path: "stubs[0].responses[0].retryAfter", contains: "both set the header")
    }

    func testBase64MustBeValid() {
        assertOnlyError(
            #"{"stubs":[{"responses":[{"base64":"not base64!"}]}]}"#, line: 1, column: 35,
            path: "stubs[0].responses[0].base64", contains: "not valid base64")
    }

    func testDocumentShape() {
        assertOnlyError(
            "[]", line: 1, column: 1, path: "", contains: "expected an object with a `stubs` array, found an array")
        assertOnlyError(#"{"$schema": "x"}"#, line: 1, column: 1, path: "", contains: "missing key `stubs`")
        assertOnlyError(
            #"{"stubs": {}}"#, line: 1, column: 11, path: "stubs",
            contains: "expected an array of stubs, found an object")
        assertOnlyError(
            #"{"stubs": [1]}"#, line: 1, column: 12, path: "stubs[0]",
            contains: "expected a stub object, found a number")
        assertOnlyError(
            #"{"stubs":[{"id":"","responses":[{}]}]}"#, line: 1, column: 17, path: "stubs[0].id",
            contains: "found an empty string")
        assertOnlyError(
            #"{"stubs":[{"scenario":"s","scenario":"t","responses":[{}]}]}"#, line: 1, column: 27,
            path: "stubs[0].scenario", contains: "appears more than once")
    }

    func testSyntaxErrorsHavePositions() {
        assertOnlyError(
            "{\"stubs\": [\n  {\"id\": \"a\",}\n]}", line: 2, column: 14, path: "stubs[0]",
            contains: "not valid JSON: expected a string key, found `}`")
        assertOnlyError(
            "{\"stubs\": [\n  {\"id\": \"unterminated}\n]}", line: 2, column: 24, path: "stubs[0].id",
            contains: "control character in string")
        assertOnlyError("{\"stubs\": []} x", line: 1, column: 15, path: "", contains: "after the JSON value")
        assertOnlyError("", line: 1, column: 1, path: "", contains: "found end of file")
        // Columns count characters, not bytes.
        assertOnlyError(
            "{\"stubs\": [{\"description\": \"héllo\", \"bogus\": 1, \"responses\": [{}]}]}", line: 1, column: 37,
            path: "stubs[0].bogus", contains: "unknown key `bogus`")
    }
}
