import RESTNetworking
import UnderstudyTesting
import XCTest

/// Query items and `Encodable` bodies on the untyped API, read back from the journal's raw query
/// and body: what was actually on the wire.
final class QueryAndBodyIntegrationTests: DaemonTestCase {
    static let awkward = "a+b c/d?&=é"
    static let awkwardEncoded = "a%2Bb%20c%2Fd%3F%26%3D%C3%A9"

    func testQueryItemsAreAppendedAndPercentEncodedStrictly() async throws {
        let items = [
            URLQueryItem(name: "q", value: Self.awkward), URLQueryItem(name: "tag", value: "x"),
            URLQueryItem(name: "tag", value: "y"), URLQueryItem(name: "flag", value: nil),
        ]
        _ = try await api.get(endpoint: "rest/echo", query: items).catchHTTPErrors().awaitResult().get()
        _ = try await api.call(.get, endpoint: "rest/echo?page=2", query: [URLQueryItem(name: "sort", value: "new")])
            .catchHTTPErrors().response()

        let requests = try await journal("/rest/echo")
        XCTAssertEqual(requests.map(\.query), ["q=\(Self.awkwardEncoded)&tag=x&tag=y&flag", "page=2&sort=new"])
    }

    func testTheDaemonDecodesThePlusAsAPlusNotASpace() async throws {
        // The typed-search stub matches the *decoded* value "a+b c/d?&=é": it answers only if `+`
        // went out as %2B (a raw `+` is decoded as a space, and the request would go unmatched).
        let (_, response) = try await api.call(
            .get, endpoint: "rest/typed/posts",
            query: [
                URLQueryItem(name: "q", value: Self.awkward),
                URLQueryItem(name: "tag", value: ""),
            ]
        )
        .catchHTTPErrors().response()
        XCTAssertEqual(response.statusCode, 200)
        let stub = try await journal("/rest/typed/posts").first?.stub
        XCTAssertEqual(stub, "rest-typed-search")
    }

    func testEncodableBodiesAreSentAsJSONWithTheirEncoder() async throws {
        let post = DatedPost(title: "new", publishedAt: Date(timeIntervalSince1970: 1_795_478_400), tags: ["a", "b"])
        _ = try await api.post(endpoint: "rest/echo", json: post, encoder: .sortedISO8601).catchHTTPErrors()
            .awaitResult().get()
        _ = try await api.call(.put, endpoint: "rest/echo", json: post, encoder: .sortedISO8601) {
            $0.addingValue("application/merge-patch+json", forHTTPHeaderField: "Content-Type")
        }.catchHTTPErrors().response()

        let requests = try await journal("/rest/echo")
        XCTAssertEqual(requests.map(\.method), ["POST", "PUT"])
        for request in requests {
            XCTAssertEqual(request.body, #"{"publishedAt":"2026-11-24T00:00:00Z","tags":["a","b"],"title":"new"}"#)
        }
        XCTAssertEqual(
            requests.map { $0.header("Content-Type") }, ["application/json", "application/merge-patch+json"],
            "JSON unless the request modifier says otherwise")
    }

    func testABodyThatCannotBeEncodedFailsBeforeSending() async throws {
        do {
            _ = try await api.call(.post, endpoint: "rest/echo", json: ["ratio": Double.nan]).response()
            XCTFail("NaN is not JSON")
        } catch {
            XCTAssertTrue(error is EncodingError, "\(error)")
        }
        let requests = try await journal("/rest/echo")
        XCTAssertEqual(requests.count, 0)
    }
}

struct DatedPost: Codable, Equatable, Sendable {
    var title: String
    var publishedAt: Date
    var tags: [String]
}

extension JSONEncoder {
    /// Sorted keys (so the bytes are predictable) and ISO 8601 dates.
    static var sortedISO8601: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }
}
