import XCTest

import UnderstudyCore
@testable import UnderstudyServer

/// `compress`'s decisions without a socket: which `Accept-Encoding` accepts a coding, what Jetty's rules
/// (a WireMock root) compress and the `Vary` each adds. Decoding by real clients is in
/// Tests/BlackBox/test_compression.py; Jetty's rules against the jar in the WireMock differential.
final class BodyCompressorTests: XCTestCase {
    func testAcceptEncodingWeightsAndWildcards() {
        XCTAssertTrue(ResponseCompression.accepts(["gzip, deflate, br"], "gzip"))
        XCTAssertTrue(ResponseCompression.accepts(["br", "GZIP;q=0.5"], "gzip"), "a second field, any case")
        XCTAssertTrue(ResponseCompression.accepts(["x-gzip"], "gzip"))
        XCTAssertFalse(ResponseCompression.accepts(["gzip;q=0"], "gzip"))
        XCTAssertFalse(ResponseCompression.accepts(["gzip ; q=0.0, *"], "gzip"), "named beats the wildcard")
        XCTAssertTrue(ResponseCompression.accepts(["*"], "deflate"))
        XCTAssertFalse(ResponseCompression.accepts(["*;q=0"], "deflate"))
        XCTAssertFalse(ResponseCompression.accepts([], "gzip"))
        XCTAssertFalse(ResponseCompression.accepts(["identity"], "gzip"))
    }

    func testJettyCompressesTwoHundredsOfTextToItsMethods() {
        let json: HTTPHeaders = ["Content-Type": "application/json"]
        XCTAssertTrue(BodyCompressor.jettyCompresses(200, json, "GET"))
        XCTAssertTrue(BodyCompressor.jettyCompresses(201, HTTPHeaders(), "DELETE"), "no Content-Type compresses")
        XCTAssertTrue(BodyCompressor.jettyCompresses(200, ["Content-Type": "image/svg+xml"], "GET"))
        XCTAssertFalse(BodyCompressor.jettyCompresses(200, ["Content-Type": "Image/PNG"], "GET"))
        XCTAssertFalse(BodyCompressor.jettyCompresses(200, ["Content-Type": "application/zip"], "GET"))
        XCTAssertFalse(BodyCompressor.jettyCompresses(204, json, "GET"))
        XCTAssertFalse(BodyCompressor.jettyCompresses(404, json, "GET"))
        XCTAssertFalse(BodyCompressor.jettyCompresses(200, json, "HEAD"))
        XCTAssertFalse(BodyCompressor.jettyCompresses(200, json, "OPTIONS"))
        XCTAssertFalse(BodyCompressor.jettyCompresses(200, json, "get"))
        XCTAssertFalse(BodyCompressor.jettyCompresses(200, ["Content-Encoding": "identity"], "GET"))
    }

    func testVaryFieldsAsJettyAndNativeAddThem() {
        var headers: HTTPHeaders = ["Vary": "Accept"]
        BodyCompressor.addJettyVary(to: &headers)
        XCTAssertEqual(headers.values(for: "Vary"), ["Accept", "Accept-Encoding, User-Agent"])
        headers = HTTPHeaders([.init(name: "Vary", value: "Accept"), .init(name: "Vary", value: "accept-encoding")])
        BodyCompressor.addJettyVary(to: &headers)
        XCTAssertEqual(headers.values(for: "Vary"), ["Accept", "accept-encoding", "User-Agent"])
        headers = ["Vary": "Accept, Accept-Encoding"]
        BodyCompressor.addVary(to: &headers)
        XCTAssertEqual(headers.values(for: "Vary"), ["Accept, Accept-Encoding"], "native adds nothing it names")
        headers = HTTPHeaders()
        BodyCompressor.addVary(to: &headers)
        XCTAssertEqual(headers.values(for: "Vary"), ["Accept-Encoding"])
    }

    func testAnswersAreCompressedOrLeftAsTheyAre() throws {
        let body = Array(String(repeating: "compress me ", count: 50).utf8)
        var response = HTTPResponse(status: 200, body: body)
        response.compression = ResponseCompression(coding: .gzip)
        var plain = response
        BodyCompressor.apply(&plain, for: HTTPRequest(method: "GET", target: "/", headers: HTTPHeaders()), journal: nil)
        XCTAssertEqual(plain.body, body)
        XCTAssertNil(plain.headers["Content-Encoding"])
        XCTAssertEqual(plain.headers["Vary"], "Accept-Encoding")
        XCTAssertNil(plain.compression)
        var gzipped = response
        let ticket = JournalTicket(worldClock: nil)
        BodyCompressor.apply(
            &gzipped, for: HTTPRequest(method: "GET", target: "/", headers: ["Accept-Encoding": "gzip"]),
            journal: ticket)
        XCTAssertEqual(gzipped.headers["Content-Encoding"], "gzip")
        XCTAssertEqual(Array(gzipped.body.prefix(2)), [0x1f, 0x8b])
        XCTAssertLessThan(gzipped.body.count, body.count / 5)
        XCTAssertEqual(ticket.bodyBeforeEncoding, body, "the journal gets the body as written")
    }

    func testBrotliCompressesAndAStaticBodyIsCompressedOnce() throws {
        XCTAssertNil(BodyCompressor.unavailability(of: .br), "libbrotli1 is installed where the tests run")
        let body = Array(String(repeating: "brotli me ", count: 80).utf8)
        var response = HTTPResponse(status: 200, body: body)
        let setting = ResponseCompression(coding: .br, when: .always)
        response.compression = setting
        let request = HTTPRequest(method: "GET", target: "/", headers: HTTPHeaders())
        var first = response
        BodyCompressor.apply(&first, for: request, journal: nil)
        XCTAssertEqual(first.headers["Content-Encoding"], "br")
        XCTAssertNil(first.headers["Vary"], "always: the answer does not depend on Accept-Encoding")
        XCTAssertLessThan(first.body.count, body.count / 5)
        XCTAssertEqual(setting.memo.encoded(body, .br, nil), first.body, "remembered for the next answer")
        XCTAssertNil(setting.memo.encoded(body, .gzip, nil), "for its coding only")
        XCTAssertNil(setting.memo.encoded(Array(body.dropLast()), .br, nil), "and for that body only")
        var second = response
        BodyCompressor.apply(&second, for: request, journal: nil)
        XCTAssertEqual(second.body, first.body)
    }

    func testAThreadsDeflateStreamsAreResetBetweenBodies() throws {
        let short = Array("short".utf8)
        let long = Array(String(repeating: "a longer body, repeated ", count: 40).utf8)
        let gzipLong = try XCTUnwrap(BodyCompressor.compress(long, .gzip))
        let gzipShort = try XCTUnwrap(BodyCompressor.compress(short, .gzip))
        XCTAssertEqual(BodyCompressor.compress(long, .gzip), gzipLong, "the same bytes after another body")
        XCTAssertEqual(Array(gzipShort.prefix(2)), [0x1f, 0x8b])
        // gzip's trailer: the CRC-32 and the length of this body alone.
        XCTAssertEqual(Array(gzipShort.suffix(4)), [5, 0, 0, 0])
        let deflated = try XCTUnwrap(BodyCompressor.compress(long, .deflate))
        XCTAssertEqual(deflated.first, 0x78, "zlib's header, from the thread's other stream")
        XCTAssertEqual(BodyCompressor.compress(long, .deflate), deflated)
        XCTAssertEqual(BodyCompressor.compress([], .gzip)?.prefix(2).map { $0 }, [0x1f, 0x8b])
    }
}
