import Testing

@testable import UnderstudyLoopbackHTTP

/// The response parser on bytes written here: every framing the client meets, and every way a
/// response can be broken, without a socket.
@Suite("UnderstudyLoopbackHTTP: parsing responses (no sockets)")
struct LoopbackHTTPResponseParsingTests {
    private func parse(_ text: String, method: String = "GET") throws(LoopbackHTTPError) -> LoopbackHTTPResponse {
        try LoopbackHTTPResponse(parsing: Array(text.utf8), requestMethod: method)
    }

    /// The error `text` fails with; nil (and an issue) when it parses.
    private func failure(_ text: String, method: String = "GET") -> LoopbackHTTPError? {
        do {
            let response = try parse(text, method: method)
            Issue.record(
                "parsed: \(response.status) \(String(decoding: response.body, as: UTF8.self).debugDescription)")
            return nil
        } catch {
            return error
        }
    }

    @Test func contentLengthFramesTheBodyAndTheHeadKeepsItsOrderAndCase() throws {
        let response = try parse(
            "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nX-Empty:\r\nContent-Length:  7 \r\n\r\n"
                + "{\"a\":1}bytes past the length")
        #expect(response.status == 201)
        #expect(response.reason == "Created")
        #expect(
            response.headers == [
                .init(name: "Content-Type", value: "application/json"), .init(name: "X-Empty", value: ""),
                .init(name: "Content-Length", value: "7"),
            ])
        #expect(response.header("content-type") == "application/json")
        #expect(response.header("X-Missing") == nil)
        #expect(response.body == Array("{\"a\":1}".utf8))
    }

    @Test func chunkedBodiesDropExtensionsAndTrailers() throws {
        let response = try parse(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "4;name=value\r\nWiki\r\n" + "5 ; quoted=\"a;b\"\r\npedia\r\n" + "E\r\n in\r\n\r\nchunks.\r\n"
                + "0;last\r\nExpires: never\r\nX-Checksum: abc\r\n\r\n")
        #expect(String(decoding: response.body, as: UTF8.self) == "Wikipedia in\r\n\r\nchunks.")
        // Trailer fields are not header fields.
        #expect(response.header("Expires") == nil)
        #expect(response.headers.map(\.name) == ["Transfer-Encoding"])
    }

    @Test func chunkedWinsOverContentLengthAndMayFollowAnotherCoding() throws {
        let response = try parse(
            "HTTP/1.1 200 OK\r\nContent-Length: 99\r\nTransfer-Encoding: gzip, Chunked\r\n\r\n"
                + "a\r\n0123456789\r\n0\r\n\r\n")
        #expect(response.body == Array("0123456789".utf8))
    }

    @Test func withoutLengthOrChunksTheBodyRunsToTheClose() throws {
        let response = try parse("HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nall of it\r\nup to the close")
        #expect(response.body == Array("all of it\r\nup to the close".utf8))
        // Another coding last: the close frames the body too (RFC 9112 §6.3).
        #expect(try parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nraw").body == Array("raw".utf8))
        // An empty reason phrase, or none at all.
        #expect(try parse("HTTP/1.1 404 \r\n\r\n").reason == "")
        #expect(try parse("HTTP/1.1 404\r\n\r\n").status == 404)
    }

    @Test func headNoContentAndNotModifiedHaveNoBodyWhateverTheHeadSays() throws {
        #expect(try parse("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n", method: "HEAD").body.isEmpty)
        #expect(try parse("HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\n").body.isEmpty)
        #expect(try parse("HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: chunked\r\n\r\n").body.isEmpty)
    }

    @Test func interimResponsesBeforeTheFinalOneAreSkipped() throws {
        let response = try parse(
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\n"
                + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        #expect(response.status == 200)
        #expect(response.headers.map(\.name) == ["Content-Length"])
        #expect(response.body == Array("ok".utf8))
    }

    @Test(arguments: [
        "HTTP/2 200 OK", "HTTP/1.1 20 OK", "HTTP/1.1 2000 OK", "HTTP/1.1 abc OK", "HTTP/1.1 200OK", "ICY 200 OK",
        "http/1.1 200 OK", " HTTP/1.1 200 OK", "HTTP/1.1 099 Below",
        "\u{1}\u{2}UNDERSTUDY-MALFORMED-RESPONSE this is not HTTP",
    ])
    func aMalformedStatusLineIsRefusedAndQuoted(statusLine: String) throws {
        let error = try #require(failure(statusLine + "\r\nContent-Length: 0\r\n\r\n"))
        guard case .malformedResponse(let detail) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(detail.contains(String(statusLine.debugDescription.dropLast())), "\(detail)")
        #expect(error.description.hasPrefix("malformed HTTP response: "))
    }

    @Test func malformedHeadsAndBodiesSayWhat() throws {
        let cases: [(String, String)] = [
            ("HTTP/1.1 200 OK\r\nno colon here\r\n\r\n", "not a header field (name: value): \"no colon here\""),
            ("HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n", "not a header field"),
            ("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n12345", "Content-Length is not one"),
            ("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", "Content-Length is not one"),
            ("HTTP/1.1 200 OK\r\nContent-Length: 0x10\r\n\r\n", "Content-Length is not one"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "not a chunk-size line: \"zz\""),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\r\n", "not a chunk-size line"),
            // What the daemon's `malformed-response-chunk` sends: not a size, even before a line end.
            (
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nlskdu018973t",
                "not a chunk-size line: \"lskdu018973t\""
            ),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX\r\n0\r\n\r\n", "not followed by CRLF"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nbroken trailer\r\n\r\n", "not a trailer field"),
        ]
        for (text, expected) in cases {
            let error = try #require(failure(text))
            guard case .malformedResponse(let detail) = error else {
                Issue.record("\(text.debugDescription): \(error)")
                continue
            }
            #expect(detail.contains(expected), "\(text.debugDescription): \(detail)")
        }
        // Equal Content-Lengths, in one field or two, are one length.
        #expect(try parse("HTTP/1.1 200 OK\r\nContent-Length: 2, 2\r\nContent-Length: 2\r\n\r\nok").body.count == 2)
    }

    @Test func aResponseCutShortIsTruncatedNotShortened() throws {
        let cases: [(String, String)] = [
            ("", "the connection closed without a response"),
            ("HTTP/1.1 200 OK\r\nContent-Le", "inside the response head (27 bytes"),
            ("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nfour", "closed after 4 of 10 body bytes"),
            ("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n", "closed after 0 of 1 body bytes"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", "inside a chunk-size line after 0 body bytes"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n1", "inside a chunk-size line after 3"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n5\r\nab", "after 2 of a 5-byte chunk"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc", "after a chunk, before its CRLF"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n", "inside the chunked body's trailer section"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX-A: b\r\n", "trailer section"),
            ("HTTP/1.1 100 Continue\r\n\r\n", "the connection closed without a response"),
        ]
        for (text, expected) in cases {
            let error = try #require(failure(text))
            guard case .truncatedResponse(let detail) = error else {
                Issue.record("\(text.debugDescription): \(error)")
                continue
            }
            #expect(detail.contains(expected), "\(text.debugDescription): \(detail)")
            #expect(error.description.hasPrefix("truncated HTTP response: "))
        }
    }

    // MARK: The request and the address

    @Test func theRequestAnnouncesItsBodyAndAsksToClose() {
        let post = LoopbackHTTPClient.request(
            method: "POST", target: "/__admin/requests/count?x=1", host: "127.0.0.1", port: 8080,
            headers: [("Content-Type", "application/json")], body: Array("{}".utf8))
        #expect(
            String(decoding: post, as: UTF8.self)
                == "POST /__admin/requests/count?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nConnection: close\r\n"
                + "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
        // An empty POST still says so; a GET without a body says nothing; an IPv6 host is bracketed.
        let emptyPost = LoopbackHTTPClient.request(
            method: "POST", target: "/s", host: "::1", port: 9, headers: [], body: nil)
        #expect(
            String(decoding: emptyPost, as: UTF8.self)
                == "POST /s HTTP/1.1\r\nHost: [::1]:9\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
        let get = LoopbackHTTPClient.request(
            method: "GET", target: "/", host: "localhost", port: 1, headers: [], body: nil)
        #expect(!String(decoding: get, as: UTF8.self).contains("Content-Length"))
    }

    @Test func onlyAPlainHTTPHostAndPortIsAnAddress() throws {
        for (url, host, port) in [
            ("http://127.0.0.1:8080", "127.0.0.1", 8080), ("http://localhost:1/", "localhost", 1),
            ("http://[::1]:65535", "::1", 65535),
        ] {
            let client = try #require(LoopbackHTTPClient(url: url, timeout: 3), "\(url)")
            #expect((client.host, client.port, client.timeout) == (host, port, 3), "\(url)")
        }
        for url in [
            "https://127.0.0.1:8080", "http://127.0.0.1", "http://127.0.0.1:0", "http://127.0.0.1:65536",
            "http://127.0.0.1:80/path", "http://:80", "http://::1:80", "http://user@host:80", "127.0.0.1:80",
        ] {
            #expect(LoopbackHTTPClient(url: url) == nil, "\(url)")
        }
    }

    @Test func errorsReadAsSentences() {
        #expect(
            LoopbackHTTPError.connectionRefused(host: "127.0.0.1", port: 9).description
                == "cannot connect to 127.0.0.1:9: connection refused (is the daemon running there?)")
        #expect(
            LoopbackHTTPError.timedOut(host: "::1", port: 9, seconds: 0.5, phase: .receiving).description
                == "[::1]:9 timed out after 0.5 s while waiting for the response")
        #expect(
            LoopbackHTTPError.timedOut(host: "h", port: 9, seconds: 30, phase: .connecting).description
                == "h:9 timed out after 30 s while connecting")
        let reset = LoopbackHTTPError.connectionFailed(host: "h", port: 9, phase: .receiving, reason: "reset")
        #expect(reset.description == "receiving from h:9 failed: reset")
    }
}
