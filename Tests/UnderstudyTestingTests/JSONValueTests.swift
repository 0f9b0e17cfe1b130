import Foundation
import Testing
import UnderstudyJSON

/// The package's one JSON value: literals (interpolation too), written order, JSON equality, Codable.
@Suite("UnderstudyJSON: JSONValue")
struct JSONValueTests {
    @Test func literalsKeepWrittenOrderAndInterpolate() {
        let n = 7
        let value: JSONValue = ["zeta": 1, "alpha": "Station \(n)", "mid": [true, nil, 2.5, ["b": 1, "a": 2]]]
        #expect(value.jsonText == #"{"zeta":1,"alpha":"Station 7","mid":[true,null,2.5,{"b":1,"a":2}]}"#)
        #expect(value["alpha"]?.stringValue == "Station 7")
        #expect(JSONValue(2.0).jsonText == "2")
        #expect(JSONValue.string("a\"b\\\n\u{1}").jsonText == #""a\"b\\\n\u0001""#)
    }

    @Test func equalityIsJSONs() {
        let a: JSONValue = ["x": 1, "y": [1, 2]]
        let b: JSONValue = ["y": [1.0, 2], "x": .number("1e0")]
        #expect(a == b, "key order and number spelling do not matter")
        #expect(a != ["x": 1, "y": [2, 1]], "array order does")
        #expect(a != ["x": 1], "a missing key does")
    }

    @Test func codableRoundTrip() throws {
        let value: JSONValue = ["s": "t", "i": 42, "d": 0.25, "b": false, "n": nil, "a": [1, ["k": "v"]]]
        let data = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(JSONValue.self, from: data) == value)
        struct Wrapper: Codable, Equatable { var payload: JSONValue }
        let wrapped = Wrapper(payload: value)
        #expect(try JSONDecoder().decode(Wrapper.self, from: JSONEncoder().encode(wrapped)) == wrapped)
    }
}
