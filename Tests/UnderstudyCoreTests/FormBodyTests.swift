import XCTest
@testable import UnderstudyCore
import UnderstudyCoreTestSupport

/// The `form` body matcher, `{{request.form.NAME}}` and typed template values in `json` (issue 47).
final class FormBodyTests: XCTestCase {
    private static let stubs = #"""
        {"stubs":[
          {"id":"charge","request":{"method":"POST","path":"/charges",
             "body":{"form":{"amount":{"matches":"[0-9]+"},"currency":"eur","metadata[order]":{"present":true},
                             "capture":{"absent":true}}}},
           "responses":[{"status":201,"template":true,
             "json":{"amount":"{{number request.form.amount}}","order":"{{request.form.metadata.order}}",
                     "created":"{{number now.epoch}}","live":"{{boolean request.form.live}}",
                     "note":"{{json request.form.note}}","first":"{{request.form.tag}}",
                     "text":"{{number request.form.currency}}","name":"{{ number   request.form.amount }}"}}]},
          {"id":"tags","request":{"method":"POST","path":"/tags","body":{"form":{"tag":"b"}}},"responses":[{"status":200}]}
        ]}
        """#

    private func post(_ engine: StubEngine, _ path: String, _ body: String) -> HTTPResponse {
        engine.send(
            "POST", path, headers: ["Content-Type": "application/x-www-form-urlencoded"], body: body)
    }

    func testFieldsMatchInAnyOrderWithTheirMatchers() throws {
        let engine = try makeEngine(Self.stubs)
        XCTAssertEqual(post(engine, "/charges", "metadata%5Border%5D=7&currency=eur&amount=2000").status, 201)
        XCTAssertEqual(post(engine, "/charges", "currency=eur&amount=2000&metadata[order]=7").status, 201)
        XCTAssertEqual(post(engine, "/charges", "currency=eur&amount=20x&metadata[order]=7").status, 404)
        XCTAssertEqual(post(engine, "/charges", "currency=eur&amount=1").status, 404, "metadata[order] is required")
        XCTAssertEqual(post(engine, "/charges", "currency=eur&amount=1&metadata[order]=1&capture=x").status, 404)
        XCTAssertEqual(post(engine, "/tags", "tag=a&tag=b").status, 200, "a repeated field: any value")
        XCTAssertEqual(post(engine, "/tags", "tag=a&tag=c").status, 404)
    }

    func testAMissExplainsTheField() throws {
        let engine = try makeEngine(Self.stubs)
        let miss = post(engine, "/charges", "currency=eur&amount=20x&metadata[order]=7")
        XCTAssertTrue(miss.text.contains(#"form field amount="20x" does not match [0-9]+"#), miss.text)
    }

    func testFormFieldsAndTypedValuesInTemplates() throws {
        let clock = ManualEngineClock(start: Date(timeIntervalSince1970: 1_767_225_600))
        let engine = try makeEngine(Self.stubs, clock: clock)
        let answer = post(
            engine, "/charges",
            "amount=2000&currency=eur&metadata%5Border%5D=7&live=true&note=%7B%22a%22%3A%5B1%5D%7D&tag=x&tag=y")
        XCTAssertEqual(answer.status, 201, answer.text)
        XCTAssertEqual(
            answer.text,
            #"{"amount":2000,"order":"7","created":1767225600,"live":true,"note":{"a":[1]},"first":"x","#
                + #""text":"eur","name":2000}"#)
        let sparse = post(engine, "/charges", "amount=1&currency=eur&metadata[order]=1")
        XCTAssertEqual(sparse.jsonObject["live"] as? NSNull, NSNull(), "an empty typed value is null")
        XCTAssertEqual(sparse.jsonObject["note"] as? NSNull, NSNull())
    }

    func testFormMatcherErrorsArePositioned() {
        let errors = loadErrors(
            #"{"stubs":[{"id":"x","request":{"body":{"form":{"a":{"equls":"1"}}}},"responses":[{"status":200}]}]}"#)
        XCTAssertEqual(errors.first?.jsonPath, "stubs[0].request.body.form.a.equls", "\(errors)")
        XCTAssertEqual(
            loadErrors(#"{"stubs":[{"id":"x","request":{"body":{"form":"a=1"}},"responses":[{"status":200}]}]}"#)
                .count, 1)
    }

    func testAnUnknownNameInATypedTagIsALoadError() {
        let errors = loadErrors(
            #"{"stubs":[{"id":"x","responses":[{"template":true,"json":{"a":"{{number request.pth}}"}}]}]}"#)
        XCTAssertTrue(errors.first?.message.contains("did you mean `request.path`?") == true, "\(errors)")
    }
}
