import RESTNetworking
import XCTest

final class QueryItemEncodingTests: XCTestCase {
    func testOnlyUnreservedCharactersStayAsTheyAre() {
        XCTAssertEqual(QueryItemEncoding.percentEncode("AZaz09-._~"), "AZaz09-._~")
        XCTAssertEqual(
            QueryItemEncoding.percentEncode("a+b c"), "a%2Bb%20c", "`+` must not reach a form decoder as a space")
        XCTAssertEqual(
            QueryItemEncoding.percentEncode("&=?/#%[]@!$'()*,;:"),
            "%26%3D%3F%2F%23%25%5B%5D%40%21%24%27%28%29%2A%2C%3B%3A")
        XCTAssertEqual(QueryItemEncoding.percentEncode("é€"), "%C3%A9%E2%82%AC", "UTF-8, upper-case hex")
    }

    func testItemsKeepOrderRepeatsAndBareNames() {
        let items = [
            URLQueryItem(name: "tag", value: "a"), URLQueryItem(name: "tag", value: "b"),
            URLQueryItem(name: "flag", value: nil), URLQueryItem(name: "empty", value: ""),
            URLQueryItem(name: "a b", value: "1+1=2"),
        ]
        XCTAssertEqual(QueryItemEncoding.encode(items), "tag=a&tag=b&flag&empty=&a%20b=1%2B1%3D2")
    }

    func testFormBodiesUseTheSameEncoding() throws {
        let body = RequestBody.form([URLQueryItem(name: "q", value: "a+b c")])
        XCTAssertEqual(body.contentType, "application/x-www-form-urlencoded")
        XCTAssertEqual(String(decoding: try body.encoded(), as: UTF8.self), "q=a%2Bb%20c")
    }
}
