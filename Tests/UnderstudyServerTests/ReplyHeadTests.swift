import Foundation
import UnderstudyCore
import UnderstudyServer
import XCTest

/// The transport writes each reply's head itself (see `Connection+Reply.swift`). These pin its
/// bytes (`Date` values masked): `HTTP/1.1` whatever the request's 1.x version (RFC 9110 §6.2),
/// the stub's fields in order, then `Date`, `Content-Length` and `Connection` as RFC 9112 §9.3
/// asks, no body or `Content-Length` where none is allowed. They are the bytes evhttp 2.1 wrote
/// for the same requests, but for the version of HTTP/1.0 replies and odd versions (now refused).
final class ReplyHeadTests: XCTestCase {
    private static let stubs = #"""
        {"stubs":[
          {"id":"a","request":{"method":"GET","path":"/a"},"responses":[{"status":200,"headers":{"Content-Type":"text/plain","X-Multi":["1","2"]},"body":"hello"}]},
          {"id":"n","request":{"method":"GET","path":"/n"},"responses":[{"status":204}]},
          {"id":"m","request":{"method":"GET","path":"/m"},"responses":[{"status":200,"statusMessage":"Fine Thanks","body":"x"}]},
          {"id":"nm","request":{"method":"GET","path":"/304"},"responses":[{"status":304}]},
          {"id":"dt","request":{"method":"GET","path":"/dt"},"responses":[{"status":200,"headers":{"X-First":"1","Date":"Mon, 01 Jan 2001 00:00:00 GMT","X-Last":"2"},"body":"d"}]},
          {"id":"cn","request":{"method":"GET","path":"/cn"},"responses":[{"status":200,"headers":{"X-First":"1","Connection":"keep-alive","X-Last":"2"},"body":"c"}]},
          {"id":"cl","request":{"method":"GET","path":"/cl"},"responses":[{"status":200,"headers":{"Content-Length":"1","X-Last":"2"},"body":"c"}]},
          {"id":"te","request":{"method":"GET","path":"/te"},"responses":[{"status":200,"headers":{"X-A":"1","Transfer-Encoding":"chunked","X-B":"2"},"body":"t"}]},
          {"id":"big","request":{"method":"GET","path":"/big"},"responses":[{"status":200,"body":"\#(String(repeating: "B", count: 40_000))"}]}
        ]}
        """#

    private var server: BackgroundServer!

    override func setUpWithError() throws {
        server = try BackgroundServer.start(configuration: ServerConfiguration()) {
            UnderstudyResponder(
                stubs: try StubLoader.parse(bytes: Array(Self.stubs.utf8), file: "heads.json", root: nil))
        }
    }

    override func tearDown() {
        server?.stop()
    }

    /// Sends `requests` on one connection and returns everything the server wrote until it closed,
    /// with every `Date` value replaced by `D`.
    private func exchange(_ requests: String) throws -> String {
        let connection = try RawConnection(port: server.port)
        connection.send(requests)
        let bytes = try XCTUnwrap(connection.readUntilEnd(), "the server closes the connection after the last reply")
        return String(decoding: bytes, as: UTF8.self)
            .replacingOccurrences(of: #"Date: [^\r]*"#, with: "Date: D", options: .regularExpression)
    }

    private let fields = "Content-Type: text/plain\r\nX-Multi: 1\r\nX-Multi: 2\r\n"

    func testHTTP11RepliesByteForByte() throws {
        let sent = try exchange(
            "GET /a HTTP/1.1\r\nHost: x\r\n\r\nHEAD /a HTTP/1.1\r\nHost: x\r\n\r\nGET /m HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /n HTTP/1.1\r\nHost: x\r\n\r\nGET /304 HTTP/1.1\r\nHost: x\r\n\r\nGET /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        XCTAssertEqual(
            sent,
            "HTTP/1.1 200 OK\r\n\(fields)Date: D\r\nContent-Length: 5\r\n\r\nhello"
                + "HTTP/1.1 404 Not Found\r\nContent-Type: text/plain; charset=utf-8\r\nDate: D\r\n\r\n"
                + "HTTP/1.1 200 Fine Thanks\r\nDate: D\r\nContent-Length: 1\r\n\r\nx"
                + "HTTP/1.1 204 No Content\r\nDate: D\r\n\r\n"
                + "HTTP/1.1 304 Not Modified\r\nDate: D\r\n\r\n"
                + "HTTP/1.1 200 OK\r\n\(fields)Date: D\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello")
    }

    /// An HTTP/1.0 client keeps its connection only when it asks (RFC 9112 §9.3); the reply says
    /// `HTTP/1.1`, the server's version (RFC 9110 §6.2).
    func testHTTP10RepliesFollowTheKeepAliveRule() throws {
        let sent = try exchange("GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /a HTTP/1.0\r\n\r\n")
        XCTAssertEqual(
            sent,
            "HTTP/1.1 200 OK\r\n\(fields)Date: D\r\nContent-Length: 5\r\nConnection: keep-alive\r\n\r\nhello"
                + "HTTP/1.1 200 OK\r\n\(fields)Date: D\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello")
    }

    /// Versions other than 1.0 and 1.1 are refused: 505 for another major version (RFC 9110
    /// §15.6.6), 400 for what is not a version at all (RFC 9112 §2.3).
    func testOtherVersionsAreRefused() throws {
        let zeroNine = try exchange("GET /a HTTP/0.9\r\n\r\n")
        XCTAssertTrue(zeroNine.hasPrefix("HTTP/1.1 505 HTTP Version Not Supported\r\n"), zeroNine)
        let negative = try exchange("GET /a HTTP/1.-2\r\n\r\n")
        XCTAssertTrue(negative.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), negative)
    }

    /// A stub's `Date`, `Content-Length` and `Connection` keep their place among its fields;
    /// its `Transfer-Encoding` is left to the transport's framing, which honours `chunked` (as
    /// WireMock does) by sending the body as one chunk.
    func testFieldsEvhttpReadsKeepTheirPlace() throws {
        let sent = try exchange(
            "GET /dt HTTP/1.1\r\nHost: x\r\n\r\nGET /cl HTTP/1.1\r\nHost: x\r\n\r\nGET /te HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /cn HTTP/1.1\r\nHost: x\r\n\r\nGET /cn HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(
            sent,
            "HTTP/1.1 200 OK\r\nX-First: 1\r\nDate: D\r\nX-Last: 2\r\nContent-Length: 1\r\n\r\nd"
                + "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nX-Last: 2\r\nDate: D\r\n\r\nc"
                + "HTTP/1.1 200 OK\r\nX-A: 1\r\nX-B: 2\r\nDate: D\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nt\r\n0\r\n\r\n"
                + "HTTP/1.1 200 OK\r\nX-First: 1\r\nConnection: keep-alive\r\nX-Last: 2\r\nDate: D\r\nContent-Length: 1\r\n\r\nc"
                + "HTTP/1.1 200 OK\r\nX-First: 1\r\nX-Last: 2\r\nDate: D\r\nContent-Length: 1\r\nConnection: close\r\n\r\nc"
        )
    }

    /// A body past the inline limit goes in after the head rather than in the head's space.
    func testALargeBodyFollowsItsHeadWhole() throws {
        let sent = try exchange("GET /big HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(
            sent,
            "HTTP/1.1 200 OK\r\nDate: D\r\nContent-Length: 40000\r\nConnection: close\r\n\r\n"
                + String(repeating: "B", count: 40_000))
    }
}
